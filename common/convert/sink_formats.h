// What `nx-convert --to FORMAT` can write, as one table: the nx event stream
// and the trace formats for Perfetto UI and chrome://tracing.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/io/output.h"
#include "common/profile/profile_sink.h"

namespace nx {

struct SinkFormat {
    const char* name;
    const char* description;
    bool binary;  // never written to a terminal
    std::unique_ptr<ProfileSink> (*make)(Output& out);
};

const std::vector<SinkFormat>& sink_formats();
const SinkFormat* find_sink_format(std::string_view name);
// "events, pftrace, chrome-json"
std::string sink_format_names();

}  // namespace nx
