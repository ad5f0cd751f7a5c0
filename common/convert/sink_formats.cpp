#include "common/convert/sink_formats.h"

#include "common/profile/record_sinks.h"
#include "common/trace/chrome_json_sink.h"
#include "common/trace/pftrace_sink.h"

namespace nx {

namespace {
std::unique_ptr<ProfileSink> make_event_sink(Output& out) { return std::make_unique<EventRecordSink>(out); }
}  // namespace

const std::vector<SinkFormat>& sink_formats() {
    static const std::vector<SinkFormat> formats = {
        {"events", "nx event records (JSON Lines), then each profile's flows and record", false, make_event_sink},
        {"pftrace", "Perfetto protobuf trace (ui.perfetto.dev, trace_processor)", true, make_pftrace_sink},
        {"chrome-json", "Chrome trace-event JSON (chrome://tracing, older tools)", false, make_chrome_json_sink},
    };
    return formats;
}

const SinkFormat* find_sink_format(std::string_view name) {
    for (const SinkFormat& f : sink_formats())
        if (name == f.name) return &f;
    return nullptr;
}

std::string sink_format_names() {
    std::string s;
    for (const SinkFormat& f : sink_formats()) s += (s.empty() ? "" : ", ") + std::string(f.name);
    return s;
}

}  // namespace nx
