// neuron-profile / neuron-explorer `view --output-format json`:
//   {"summary": [{metrics of graph 0}, ...], "instruction": [...], "dma": [...],
//    "active_time": [...] (the profiler's busy intervals),
//    "semaphore_update", "dma_throughput", "pending_dma", "instruction_usage"
//    (time series: counter events), "layer_summary" (per-layer metrics,
//    carried as "layers"), "warnings", "profile_info", "metadata" ... (carried;
//    versions gathered into "versions"), and any other arrays: kept as
//    generic events when their records have a timestamp, else carried.}
// Field sets vary by tool version: known fields become event columns, all
// others are kept in the event's args; missing optional fields are tolerated.
#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <span>

#include "common/import/importer.h"
#include "common/import/record_reader.h"
#include "common/import/summary_fields.h"
#include "common/import/slots.h"
#include "common/import/tool_versions.h"
#include "common/io/error.h"
#include "common/io/json_text.h"
#include "common/profile/profile_record.h"
#include "common/profile/rule_inputs.h"
#include "common/target/targets.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

enum Field : int {
    kTimestamp, kDuration, kLabel, kOpcode, kHloName, kLayer, kSubgroup, kTransferSize, kInstructionType,
    kName, kFlops, kSource, kDest, kAggregated, kStartTs, kEndTs, kEngine, kValue, kId, kRate, kHbmRate, kUsageAvg,
    kType, kSubgraph, kFieldCount
};

struct FieldName {
    std::string_view name;
    Field field;
};
// Field names seen in neuron-profile JSON (neuron-facts.md section 2).
constexpr FieldName kFields[] = {
    {"timestamp", kTimestamp}, {"duration", kDuration}, {"label", kLabel}, {"opcode", kOpcode},
    {"hlo_name", kHloName}, {"layer", kLayer}, {"subgroup", kSubgroup}, {"transfer_size", kTransferSize},
    {"instruction_type", kInstructionType}, {"name", kName}, {"flops", kFlops},
    {"source", kSource}, {"dest", kDest}, {"aggregated", kAggregated},
    {"subgraph", kSubgraph},  // LNC=2: "sg00", "sg01", the physical core (kept in args too)
};

// The profiler's own busy intervals: "active_time":[{"pcore_idx":0,
// "engine":"tensor","start_ts":57,"end_ts":122,"duration_ns":64}, ...].
constexpr FieldName kActiveFields[] = {
    {"start_ts", kStartTs}, {"end_ts", kEndTs}, {"engine", kEngine}};

// Time series (neuron-profile 2.27): each record one sample.
//   semaphore_update {"timestamp","id","value"}      -> "semaphore <id>"
//   pending_dma {"timestamp","value"}                -> "pending DMAs"
//   dma_throughput {"timestamp","transfer_rate","hbm_transfer_rate",...}
//                                                    -> "DMA throughput (B/s)", "HBM throughput (B/s)"
//   instruction_usage {"timestamp","type":"sb"|"psum","usage_avg" (a fraction),...}
//                                                    -> "SBUF used (%)", "PSUM used (%)"
// Track names are the Explorer importer's for the same tables.
constexpr FieldName kSemaphoreFields[] = {{"timestamp", kTimestamp}, {"id", kId}, {"value", kValue}};
constexpr FieldName kPendingFields[] = {{"timestamp", kTimestamp}, {"value", kValue}};
constexpr FieldName kThroughputFields[] = {
    {"timestamp", kTimestamp}, {"transfer_rate", kRate}, {"hbm_transfer_rate", kHbmRate}};
constexpr FieldName kUsageFields[] = {{"timestamp", kTimestamp}, {"usage_avg", kUsageAvg}, {"type", kType}};

struct SeriesSection {
    std::string_view section;
    std::span<const FieldName> fields;
};
constexpr SeriesSection kSeries[] = {
    {"semaphore_update", kSemaphoreFields},
    {"pending_dma", kPendingFields},
    {"dma_throughput", kThroughputFields},
    {"instruction_usage", kUsageFields},
};

const SeriesSection* find_series(std::string_view section) {
    for (const SeriesSection& s : kSeries)
        if (s.section == section) return &s;
    return nullptr;
}

// Limits on what is carried from non-event sections into the profile record.
constexpr size_t kMaxCarriedRecords = 1000;

class NeuronJson : public RecordFormat {
public:
    NeuronJson(ImportHandler& out, ImportContext& ctx) : out_(out), ctx_(ctx) {}

