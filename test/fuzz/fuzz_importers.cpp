// libFuzzer target: every importer and the format sniffer on arbitrary bytes.
// The first byte picks the importer; the rest is the input (the Chrome
// importer reads it twice: its first pass over M and flow events too).  Bad input must
// end in nx::Error (or a counted bad record), never a crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/import/importer.h"
#include "common/io/error.h"
#include "common/profile/profile_builder.h"

namespace {

// Swallows everything, but touches every string so sanitizers see bad views.
class NullSink : public nx::ProfileSink {
public:
    void begin_profile(const nx::ProfileInfo&) override {}
    void event(const nx::Event& e) override {
        sum_ += e.track.size() + e.name.size() + e.opcode.size() + e.hlo_name.size() + e.layer.size() +
                e.args_json.size() + static_cast<size_t>(e.ts_ns & 1);
    }
    void flow(const nx::Flow& f) override {
        sum_ += f.id.size() + f.category.size() + f.name.size() + static_cast<size_t>((f.from_slice ^ f.to_slice) & 1);
    }
    void end_profile(const nx::ProfileInfo&, const nx::ProfileSummary& s) override { sum_ += s.metrics.size(); }
    size_t sum_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const auto& formats = nx::input_formats();
    const nx::FormatDef& format = formats[data[0] % formats.size()];
    if (!format.import) return 0;  // directory formats have their own target (fuzz_parquet); NTFFs are the viewer's
    std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    (void)nx::sniff_format(text, "fuzz.json");
    for (bool keep_going : {false, true}) {
        auto in = nx::InputSource::from_memory(text, "fuzz.json");
        nx::ProfileBuilder builder;
        NullSink sink;
        builder.add_sink(&sink);
        nx::ImportContext ctx;
        ctx.where = "fuzz.json";
        ctx.keep_going = keep_going;
        try {
            format.import(*in, builder, ctx);
            if (builder.in_profile()) builder.end_profile();
        } catch (const nx::Error&) {
            builder.abort_profile();
        }
    }
    return 0;
}
