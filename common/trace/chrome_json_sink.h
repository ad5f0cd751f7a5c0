// `nx-convert --to chrome-json`: the Chrome trace-event JSON format, for
// chrome://tracing and tools that predate Perfetto's protobuf.  Same layout
// as the Perfetto trace (trace_layout.h): a process per profile ("M"
// process_name), a thread per track and overflow lane ("M" thread_name and
// thread_sort_index), complete "X" events in microseconds with three decimals
// (exact nanoseconds), "C" counter events.  Written as it goes.
#pragma once

#include <memory>

#include "common/io/output.h"
#include "common/profile/profile_sink.h"
#include "common/trace/trace_writer.h"

namespace nx {

std::unique_ptr<TraceWriter> make_chrome_json_writer(Output& out);
std::unique_ptr<ProfileSink> make_chrome_json_sink(Output& out);

// Nanoseconds as a JSON number of microseconds, exactly ("1234.567").
std::string ns_as_us(int64_t ns);

}  // namespace nx
