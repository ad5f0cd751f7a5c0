// nx's own event stream (`nx-convert --to events`): event records grouped by
// profile, each group followed by its flow records and its profile record.  Reading it back gives
// the same profile (metrics from the source stay "source"; the rest are
// derived again from the events).
#include <rapidjson/document.h>

#include <climits>
#include <cstdint>

#include "common/import/importer.h"
#include "common/io/error.h"
#include "common/profile/profile_record.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

class NxJsonl {
public:
    NxJsonl(ImportHandler& out, ImportContext& ctx) : out_(out), ctx_(ctx) {}

    void run(InputSource& in) {
        JsonlReader reader(in);
        rapidjson::Document doc;
        std::string text;
        while (reader.next_line(text)) {
            int64_t line = reader.line();
            try {
                parse_json_object(doc, text, ctx_.where, line);
                std::string kind = get_string(doc, "kind").value_or("");
                if (kind == "event") event(doc, line);
                else if (kind == "flow") flow(doc);
                else if (kind == "profile") profile(doc);
                else if (kind.empty()) throw Error("record has no \"kind\"");
                else throw Error("unexpected \"" + kind + "\" record in an event stream");
            } catch (const SinkError&) {
                throw;  // not the line's fault: the profile's
            } catch (const Error& e) {
                // One line is unusable; with --keep-going later lines may be fine.
                ctx_.bad_record(e.what(), line);
            }
        }
        if (open_) out_.end_profile();
    }

private:
    void start(const std::string& id) {
        if (open_) out_.end_profile();
        ProfileInfo info = ctx_.profile_info("nx-jsonl");
        info.id = id;
        out_.begin_profile(info);
        open_ = true;
        current_ = id;
    }

    void event(const rapidjson::Value& r, int64_t line) {
        std::string id = get_string(r, "profile").value_or("");
        if (id.empty()) throw Error("event without \"profile\"");
        Event e;
        auto type = parse_event_type(get_string(r, "type").value_or("instruction"));
        if (!type) throw Error("unknown event \"type\"");
        e.type = *type;
        std::optional<int64_t> ts = get_int(r, "ts_ns");
        if (!ts) throw Error("missing \"ts_ns\"");
        e.ts_ns = *ts;
        e.dur_ns = get_int(r, "dur_ns").value_or(0);
        if (e.ts_ns < 0 || e.dur_ns < 0) throw Error("negative \"ts_ns\" or \"dur_ns\"");
        if (e.ts_ns > 4600000000000000000 || e.dur_ns > 4600000000000000000) throw Error("timestamp out of range");
        track_ = get_string(r, "track").value_or("");
        name_ = get_string(r, "name").value_or("");
        opcode_ = get_string(r, "opcode").value_or("");
        hlo_ = get_string(r, "hlo_name").value_or("");
        layer_ = get_string(r, "layer").value_or("");
        tensor_ = get_string(r, "tensor").value_or("");
        std::string engine = get_string(r, "engine").value_or("");
        auto eng = parse_engine(engine);
        if (!eng) throw Error("unknown \"engine\" \"" + engine + "\"");
        e.engine = *eng;
        e.track = track_;
        e.name = name_;
        e.opcode = opcode_;
        e.hlo_name = hlo_;
        e.layer = layer_;
        e.tensor = tensor_;
        e.bytes = get_int(r, "bytes").value_or(-1);
        e.flops = get_number(r, "flops").value_or(-1);
        e.model_flops = get_number(r, "model_flops").value_or(-1);
        if (e.bytes < -1 || e.flops < -1 || e.model_flops < -1) throw Error("negative \"bytes\" or \"flops\"");
        auto kind = parse_dma_kind(get_string(r, "dma_kind").value_or(""));
        if (!kind) throw Error("unknown \"dma_kind\"");
        e.dma_kind = *kind;
        if (const rapidjson::Value* t = find_member(r, "transpose")) e.transpose = t->IsBool() && t->GetBool();
        e.value = get_number(r, "value").value_or(0);
        int64_t depth = get_int(r, "depth").value_or(0);
        if (depth < INT32_MIN || depth > INT32_MAX) throw Error("\"depth\" out of range: " + std::to_string(depth));
        e.depth = static_cast<int32_t>(depth);
        int64_t pcore = get_int(r, "pcore").value_or(-1);
        if (pcore < -1 || pcore > 255) throw Error("\"pcore\" out of range: " + std::to_string(pcore));
        e.pcore = static_cast<int32_t>(pcore);
        args_.clear();
        if (const rapidjson::Value* a = find_member(r, "args")) {
            if (!a->IsObject()) throw Error("expected an object for \"args\"");
            args_ = to_json(*a);
        }
        e.args_json = args_;
        e.line = line;
        process_ = get_string(r, "process").value_or("");
        e.process = process_;
        e.pid = get_int(r, "pid").value_or(kNoId);
        e.tid = get_int(r, "tid").value_or(kNoId);
        if (!open_ || id != current_) start(id);
        out_.event(e);
    }

    // A flow between two event records of the profile being read (their
    // 0-based indexes); the builder checks that both are slices.
    void flow(const rapidjson::Value& r) {
        std::string id = get_string(r, "profile").value_or("");
        if (id.empty()) throw Error("flow without \"profile\"");
        if (!open_ || id != current_) throw Error("flow record of profile " + id + " not after its events");
        Flow f;
        f.id = get_string(r, "id").value_or("");
        f.category = get_string(r, "category").value_or("");
        f.name = get_string(r, "name").value_or("");
        std::optional<int64_t> from = get_int(r, "from_event"), to = get_int(r, "to_event");
        if (!from || !to) throw Error("flow without \"from_event\" and \"to_event\"");
        f.from = *from;
        f.to = *to;
        out_.flow(f);
    }

    void profile(const rapidjson::Value& r) {
        ProfileInfo info;
        ProfileSummary summary;
        read_profile_record(r, info, summary);
        if (info.id.empty()) throw Error("profile record without \"id\"");
        if (!open_ || info.id != current_) start(info.id);
        // Keep the record's description; where it came from originally stays.
        // A rank given for this input (--rank, a plan entry, a
        // profile_rank_<i> name) places it; else the record's own.
        ProfileInfo merged = info;
        if (merged.format.empty()) merged.format = "nx-jsonl";
        if (ctx_.base.rank >= 0) merged.rank = ctx_.base.rank;
        out_.update_info(merged);
        for (const MetricValue& m : summary.metrics)
            if (m.measured) out_.source_metric(m.name, m.value);
        out_.end_profile();
        open_ = false;
    }

    ImportHandler& out_;
    ImportContext& ctx_;
    bool open_ = false;
    std::string current_;
    std::string track_, name_, opcode_, hlo_, layer_, tensor_, args_, process_;
};

}  // namespace

void import_nx_jsonl(InputSource& in, ImportHandler& out, ImportContext& ctx) {
    NxJsonl reader(out, ctx);
    reader.run(in);
}

}  // namespace nx