    SectionMode section_mode(std::string_view section) override {
        // An "instruction" array, even empty, makes this a device profile;
        // without one it is something else (finish() says so).
        if (section == "instruction") saw_instructions_ = true;
        classify(section);
        return SectionMode::records;
    }

    int field_id(std::string_view /*section*/, std::string_view key) override {
        // Called for every field of every record (11 million times for a 1
        // million event profile): the reader announces each section before
        // its records (section_mode), so `section` is classified already,
        // and a key is compared with the known names of its length only.
        switch (section_) {
            case Section::summary:
            case Section::layer_summary: return -1;  // all to args: metrics, renamed with units
            case Section::series:
                for (const FieldName& f : series_->fields)
                    if (f.name == key) return f.field;
                return -1;
            case Section::active_time:
                for (const FieldName& f : kActiveFields)
                    if (f.name == key) return f.field;
                break;
            case Section::other: break;
        }
        if (key.size() >= fields_by_length_.size()) return -1;
        for (const FieldName& f : fields_by_length_[key.size()])
            if (f.name == key) return f.field;
        return -1;
    }

    void top_level(bool is_object) override {
        if (!is_object) throw Error("expected a JSON object with \"instruction\" and \"summary\" arrays", ctx_.where, 1);
        info_ = ctx_.profile_info("neuron-json");
        if (info_.backend.empty()) info_.backend = "neuron";
        info_.source_percents = PercentScale::fraction;  // summary and layer_summary write fractions of 1
        out_.begin_profile(info_);
    }

    void carried(std::string_view section, std::string_view json) override { add_carried(section, json); }

    void record(std::string_view section, const std::vector<Slot>& s, std::string_view args, int64_t line,
                const std::string& error) override {
        if (!error.empty()) {
            ctx_.bad_record(error + " in \"" + std::string(section) + "\"", line);
            return;
        }
        switch (section_) {
            case Section::summary: summary_record(args, line); return;
            case Section::active_time: active_record(s, args, line); return;
            case Section::series: series_record(section, s, line); return;
            case Section::layer_summary: layer_record(args); return;
            case Section::other: break;
        }
        if (section == "profile_info" || section == "metadata") note_versions(args);
        if (section == "metadata") note_core(args);
        bool is_dma = section == "dma";
        bool is_instruction = section == "instruction";
        if (!s[kTimestamp].present() && !is_dma && !is_instruction) {
            // Not an event (e.g. "warnings"): keep it with the profile.
            if (carried_records_++ < kMaxCarriedRecords) add_carried(section, whole_record(s, args), true);
            return;
        }
        Event e;
        std::string err = slot_to_int(s[kTimestamp], "timestamp", e.ts_ns);
        if (err.empty()) {
            if (s[kDuration].present()) err = slot_to_int(s[kDuration], "duration", e.dur_ns);
            else if (is_instruction || is_dma) err = "missing \"duration\"";
        }
        if (!err.empty()) {
            ctx_.bad_record(err + " in \"" + std::string(section) + "\"", line);
            return;
        }
        std::string_view label = slot_text(s[kLabel], scratch_[0]);
        std::string_view subgroup = slot_text(s[kSubgroup], scratch_[1]);
        e.opcode = slot_text(s[kOpcode], scratch_[2]);
        e.hlo_name = slot_text(s[kHloName], scratch_[3]);
        e.layer = slot_text(s[kLayer], scratch_[4]);
        std::string_view name = slot_text(s[kName], scratch_[5]);
        e.pcore = subgraph_core(slot_text(s[kSubgraph], scratch_[8]));
        e.line = line;
        // The fields that became the event's columns, its name or its row;
        // the other known fields go back into args (unused_fields).
        bool used[kFieldCount] = {};
        used[kTimestamp] = used[kDuration] = used[kOpcode] = used[kHloName] = used[kLayer] = true;
        if (is_dma && slot_text(s[kAggregated], scratch_[6]) == "yes") {
            // A DMA transfer as the compiler planned it, drawn over the
            // packets that carried it (they name it in packet_aggregation_id
            // and are in the array too).  Not a packet: counting it would
            // add its bytes and its time twice.
            e.type = EventType::region;
            e.track = !subgroup.empty() ? subgroup : (!label.empty() ? label : std::string_view("dma"));
            (!subgroup.empty() ? used[kSubgroup] : used[kLabel]) = true;
            e.name = !name.empty() ? name : std::string_view("DMA transfer");
            used[kName] = !name.empty();
        } else if (is_dma) {
            e.type = EventType::dma;
            e.engine = Engine::dma;
            e.track = !subgroup.empty() ? subgroup : (!label.empty() ? label : std::string_view("dma"));
            (!subgroup.empty() ? used[kSubgroup] : used[kLabel]) = true;
            // The packet's own memories first; the queue's name when they say nothing.
            e.dma_kind = dma_kind_from_memories(slot_text(s[kSource], scratch_[6]), slot_text(s[kDest], scratch_[7]));
            if (e.dma_kind == DmaKind::unknown) e.dma_kind = queue_kind(e.track);
            if (s[kTransferSize].present()) {
                err = slot_to_int(s[kTransferSize], "transfer_size", e.bytes);
                if (!err.empty()) {
                    ctx_.bad_record(err + " in \"dma\"", line);
                    return;
                }
                used[kTransferSize] = true;
            }
            e.name = !name.empty() ? name : (!e.opcode.empty() ? e.opcode : std::string_view("dma"));
            used[kName] = true;
        } else if (is_instruction) {
            e.type = EventType::instruction;
            // "label" names the timeline row; older files only have "subgroup".
            e.track = !label.empty() ? label : (!subgroup.empty() ? subgroup : std::string_view("unknown"));
            (!label.empty() ? used[kLabel] : used[kSubgroup]) = true;
            e.engine = engine_from_label(e.track);
            e.name = !e.opcode.empty() ? e.opcode : (!name.empty() ? name : e.track);
            used[kName] = e.opcode.empty();
            std::string_view itype = slot_text(s[kInstructionType], scratch_[6]);
            e.transpose = itype == "TRANSPOSE";
            if (s[kFlops].present()) {
                err = slot_to_double(s[kFlops], "flops", e.flops);
                if (!err.empty() || e.flops < 0) {
                    ctx_.bad_record(err.empty() ? "negative \"flops\"" : err, line);
                    return;
                }
                used[kFlops] = true;
            }
        } else {
            e.type = EventType::region;
            e.track = section;
            e.name = !name.empty() ? name : (!label.empty() ? label : (!e.opcode.empty() ? e.opcode : section));
            (!name.empty() ? used[kName] : used[kLabel]) = true;
        }
        // The second physical core's rows apart from the first's, named as
        // the Explorer importer names them.
        if (is_dma || is_instruction) e.track = core_track(e.track, e.pcore, scratch_[9]);
        e.args_json = with_unused_fields(s, used, args);
        out_.event(e);
    }

