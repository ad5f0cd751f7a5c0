#include "common/profile/profile_record.h"

#include <cmath>
#include <set>

#include "common/io/error.h"
#include "common/profile/device_record.h"
#include "common/profile/row_fields_json.h"
#include "common/records/json_members.h"

namespace nx {

namespace {

// Fields the profile record defines itself; carried fields with these names
// are replaced, never duplicated.
const std::set<std::string, std::less<>> kOwnFields = {
    "kind", "id", "name", "source", "format", "backend", "target", "dtype", "rank", "start_ns", "end_ns",
    "event_count", "metrics", "metric_origin", "engines", "top_opcodes", "top_layers", "notes", "profile", "timeline",
    "metric_disagreements", "tracks", "dma_queue_types", "unavailable_metrics", "peak_basis", "core", "breakdown",
    "collective_ops", "iterations", "executions", "device"};
// The identity's text fields, empty when the record lacks them (backend and
// target are written as null then, dtype left out).
const std::pair<const char*, std::string ProfileInfo::*> kIdentityText[] = {
    {"id", &ProfileInfo::id},         {"name", &ProfileInfo::name},     {"source", &ProfileInfo::source},
    {"format", &ProfileInfo::format}, {"backend", &ProfileInfo::backend}, {"target", &ProfileInfo::target},
    {"dtype", &ProfileInfo::dtype}};

bool is_own_field(std::string_view name) { return kOwnFields.count(name) > 0; }

// A timeline's bucket percents, to two decimals (the engine timeline and the
// breakdown's compute and collective shares alike).
void write_bucket_percents(JsonWriter& w, const std::vector<double>& values) {
    w.StartArray();
    for (double v : values) w.Double(std::round(v * 100) / 100);
    w.EndArray();
}

// The fields carried from the source (Explorer metadata, a capture's
// workload), but for those the record defines itself.
void write_carried_fields(JsonWriter& w, const ProfileInfo& info) {
    if (info.carried_json.empty()) return;
    rapidjson::Document carried;
    carried.Parse(info.carried_json.data(), info.carried_json.size());
    if (carried.HasParseError() || !carried.IsObject()) return;
    write_other_members(w, carried, is_own_field);
}

// What the profile is and where it came from, its span and its events.
void write_identity(JsonWriter& w, const ProfileInfo& info, const ProfileSummary& summary) {
    write_key(w, "kind");
    write_text(w, "profile");
    write_key(w, "id");
    write_text(w, info.id);
    write_key(w, "name");
    write_text(w, info.name);
    write_carried_fields(w, info);
    write_key(w, "source");
    write_text(w, info.source);
    write_key(w, "format");
    write_text(w, info.format);
    write_key(w, "backend");
    if (info.backend.empty()) w.Null(); else write_text(w, info.backend);
    write_key(w, "target");
    if (info.target.empty()) w.Null(); else write_text(w, info.target);
    if (!info.dtype.empty()) {
        write_key(w, "dtype");
        write_text(w, info.dtype);
    }
    if (info.rank >= 0) {
        write_key(w, "rank");
        w.Int(info.rank);
    }
    write_key(w, "start_ns");
    w.Int64(summary.start_ns);
    write_key(w, "end_ns");
    w.Int64(summary.end_ns);
    write_key(w, "event_count");
    w.Int64(summary.events);
}

// The object `key` with a member per item, named by the item, its value
// written by write_value.
template <class Item, class WriteValue>
void write_named_object(JsonWriter& w, const char* key, const std::vector<Item>& items, WriteValue write_value) {
    write_key(w, key);
    w.StartObject();
    for (const Item& item : items) {
        write_key(w, item.name);
        write_value(item);
    }
    w.EndObject();
}

// The metrics, where each came from, and why the missing ones are missing.
void write_metrics(JsonWriter& w, const ProfileSummary& summary) {
    write_named_object(w, "metrics", summary.metrics, [&](const MetricValue& m) { write_number(w, m.value); });
    write_named_object(w, "metric_origin", summary.metrics,
                       [&](const MetricValue& m) { write_text(w, m.measured ? "source" : "derived"); });
    if (!summary.unavailable.empty())
        write_named_object(w, "unavailable_metrics", summary.unavailable,
                           [&](const UnavailableMetric& u) { write_text(w, u.reason); });
}

void write_timeline(JsonWriter& w, const std::vector<EngineTimeline>& timeline) {
    write_key(w, "timeline");
    w.StartObject();
    write_key(w, "buckets");
    w.Int(kTimelineBuckets);
    write_key(w, "active_percent");
    w.StartObject();
    for (const EngineTimeline& t : timeline) {
        write_key(w, to_string(t.engine));
        write_bucket_percents(w, t.active_percent);
    }
    w.EndObject();
    w.EndObject();
}

void write_breakdown(JsonWriter& w, const TimeBreakdown& b) {
    write_key(w, "breakdown");
    w.StartObject();
    write_fields(w, b, kBreakdownFields);
    for (auto [k, values] : {std::pair<const char*, const std::vector<double>*>{"compute_percent", &b.compute_percent},
                             {"collective_percent", &b.collective_percent}}) {
        write_key(w, k);
        write_bucket_percents(w, *values);
    }
    w.EndObject();
}

// The digest (executions.h), not every execution: a session holds
// thousands, which the database's and the dataset's tables keep.
void write_execution_digest(JsonWriter& w, const ExecutionDigest& d) {
    write_key(w, "executions");
    w.StartObject();
    write_key(w, "count");
    w.Int64(d.count);
    write_rows(w, "neffs", d.neffs, kNeffSpreadFields);
    write_rows(w, "slow", d.slow, kSlowExecutionFields);
    w.EndObject();
}

}  // namespace

void write_profile_record(JsonWriter& w, const ProfileInfo& info, const ProfileSummary& summary) {
    w.StartObject();
    write_identity(w, info, summary);
    write_metrics(w, summary);
    if (info.core.any()) {
        write_key(w, "core");
        w.StartObject();
        write_fields(w, info.core, kCoreFields);
        w.EndObject();
    }
    if (!summary.peak_basis.empty()) {
        write_key(w, "peak_basis");
        write_text(w, summary.peak_basis);
    }

    write_rows(w, "engines", summary.engines, kEngineFields);
    if (!summary.dma_queue_types.empty())
        write_rows(w, "dma_queue_types", summary.dma_queue_types, kQueueTypeFields);
    write_rows(w, "top_opcodes", summary.top_opcodes, kOpcodeFields);
    write_rows(w, "top_layers", summary.top_layers, kLayerFields);
    if (!summary.tracks.empty()) write_rows(w, "tracks", summary.tracks, kTrackStatFields);
    if (!summary.timeline.empty()) write_timeline(w, summary.timeline);
    if (summary.breakdown) write_breakdown(w, *summary.breakdown);
    if (summary.device) {
        write_key(w, "device");
        write_device_summary(w, *summary.device);
    }
    if (!summary.collectives.empty())
        write_rows(w, "collective_ops", summary.collectives, kCollectiveFields);
    if (!summary.iterations.empty()) write_rows(w, "iterations", summary.iterations, kIterationFields);
    if (summary.execution_digest) write_execution_digest(w, *summary.execution_digest);
    if (!summary.disagreements.empty())
        write_rows(w, "metric_disagreements", summary.disagreements, kDisagreementFields);
    write_key(w, "notes");
    w.StartArray();
    for (const std::string& n : summary.notes) write_text(w, n);
    w.EndArray();
    w.EndObject();
}

std::string profile_record_json(const ProfileInfo& info, const ProfileSummary& summary) {
    rapidjson::StringBuffer sb;
    JsonWriter w(sb);
    write_profile_record(w, info, summary);
    return std::string(sb.GetString(), sb.GetSize());
}

CoreFacts read_core_facts(const rapidjson::Value& rec) {
    CoreFacts core;
    const rapidjson::Value* c = find_member(rec, "core");
    if (!c || !c->IsObject()) return core;
    read_row<CoreFacts>(*c, core, kCoreFields);
    return core;
}

void read_profile_record(const rapidjson::Value& rec, ProfileInfo& info, ProfileSummary& summary) {
    for (auto [name, member] : kIdentityText) info.*member = get_string(rec, name).value_or("");
    info.rank = static_cast<int>(get_int(rec, "rank").value_or(-1));
    summary.start_ns = get_int(rec, "start_ns").value_or(0);
    summary.end_ns = get_int(rec, "end_ns").value_or(0);
    summary.events = get_int(rec, "event_count").value_or(0);

    const rapidjson::Value* origin = find_member(rec, "metric_origin");
    if (const rapidjson::Value* metrics = find_member(rec, "metrics")) {
        if (!metrics->IsObject()) throw Error("expected an object for \"metrics\"");
        for (auto& m : metrics->GetObject()) {
            if (!m.value.IsNumber()) continue;  // null: not finite when written
            std::string name(m.name.GetString(), m.name.GetStringLength());
            bool measured = false;
            if (origin && origin->IsObject()) {
                auto o = origin->FindMember(m.name);
                measured = o != origin->MemberEnd() && o->value.IsString() && std::string_view(o->value.GetString()) == "source";
            }
            summary.metrics.push_back({name, m.value.GetDouble(), measured});
        }
    }
    if (const rapidjson::Value* un = find_member(rec, "unavailable_metrics"); un && un->IsObject())
        for (auto& m : un->GetObject())
            if (m.value.IsString())
                summary.unavailable.push_back({std::string(m.name.GetString(), m.name.GetStringLength()),
                                               std::string(m.value.GetString(), m.value.GetStringLength())});
    info.core = read_core_facts(rec);
    summary.peak_basis = get_string(rec, "peak_basis").value_or("");
    summary.engines = read_rows<EngineStat>(rec, "engines", kEngineFields);
    summary.dma_queue_types = read_rows<QueueTypeStat>(rec, "dma_queue_types", kQueueTypeFields);
    summary.top_opcodes = read_rows<KeyStat>(rec, "top_opcodes", kOpcodeFields);
    summary.top_layers = read_rows<KeyStat>(rec, "top_layers", kLayerFields);
    summary.tracks = read_rows<TrackStat>(rec, "tracks", kTrackStatFields);
    if (const rapidjson::Value* tl = find_member(rec, "timeline"); tl && tl->IsObject()) {
        if (const rapidjson::Value* ap = find_member(*tl, "active_percent"); ap && ap->IsObject()) {
            for (auto& m : ap->GetObject()) {
                auto eng = parse_engine(m.name.GetString());
                if (!eng || !m.value.IsArray()) continue;
                EngineTimeline t{*eng, {}};
                for (auto& v : m.value.GetArray()) t.active_percent.push_back(v.IsNumber() ? v.GetDouble() : 0);
                summary.timeline.push_back(std::move(t));
            }
        }
    }
    if (const rapidjson::Value* b = find_member(rec, "breakdown"); b && b->IsObject()) {
        TimeBreakdown t;
        read_row<TimeBreakdown>(*b, t, kBreakdownFields);
        for (auto [k, values] : {std::pair<const char*, std::vector<double>*>{"compute_percent", &t.compute_percent},
                                 {"collective_percent", &t.collective_percent}})
            if (const rapidjson::Value* a = find_member(*b, k); a && a->IsArray())
                for (auto& v : a->GetArray()) values->push_back(v.IsNumber() ? v.GetDouble() : 0);
        summary.breakdown = std::move(t);
    }
    if (const rapidjson::Value* d = find_member(rec, "device")) summary.device = read_device_summary(*d);
    summary.collectives = read_rows<CollectiveOp>(rec, "collective_ops", kCollectiveFields);
    summary.iterations = read_rows<Iteration>(rec, "iterations", kIterationFields);
    if (const rapidjson::Value* ex = find_member(rec, "executions"); ex && ex->IsObject()) {
        ExecutionDigest d;
        d.count = get_int(*ex, "count").value_or(0);
        d.neffs = read_rows<NeffSpread>(*ex, "neffs", kNeffSpreadFields);
        d.slow = read_rows<SlowExecution>(*ex, "slow", kSlowExecutionFields);
        summary.execution_digest = std::move(d);
    }
    summary.disagreements = read_rows<MetricDisagreement>(rec, "metric_disagreements", kDisagreementFields);
    if (const rapidjson::Value* notes = find_member(rec, "notes"); notes && notes->IsArray())
        for (auto& n : notes->GetArray())
            if (n.IsString()) summary.notes.emplace_back(n.GetString(), n.GetStringLength());

    // Everything else is carried.
    info.carried_json = other_members_json(rec, is_own_field);
}

void write_event_record(JsonWriter& w, const std::string& profile_id, const Event& e) {
    w.StartObject();
    write_key(w, "kind");
    write_text(w, "event");
    write_key(w, "profile");
    write_text(w, profile_id);
    write_key(w, "type");
    write_text(w, to_string(e.type));
    write_key(w, "track");
    write_text(w, e.track);
    if (e.pid != kNoId) { write_key(w, "pid"); w.Int64(e.pid); }
    if (e.tid != kNoId) { write_key(w, "tid"); w.Int64(e.tid); }
    if (!e.process.empty()) { write_key(w, "process"); write_text(w, e.process); }
    if (e.engine != Engine::none) {
        write_key(w, "engine");
        write_text(w, to_string(e.engine));
    }
    write_key(w, "ts_ns");
    w.Int64(e.ts_ns);
    write_key(w, "dur_ns");
    w.Int64(e.dur_ns);
    write_key(w, "name");
    write_text(w, e.name);
    if (!e.opcode.empty()) { write_key(w, "opcode"); write_text(w, e.opcode); }
    if (!e.hlo_name.empty()) { write_key(w, "hlo_name"); write_text(w, e.hlo_name); }
    if (!e.layer.empty()) { write_key(w, "layer"); write_text(w, e.layer); }
    if (e.bytes >= 0) { write_key(w, "bytes"); w.Int64(e.bytes); }
    if (e.flops >= 0) { write_key(w, "flops"); write_number(w, e.flops); }
    if (e.model_flops >= 0) { write_key(w, "model_flops"); write_number(w, e.model_flops); }
    if (e.dma_kind != DmaKind::unknown) { write_key(w, "dma_kind"); write_text(w, to_string(e.dma_kind)); }
    if (e.transpose) { write_key(w, "transpose"); w.Bool(true); }
    if (!e.tensor.empty()) { write_key(w, "tensor"); write_text(w, e.tensor); }
    if (e.type == EventType::counter) { write_key(w, "value"); write_number(w, e.value); }
    if (e.depth > 0) { write_key(w, "depth"); w.Int(e.depth); }
    if (e.pcore >= 0) { write_key(w, "pcore"); w.Int(e.pcore); }
    if (!e.args_json.empty()) {
        write_key(w, "args");
        w.RawValue(e.args_json.data(), e.args_json.size(), rapidjson::kObjectType);
    }
    w.EndObject();
}

void write_flow_record(JsonWriter& w, const std::string& profile_id, const Flow& f) {
    w.StartObject();
    write_key(w, "kind");
    write_text(w, "flow");
    write_key(w, "profile");
    write_text(w, profile_id);
    write_key(w, "id");
    write_text(w, f.id);
    if (!f.category.empty()) { write_key(w, "category"); write_text(w, f.category); }
    if (!f.name.empty()) { write_key(w, "name"); write_text(w, f.name); }
    write_key(w, "from_event");
    w.Int64(f.from);
    write_key(w, "to_event");
    w.Int64(f.to);
    w.EndObject();
}

rapidjson::Document carried_document(const ProfileInfo& info) {
    rapidjson::Document doc;
    if (!info.carried_json.empty()) doc.Parse(info.carried_json.data(), info.carried_json.size());
    if (doc.HasParseError() || !doc.IsObject()) doc.SetObject();
    return doc;
}

void merge_carried(ProfileInfo& info, const std::vector<std::pair<std::string, std::string>>& fields) {
    rapidjson::Document doc = carried_document(info);
    auto& alloc = doc.GetAllocator();
    for (const auto& [k, v] : fields) {
        rapidjson::Document part(&alloc);
        part.Parse(v.c_str());
        if (part.HasParseError()) continue;
        doc.RemoveMember(k.c_str());
        doc.AddMember(rapidjson::Value(k.c_str(), alloc), rapidjson::Value(part, alloc), alloc);
    }
    info.carried_json = to_json(doc);
}

}  // namespace nx
