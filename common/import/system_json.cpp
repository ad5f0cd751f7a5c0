// Neuron Explorer system profile (`-d dir --output-format json` writes
// system_profile.json): "trace_events" are runtime API calls on the host
// (nrt_tensor_write, nrt_execute ...); "mem_usage" and "cpu_util" samples
// become counter tracks.  Times are nanoseconds since the epoch.
#include <rapidjson/document.h>

#include <cmath>

#include "common/import/importer.h"
#include "common/import/record_reader.h"
#include "common/import/slots.h"
#include "common/io/error.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

enum Field : int { kName, kTimestamp, kDuration, kGroup, kFieldCount };

class SystemJson : public RecordFormat {
public:
    SystemJson(ImportHandler& out, ImportContext& ctx) : out_(out), ctx_(ctx) {}

    SectionMode section_mode(std::string_view section) override {
        if (section == "trace_events" || section == "mem_usage" || section == "cpu_util") return SectionMode::records;
        return SectionMode::carry;
    }
    int field_id(std::string_view section, std::string_view key) override {
        if (key == "timestamp") return kTimestamp;
        if (section != "trace_events") return -1;  // samples: every other field is a counter
        if (key == "name") return kName;
        if (key == "duration") return kDuration;
        if (key == "group") return kGroup;
        return -1;
    }
    void top_level(bool is_object) override {
        if (!is_object) throw Error("expected a JSON object with \"trace_events\"", ctx_.where, 1);
        info_ = ctx_.profile_info("system-json");
        if (info_.backend.empty()) info_.backend = "neuron";
        out_.begin_profile(info_);
    }
    void carried(std::string_view, std::string_view) override {}

    void record(std::string_view section, const std::vector<Slot>& s, std::string_view args, int64_t line,
                const std::string& error) override {
        if (!error.empty()) {
            ctx_.bad_record(error + " in \"" + std::string(section) + "\"", line);
            return;
        }
        Event e;
        std::string err = slot_to_int(s[kTimestamp], "timestamp", e.ts_ns);
        if (!err.empty()) {
            ctx_.bad_record(err + " in \"" + std::string(section) + "\"", line);
            return;
        }
        e.line = line;
        if (section == "trace_events") {
            if (s[kDuration].present()) err = slot_to_int(s[kDuration], "duration", e.dur_ns);
            if (!err.empty()) {
                ctx_.bad_record(err + " in \"trace_events\"", line);
                return;
            }
            e.type = EventType::runtime;
            e.engine = Engine::host;
            std::string_view group = slot_text(s[kGroup], scratch_[0]);
            e.track = group.empty() ? std::string_view("runtime") : group;
            e.name = slot_text(s[kName], scratch_[1]);
            if (e.name.empty()) e.name = "runtime";
            e.args_json = args;
            out_.event(e);
            return;
        }
        // A sample: one counter event per numeric field.
        rapidjson::Document doc;
        if (args.empty()) return;
        doc.Parse(args.data(), args.size());
        if (doc.HasParseError() || !doc.IsObject()) return;
        e.type = EventType::counter;
        for (auto& m : doc.GetObject()) {
            if (!m.value.IsNumber() || !std::isfinite(m.value.GetDouble())) continue;
            std::string track = std::string(section) + "." + std::string(m.name.GetString(), m.name.GetStringLength());
            e.track = track;
            e.name = track;
            e.value = m.value.GetDouble();
            out_.event(e);
        }
    }

    void finish() { out_.end_profile(); }

private:
    ImportHandler& out_;
    ImportContext& ctx_;
    ProfileInfo info_;
    std::string scratch_[2];
};

}  // namespace

void import_system_json(InputSource& in, ImportHandler& out, ImportContext& ctx) {
    SystemJson format(out, ctx);
    read_records(in, format, kFieldCount);
    format.finish();
}

}  // namespace nx