    void finish() {
        if (!saw_instructions_)
            throw Error("no \"instruction\" array: not a neuron-profile device profile (a summary alone is "
                        "--format summary-json)",
                        ctx_.where);
        if (!layers_.empty()) add_carried("layers", layers_ + "]");
        if (versions_.size() > 1) add_carried("versions", versions_ + "}");
        // Only the first graph's summary describes these instructions; say
        // how many others the file had.
        if (extra_summaries_ > 0) add_carried("summary_graphs_ignored", std::to_string(extra_summaries_));
        if (info_changed_ && carried_.empty()) out_.update_info(info_);
        if (!carried_.empty()) {
            // Merge into whatever the capture record carried.
            merge_carried(info_, {carried_.begin(), carried_.end()});
            out_.update_info(info_);
        }
        out_.end_profile();
    }

private:
    // What the section's records are (field_id and record read it).
    void classify(std::string_view section) {
        series_ = find_series(section);
        section_ = section == "summary"         ? Section::summary
                   : section == "layer_summary" ? Section::layer_summary
                   : section == "active_time"   ? Section::active_time
                   : series_                    ? Section::series
                                                : Section::other;
    }

    // Queue names repeat: classify each once.
    DmaKind queue_kind(std::string_view queue) {
        if (queue == last_queue_) return last_kind_;
        last_queue_.assign(queue);
        last_kind_ = dma_kind_from_queue(queue);
        return last_kind_;
    }

    // A record as the source wrote it: its args plus the fields that went
    // to slots (a carried record keeps its "name", "label" ...).
    std::string whole_record(const std::vector<Slot>& s, std::string_view args) {
        std::string out = args.empty() ? std::string("{}") : std::string(args);
        for (const FieldName& f : kFields) {
            const Slot& v = s[f.field];
            if (!v.present()) continue;
            std::string text;
            switch (v.kind) {
                case Slot::integer: text = std::to_string(v.i); break;
                case Slot::unsigned_big: text = std::to_string(v.u); break;
                case Slot::real: text = to_json(rapidjson::Value(v.d)); break;
                case Slot::boolean: text = v.b ? "true" : "false"; break;
                case Slot::string: text = json_quote(v.s); break;
                case Slot::json: text = v.s; break;
                default: continue;
            }
            out.insert(out.size() - 1, (out.size() > 2 ? "," : "") + json_quote(f.name) + ":" + text);
        }
        return out;
    }

    // An event's args: the source's other fields, and the known ones that
    // did not become a column, its name or its row (an instruction's
    // "subgroup" beside its "label", its "instruction_type", a DMA's
    // "flops"...), so every field of the source is somewhere.  Known fields
    // holding an empty string ("instruction_type": "") read as absent, as
    // they do for the columns.
    // Called for every event: appends in place, allocating nothing once warm.
    std::string_view with_unused_fields(const std::vector<Slot>& s, const bool* used, std::string_view args) {
        bool reopened = false;
        for (const FieldName& f : kFields) {
            const Slot& v = s[f.field];
            if (used[f.field] || !v.present() || (v.kind == Slot::string && v.s.empty())) continue;
            if (!reopened) extra_.reopen_object(args.empty() ? std::string_view("{}") : args);
            reopened = true;
            extra_.key_text(quoted_field_names_[f.field]);
            switch (v.kind) {
                case Slot::integer: extra_.int64(v.i); break;
                case Slot::unsigned_big: extra_.uint64(v.u); break;
                case Slot::real: extra_.real(v.d); break;
                case Slot::boolean: extra_.boolean(v.b); break;
                case Slot::string: extra_.string(v.s); break;
                default: extra_.raw(v.s); break;  // Slot::json: a nested value's text
            }
        }
        if (!reopened) return args;
        extra_.end_object();
        return extra_.view();
    }

    // One sample of a time series (kSeries): counter events.
    void series_record(std::string_view section, const std::vector<Slot>& s, int64_t line) {
        int64_t ts = 0;
        std::string err = slot_to_int(s[kTimestamp], "timestamp", ts);
        auto sample = [&](Field f, std::string_view field, std::string_view track, double scale) {
            if (!err.empty() || !s[f].present()) return;
            double v = 0;
            err = slot_to_double(s[f], field, v);
            if (err.empty()) counter(ts, v * scale, track);
        };
        if (section == "semaphore_update") {
            std::string_view id = slot_text(s[kId], scratch_[0]);
            scratch_[1] = "semaphore " + std::string(id.empty() ? "?" : id);
            if (err.empty() && !s[kValue].present()) err = "missing \"value\"";
            sample(kValue, "value", scratch_[1], 1);
        } else if (section == "pending_dma") {
            if (err.empty() && !s[kValue].present()) err = "missing \"value\"";
            sample(kValue, "value", "pending DMAs", 1);
        } else if (section == "dma_throughput") {
            sample(kRate, "transfer_rate", "DMA throughput (B/s)", 1);
            sample(kHbmRate, "hbm_transfer_rate", "HBM throughput (B/s)", 1);
        } else {
            // usage_avg is a fraction of the memory (SBUF per partition, PSUM banks).
            std::string_view type = slot_text(s[kType], scratch_[0]);
            std::string_view track = type == "psum" ? "PSUM used (%)" : type == "sb" ? "SBUF used (%)" : std::string_view();
            if (track.empty()) {
                scratch_[1] = std::string(type.empty() ? "memory" : type) + " used (%)";
                track = scratch_[1];
            }
            sample(kUsageAvg, "usage_avg", track, 100);
        }
        if (!err.empty()) ctx_.bad_record(err + " in \"" + std::string(section) + "\"", line);
    }

    void counter(int64_t ts, double value, std::string_view track) { emit_counter(out_, ts, value, track); }

    // layer_summary: one object per layer (the whole subgraph first) with
    // times in ns and percents as fractions of 1.  Carried as "layers" with
    // nx's unit names: *_ns, *_percent (0..100), mfu/hfu_estimated_percent.
    void layer_record(std::string_view args) {
        rapidjson::Document doc;
        if (!args.empty()) doc.Parse(args.data(), args.size());
        if (args.empty() || doc.HasParseError() || !doc.IsObject() || layer_count_ >= kMaxCarriedRecords) return;
        ++layer_count_;
        std::string obj = "{";
        auto put = [&](std::string_view k, const std::string& v) {
            obj += (obj.size() > 1 ? "," : "") + json_quote(k) + ":" + v;
        };
        auto ends = [](std::string_view k, std::string_view suf) {
            return k.size() >= suf.size() && k.substr(k.size() - suf.size()) == suf;
        };
        for (auto& m : doc.GetObject()) {
            std::string k(m.name.GetString(), m.name.GetStringLength());
            std::string v = to_json(m.value);
            if (!m.value.IsNumber()) {
                put(k == "fully_qualified_subgraph" ? "subgraph" : k, v);
                continue;
            }
            double x = m.value.GetDouble();
            if (k == "start" || k == "end" || k == "duration") put(k + "_ns", v);
            else if (ends(k, "_active_time") || ends(k, "_instruction_time")) put(k + "_ns", v);
            else if (ends(k, "_active_percent"))
                put(k.substr(0, k.size() - 8) + "_time_percent", to_json(rapidjson::Value(x * 100)));
            else if (k == "tensor_engine_mfu") put("mfu_estimated_percent", to_json(rapidjson::Value(x * 100)));
            else if (k == "tensor_engine_hfu") put("hfu_estimated_percent", to_json(rapidjson::Value(x * 100)));
            else put(k, v);
        }
        obj += "}";
        layers_ += (layers_.empty() ? "[" : ",") + obj;
    }

    // Profiler, runtime, compiler (and driver, collectives) versions from
    // the summary, profile_info and metadata: one "versions" object.
    void note_versions(std::string_view args) {
        rapidjson::Document doc;
        if (!args.empty()) doc.Parse(args.data(), args.size());
        if (args.empty() || doc.HasParseError() || !doc.IsObject()) return;
        note_versions(doc);
    }
    void note_versions(const rapidjson::Value& obj) {
        static constexpr VersionField kVersionFields[] = {
            {"profiler_version", "profiler"}, {"runtime_version", "runtime"}, {"compiler_version", "compiler"},
            {"driver_version", "driver"}, {"collectives_version", "collectives"}, {"ntff_version", "ntff"},
            {"profiler_build_time", "profiler_build_time"}};
        add_versions(obj, kVersionFields, versions_);
    }

    // The logical core as the profiler saw it ("metadata": num_physical_cores
    // 2 and vnc_enabled under LNC=2, pe_num_rows/cols, pe_clock_freq in GHz,
    // hbm_ddr_bandwidth in B/s): the peaks HFU, MFU and MBU divide by.
    void note_core(std::string_view args) {
        rapidjson::Document doc;
        if (!args.empty()) doc.Parse(args.data(), args.size());
        if (args.empty() || doc.HasParseError() || !doc.IsObject()) return;
        auto number = [&](const char* k) -> double {
            auto it = doc.FindMember(k);
            return it != doc.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : 0;
        };
        CoreFacts& c = info_.core;
        constexpr const char* kFrom = "profile metadata";
        if (double n = number("num_physical_cores"); n >= 1 && n <= 8) {
            c.physical_cores = static_cast<int>(n);
            c.cores_from = kFrom;
        }
        if (double ghz = number("pe_clock_freq"); ghz > 0 && ghz < 100) {
            c.pe_clock_ghz = ghz;
            c.pe_rows = static_cast<int>(number("pe_num_rows"));
            c.pe_cols = static_cast<int>(number("pe_num_cols"));
            c.peak_from = kFrom;
        }
        if (double bw = number("hbm_ddr_bandwidth"); bw > 0) {
            c.hbm_bytes_per_s = bw;
            c.hbm_from = kFrom;
        }
        info_changed_ = true;
    }

    void active_record(const std::vector<Slot>& s, std::string_view args, int64_t line) {
        // Engine names are lowercase: tensor (all of TensorE), vector, scalar, gpsimd, sync.
        std::string_view name = slot_text(s[kEngine], scratch_[0]);
        auto engine = parse_engine(name);
        if (!engine || !is_compute_engine(*engine)) {
            ctx_.bad_record(name.empty() ? "missing \"engine\" in \"active_time\""
                                         : "unknown engine \"" + std::string(name) + "\" in \"active_time\"",
                            line);
            return;
        }
        // The interval is [start_ts, end_ts); duration_ns (one less in
        // neuron-profile 2.27) stays in args with the other fields.
        Event e;
        int64_t end = 0;
        std::string err = slot_to_int(s[kStartTs], "start_ts", e.ts_ns);
        if (err.empty()) err = slot_to_int(s[kEndTs], "end_ts", end);
        if (err.empty() && end < e.ts_ns) err = "\"end_ts\" before \"start_ts\"";
        if (!err.empty()) {
            ctx_.bad_record(err + " in \"active_time\"", line);
            return;
        }
        e.dur_ns = end - e.ts_ns;
        e.type = EventType::active;
        e.engine = *engine;
        // pcore_idx stays in args with the other fields; the event knows it too.
        std::string_view pcore = json_field(args, "pcore_idx");
        if (!pcore.empty() && pcore.size() <= 2 && std::all_of(pcore.begin(), pcore.end(), ::isdigit))
            e.pcore = std::stoi(std::string(pcore));
        e.track = core_track(active_track(*engine), e.pcore, scratch_[1]);
        e.name = "active";
        e.args_json = args;
        e.line = line;
        out_.event(e);
    }

    // "<engine> active": a track of its own beside the engine's instruction row.
    static std::string_view active_track(Engine e) {
        switch (e) {
            case Engine::tensor: return "tensor active";
            case Engine::tensor_matrix: return "tensor_matrix active";
            case Engine::vector: return "vector active";
            case Engine::scalar: return "scalar active";
            case Engine::gpsimd: return "gpsimd active";
            case Engine::sync: return "sync active";
            default: return "active";
        }
    }

    void summary_record(std::string_view args, int64_t line) {
        if (summaries_++ > 0) {
            ++extra_summaries_;
            return;
        }
        if (args.empty()) return;
        rapidjson::Document doc;
        doc.Parse(args.data(), args.size());
        if (doc.HasParseError() || !doc.IsObject()) {
            ctx_.bad_record("unreadable summary object", line);
            return;
        }
        note_versions(doc);
        for (auto& m : doc.GetObject()) {
            std::string_view k(m.name.GetString(), m.name.GetStringLength());
            if (m.value.IsNumber() && !is_identifier_field(k)) {
                double v = m.value.GetDouble();
                if (std::isfinite(v)) out_.source_metric(k, v);
            } else if (k == "instance_type" && m.value.IsString() && info_.target.empty()) {
                // The instance the profile was captured on names the
                // target, unless --target or the capture record did.
                info_.target = target_of_instance(m.value.GetString());
                if (!info_.target.empty()) info_changed_ = true;
            }
        }
        if (std::string ids = summary_fields_json(doc); !ids.empty()) add_carried("summary_fields", ids);
    }

    void add_carried(std::string_view section, std::string_view json, bool as_list = false) {
        std::string key(section);
        auto it = carried_.find(key);
        if (!as_list) {
            carried_[key] = std::string(json);
        } else if (it == carried_.end()) {
            carried_[key] = "[" + std::string(json) + "]";
        } else {
            it->second.pop_back();
            it->second += "," + std::string(json) + "]";
        }
    }

    ImportHandler& out_;
    ImportContext& ctx_;
    ProfileInfo info_;
    std::string scratch_[10];
    JsonText extra_;  // an event's args with its unused known fields
    std::map<std::string, std::string> carried_;
    size_t carried_records_ = 0;
    int summaries_ = 0;
    std::string last_queue_;
    DmaKind last_kind_ = DmaKind::unknown;
    int extra_summaries_ = 0;
    bool info_changed_ = false;
    bool saw_instructions_ = false;
    // What the section the reader is in holds (classify); other: events,
    // metadata and carried sections.
    enum class Section : uint8_t { summary, layer_summary, active_time, series, other };
    Section section_ = Section::other;
    const SeriesSection* series_ = nullptr;  // Section::series: which one
    // kFields by the length of their names (at most four share one).
    std::array<std::vector<FieldName>, 17> fields_by_length_ = [] {
        std::array<std::vector<FieldName>, 17> by;
        for (const FieldName& f : kFields) by.at(f.name.size()).push_back(f);
        return by;
    }();
    // kFields' names as args write them ("\"subgroup\":"), by field.
    std::array<std::string, kFieldCount> quoted_field_names_ = [] {
        std::array<std::string, kFieldCount> quoted;
        for (const FieldName& f : kFields) {
            JsonText t;
            t.key(f.name);
            quoted[f.field] = std::string(t.view());
        }
        return quoted;
    }();
    std::string layers_;
    size_t layer_count_ = 0;
    std::string versions_ = "{";
};

}  // namespace

void import_neuron_json(InputSource& in, ImportHandler& out, ImportContext& ctx) {
    NeuronJson format(out, ctx);
    read_records(in, format, kFieldCount);
    format.finish();
}

}  // namespace nx
