#include "common/profile/profile_record.h"

#include <cmath>
#include <set>

#include "common/io/error.h"
#include "common/profile/device_record.h"

namespace nx {

namespace {

// Fields the profile record defines itself; carried fields with these names
// are replaced, never duplicated.
const std::set<std::string, std::less<>> kOwnFields = {
    "kind", "id", "name", "source", "format", "backend", "target", "dtype", "rank", "start_ns", "end_ns",
    "event_count", "metrics", "metric_origin", "engines", "top_opcodes", "top_layers", "notes", "profile", "timeline",
    "metric_disagreements", "tracks", "dma_queue_types", "unavailable_metrics", "peak_basis", "core", "breakdown",
    "collective_ops", "iterations", "executions", "device"};

void key(JsonWriter& w, std::string_view k) { w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size())); }

// A timeline's bucket percents, to two decimals (the engine timeline and the
// breakdown's compute and collective shares alike).
void write_bucket_percents(JsonWriter& w, const std::vector<double>& values) {
    w.StartArray();
    for (double v : values) w.Double(std::round(v * 100) / 100);
    w.EndArray();
}
void str(JsonWriter& w, std::string_view s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }

void write_key_stats(JsonWriter& w, const char* name, const char* key_name, const std::vector<KeyStat>& stats) {
    key(w, name);
    w.StartArray();
    for (const KeyStat& s : stats) {
        w.StartObject();
        key(w, key_name);
        str(w, s.key);
        key(w, "count");
        w.Int64(s.count);
        key(w, "time_ns");
        w.Int64(s.time_ns);
        w.EndObject();
    }
    w.EndArray();
}

}  // namespace

void write_profile_record(JsonWriter& w, const ProfileInfo& info, const ProfileSummary& summary) {
    w.StartObject();
    key(w, "kind");
    str(w, "profile");
    key(w, "id");
    str(w, info.id);
    key(w, "name");
    str(w, info.name);
    if (!info.carried_json.empty()) {
        rapidjson::Document carried;
        carried.Parse(info.carried_json.data(), info.carried_json.size());
        if (!carried.HasParseError() && carried.IsObject()) {
            for (auto& m : carried.GetObject()) {
                std::string_view k(m.name.GetString(), m.name.GetStringLength());
                if (kOwnFields.count(k)) continue;
                key(w, k);
                m.value.Accept(w);
            }
        }
    }
    key(w, "source");
    str(w, info.source);
    key(w, "format");
    str(w, info.format);
    key(w, "backend");
    if (info.backend.empty()) w.Null(); else str(w, info.backend);
    key(w, "target");
    if (info.target.empty()) w.Null(); else str(w, info.target);
    if (!info.dtype.empty()) {
        key(w, "dtype");
        str(w, info.dtype);
    }
    if (info.rank >= 0) {
        key(w, "rank");
        w.Int(info.rank);
    }
    key(w, "start_ns");
    w.Int64(summary.start_ns);
    key(w, "end_ns");
    w.Int64(summary.end_ns);
    key(w, "event_count");
    w.Int64(summary.events);

    key(w, "metrics");
    w.StartObject();
    for (const MetricValue& m : summary.metrics) {
        key(w, m.name);
        write_number(w, m.value);
    }
    w.EndObject();
    key(w, "metric_origin");
    w.StartObject();
    for (const MetricValue& m : summary.metrics) {
        key(w, m.name);
        str(w, m.measured ? "source" : "derived");
    }
    w.EndObject();
    if (!summary.unavailable.empty()) {
        key(w, "unavailable_metrics");
        w.StartObject();
        for (const UnavailableMetric& u : summary.unavailable) {
            key(w, u.name);
            str(w, u.reason);
        }
        w.EndObject();
    }
    if (info.core.any()) {
        const CoreFacts& c = info.core;
        key(w, "core");
        w.StartObject();
        auto number = [&](const char* k, double v) {
            if (v <= 0) return;
            key(w, k);
            write_number(w, v);
        };
        auto text = [&](const char* k, const std::string& v) {
            if (v.empty()) return;
            key(w, k);
            str(w, v);
        };
        number("physical_cores", c.physical_cores);
        number("pe_rows", c.pe_rows);
        number("pe_cols", c.pe_cols);
        number("pe_clock_ghz", c.pe_clock_ghz);
        number("hbm_bytes_per_s", c.hbm_bytes_per_s);
        text("cores_from", c.cores_from);
        text("peak_from", c.peak_from);
        text("hbm_from", c.hbm_from);
        w.EndObject();
    }
    if (!summary.peak_basis.empty()) {
        key(w, "peak_basis");
        str(w, summary.peak_basis);
    }

    key(w, "engines");
    w.StartArray();
    for (const EngineStat& e : summary.engines) {
        w.StartObject();
        key(w, "engine");
        str(w, to_string(e.engine));
        key(w, "instructions");
        w.Int64(e.instructions);
        key(w, "active_ns");
        w.Int64(e.active_ns);
        key(w, "busy_sum_ns");
        w.Int64(e.busy_sum_ns);
        if (e.work_instructions >= 0) {
            key(w, "work_instructions");
            w.Int64(e.work_instructions);
            key(w, "work_sum_ns");
            w.Int64(e.work_sum_ns);
        }
        key(w, "active_percent");
        write_number(w, e.active_percent);
        key(w, "origin");
        str(w, to_string(e.origin));
        w.EndObject();
    }
    w.EndArray();
    if (!summary.dma_queue_types.empty()) {
        key(w, "dma_queue_types");
        w.StartArray();
        for (const QueueTypeStat& q : summary.dma_queue_types) {
            w.StartObject();
            key(w, "queue_type");
            str(w, q.type);
            key(w, "transfers");
            w.Int64(q.transfers);
            key(w, "bytes");
            w.Int64(q.bytes);
            key(w, "busy_ns");
            w.Int64(q.busy_ns);
            w.EndObject();
        }
        w.EndArray();
    }
    write_key_stats(w, "top_opcodes", "opcode", summary.top_opcodes);
    write_key_stats(w, "top_layers", "layer", summary.top_layers);
    if (!summary.tracks.empty()) {
        key(w, "tracks");
        w.StartArray();
        for (const TrackStat& t : summary.tracks) {
            w.StartObject();
            key(w, "track");
            str(w, t.track);
            if (!t.process.empty()) {
                key(w, "process");
                str(w, t.process);
            }
            key(w, "events");
            w.Int64(t.events);
            key(w, "busy_ns");
            w.Int64(t.busy_ns);
            w.EndObject();
        }
        w.EndArray();
    }
    if (!summary.timeline.empty()) {
        key(w, "timeline");
        w.StartObject();
        key(w, "buckets");
        w.Int(kTimelineBuckets);
        key(w, "active_percent");
        w.StartObject();
        for (const EngineTimeline& t : summary.timeline) {
            key(w, to_string(t.engine));
            write_bucket_percents(w, t.active_percent);
        }
        w.EndObject();
        w.EndObject();
    }
    if (summary.breakdown) {
        const TimeBreakdown& b = *summary.breakdown;
        key(w, "breakdown");
        w.StartObject();
        for (auto [k, v] : {std::pair<const char*, int64_t>{"span_ns", b.span_ns}, {"compute_ns", b.compute_ns},
                            {"collective_ns", b.collective_ns}, {"overlap_ns", b.overlap_ns},
                            {"dma_exposed_ns", b.dma_exposed_ns}, {"idle_ns", b.idle_ns}}) {
            key(w, k);
            w.Int64(v);
        }
        for (auto [k, values] : {std::pair<const char*, const std::vector<double>*>{"compute_percent", &b.compute_percent},
                                 {"collective_percent", &b.collective_percent}}) {
            key(w, k);
            write_bucket_percents(w, *values);
        }
        w.EndObject();
    }
    if (summary.device) {
        key(w, "device");
        write_device_summary(w, *summary.device);
    }
    if (!summary.collectives.empty()) {
        key(w, "collective_ops");
        w.StartArray();
        for (const CollectiveOp& op : summary.collectives) {
            w.StartObject();
            key(w, "name");
            str(w, op.name);
            key(w, "start_ns");
            w.Int64(op.start_ns);
            key(w, "dur_ns");
            w.Int64(op.dur_ns);
            if (op.bytes >= 0) {
                key(w, "bytes");
                w.Int64(op.bytes);
            }
            if (!op.engine.empty()) {
                key(w, "engine");
                str(w, op.engine);
            }
            if (op.trigger_delay_ns >= 0) {
                key(w, "trigger_delay_ns");
                w.Int64(op.trigger_delay_ns);
            }
            if (!op.group.empty()) {
                key(w, "group");
                str(w, op.group);
            }
            if (op.seq >= 0) {
                key(w, "seq");
                w.Int64(op.seq);
            }
            w.EndObject();
        }
        w.EndArray();
    }
    if (!summary.iterations.empty()) {
        key(w, "iterations");
        w.StartArray();
        for (const Iteration& it : summary.iterations) {
            w.StartObject();
            key(w, "step");
            w.Int64(it.step);
            key(w, "start_ns");
            w.Int64(it.start_ns);
            key(w, "dur_ns");
            w.Int64(it.dur_ns);
            w.EndObject();
        }
        w.EndArray();
    }
    if (const std::optional<ExecutionDigest>& d = summary.execution_digest) {
        // The digest (executions.h), not every execution: a session holds
        // thousands, which the database's and the dataset's tables keep.
        key(w, "executions");
        w.StartObject();
        key(w, "count");
        w.Int64(d->count);
        key(w, "neffs");
        w.StartArray();
        for (const NeffSpread& n : d->neffs) {
            w.StartObject();
            key(w, "neff");
            str(w, n.neff);
            key(w, "executions");
            w.Int64(n.executions);
            key(w, "min_ns");
            w.Int64(n.min_ns);
            key(w, "median_ns");
            w.Int64(n.median_ns);
            key(w, "p90_ns");
            w.Int64(n.p90_ns);
            key(w, "max_ns");
            w.Int64(n.max_ns);
            w.EndObject();
        }
        w.EndArray();
        key(w, "slow");
        w.StartArray();
        for (const SlowExecution& x : d->slow) {
            w.StartObject();
            key(w, "index");
            w.Int64(x.index);
            key(w, "neff");
            str(w, x.neff);
            key(w, "start_ns");
            w.Int64(x.start_ns);
            key(w, "dur_ns");
            w.Int64(x.dur_ns);
            key(w, "median_ns");
            w.Int64(x.median_ns);
            key(w, "what_changed");
            str(w, x.what_changed);
            w.EndObject();
        }
        w.EndArray();
        w.EndObject();
    }
    if (!summary.disagreements.empty()) {
        key(w, "metric_disagreements");
        w.StartArray();
        for (const MetricDisagreement& d : summary.disagreements) {
            w.StartObject();
            key(w, "metric");
            str(w, d.name);
            key(w, "source");
            write_number(w, d.source);
            key(w, "derived");
            write_number(w, d.derived);
            key(w, "derived_from");
            str(w, d.derived_from);
            w.EndObject();
        }
        w.EndArray();
    }
    key(w, "notes");
    w.StartArray();
    for (const std::string& n : summary.notes) str(w, n);
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
    core.physical_cores = static_cast<int>(get_int(*c, "physical_cores").value_or(0));
    core.pe_rows = static_cast<int>(get_int(*c, "pe_rows").value_or(0));
    core.pe_cols = static_cast<int>(get_int(*c, "pe_cols").value_or(0));
    core.pe_clock_ghz = get_number(*c, "pe_clock_ghz").value_or(0);
    core.hbm_bytes_per_s = get_number(*c, "hbm_bytes_per_s").value_or(0);
    core.cores_from = get_string(*c, "cores_from").value_or("");
    core.peak_from = get_string(*c, "peak_from").value_or("");
    core.hbm_from = get_string(*c, "hbm_from").value_or("");
    return core;
}

void read_profile_record(const rapidjson::Value& rec, ProfileInfo& info, ProfileSummary& summary) {
    info.id = get_string(rec, "id").value_or("");
    info.name = get_string(rec, "name").value_or("");
    info.source = get_string(rec, "source").value_or("");
    info.format = get_string(rec, "format").value_or("");
    info.backend = get_string(rec, "backend").value_or("");
    info.target = get_string(rec, "target").value_or("");
    info.dtype = get_string(rec, "dtype").value_or("");
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
    if (const rapidjson::Value* engines = find_member(rec, "engines"); engines && engines->IsArray()) {
        for (auto& e : engines->GetArray()) {
            EngineStat st;
            auto eng = parse_engine(get_string(e, "engine").value_or(""));
            if (!eng) continue;
            st.engine = *eng;
            st.instructions = get_int(e, "instructions").value_or(0);
            st.active_ns = get_int(e, "active_ns").value_or(0);
            st.busy_sum_ns = get_int(e, "busy_sum_ns").value_or(0);
            st.work_instructions = get_int(e, "work_instructions").value_or(-1);
            st.work_sum_ns = get_int(e, "work_sum_ns").value_or(-1);
            if (st.work_instructions < 0 || st.work_sum_ns < 0) st.work_instructions = st.work_sum_ns = -1;
            st.active_percent = get_number(e, "active_percent").value_or(0);
            st.origin = parse_busy_origin(get_string(e, "origin").value_or("")).value_or(
                st.engine == Engine::dma ? BusyOrigin::transfers : BusyOrigin::instructions);
            summary.engines.push_back(st);
        }
    }
    if (const rapidjson::Value* qs = find_member(rec, "dma_queue_types"); qs && qs->IsArray()) {
        for (auto& q : qs->GetArray())
            summary.dma_queue_types.push_back({get_string(q, "queue_type").value_or(""), get_int(q, "transfers").value_or(0),
                                               get_int(q, "bytes").value_or(0), get_int(q, "busy_ns").value_or(0)});
    }
    auto read_stats = [&](const char* field, const char* key_name, std::vector<KeyStat>& out) {
        const rapidjson::Value* arr = find_member(rec, field);
        if (!arr || !arr->IsArray()) return;
        for (auto& s : arr->GetArray())
            out.push_back({get_string(s, key_name).value_or(""), get_int(s, "count").value_or(0),
                           get_int(s, "time_ns").value_or(0)});
    };
    read_stats("top_opcodes", "opcode", summary.top_opcodes);
    read_stats("top_layers", "layer", summary.top_layers);
    if (const rapidjson::Value* arr = find_member(rec, "tracks"); arr && arr->IsArray())
        for (auto& t : arr->GetArray())
            if (t.IsObject())
                summary.tracks.push_back({get_string(t, "track").value_or(""), get_string(t, "process").value_or(""),
                                          get_int(t, "events").value_or(0), get_int(t, "busy_ns").value_or(0)});
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
        t.span_ns = get_int(*b, "span_ns").value_or(0);
        t.compute_ns = get_int(*b, "compute_ns").value_or(0);
        t.collective_ns = get_int(*b, "collective_ns").value_or(0);
        t.overlap_ns = get_int(*b, "overlap_ns").value_or(0);
        t.dma_exposed_ns = get_int(*b, "dma_exposed_ns").value_or(0);
        t.idle_ns = get_int(*b, "idle_ns").value_or(0);
        for (auto [k, values] : {std::pair<const char*, std::vector<double>*>{"compute_percent", &t.compute_percent},
                                 {"collective_percent", &t.collective_percent}})
            if (const rapidjson::Value* a = find_member(*b, k); a && a->IsArray())
                for (auto& v : a->GetArray()) values->push_back(v.IsNumber() ? v.GetDouble() : 0);
        summary.breakdown = std::move(t);
    }
    if (const rapidjson::Value* d = find_member(rec, "device")) summary.device = read_device_summary(*d);
    if (const rapidjson::Value* ops = find_member(rec, "collective_ops"); ops && ops->IsArray())
        for (auto& op : ops->GetArray())
            if (op.IsObject())
                summary.collectives.push_back({get_string(op, "name").value_or(""), get_int(op, "start_ns").value_or(0),
                                               get_int(op, "dur_ns").value_or(0), get_int(op, "bytes").value_or(-1),
                                               get_string(op, "engine").value_or(""),
                                               get_int(op, "trigger_delay_ns").value_or(-1),
                                               get_string(op, "group").value_or(""), get_int(op, "seq").value_or(-1)});
    if (const rapidjson::Value* its = find_member(rec, "iterations"); its && its->IsArray())
        for (auto& it : its->GetArray())
            if (it.IsObject())
                summary.iterations.push_back({get_int(it, "step").value_or(0), get_int(it, "start_ns").value_or(0),
                                              get_int(it, "dur_ns").value_or(0)});
    if (const rapidjson::Value* ex = find_member(rec, "executions"); ex && ex->IsObject()) {
        ExecutionDigest d;
        d.count = get_int(*ex, "count").value_or(0);
        if (const rapidjson::Value* ns = find_member(*ex, "neffs"); ns && ns->IsArray())
            for (auto& n : ns->GetArray())
                if (n.IsObject())
                    d.neffs.push_back({std::string(get_string(n, "neff").value_or("")), get_int(n, "executions").value_or(0),
                                       get_int(n, "min_ns").value_or(0), get_int(n, "median_ns").value_or(0),
                                       get_int(n, "p90_ns").value_or(0), get_int(n, "max_ns").value_or(0)});
        if (const rapidjson::Value* sl = find_member(*ex, "slow"); sl && sl->IsArray())
            for (auto& x : sl->GetArray())
                if (x.IsObject())
                    d.slow.push_back({get_int(x, "index").value_or(0), std::string(get_string(x, "neff").value_or("")),
                                      get_int(x, "start_ns").value_or(0), get_int(x, "dur_ns").value_or(0),
                                      get_int(x, "median_ns").value_or(0),
                                      std::string(get_string(x, "what_changed").value_or(""))});
        summary.execution_digest = std::move(d);
    }
    if (const rapidjson::Value* ds = find_member(rec, "metric_disagreements"); ds && ds->IsArray()) {
        for (auto& d : ds->GetArray()) {
            auto name = get_string(d, "metric");
            auto src = get_number(d, "source");
            auto derived = get_number(d, "derived");
            if (!name || !src || !derived) continue;
            summary.disagreements.push_back({std::string(*name), *src, *derived,
                                             std::string(get_string(d, "derived_from").value_or(""))});
        }
    }
    if (const rapidjson::Value* notes = find_member(rec, "notes"); notes && notes->IsArray())
        for (auto& n : notes->GetArray())
            if (n.IsString()) summary.notes.emplace_back(n.GetString(), n.GetStringLength());

    // Everything else is carried.
    rapidjson::StringBuffer sb;
    JsonWriter w(sb);
    w.StartObject();
    bool any = false;
    for (auto& m : rec.GetObject()) {
        std::string_view k(m.name.GetString(), m.name.GetStringLength());
        if (kOwnFields.count(k)) continue;
        key(w, k);
        m.value.Accept(w);
        any = true;
    }
    w.EndObject();
    info.carried_json = any ? std::string(sb.GetString(), sb.GetSize()) : std::string();
}

void write_event_record(JsonWriter& w, const std::string& profile_id, const Event& e) {
    w.StartObject();
    key(w, "kind");
    str(w, "event");
    key(w, "profile");
    str(w, profile_id);
    key(w, "type");
    str(w, to_string(e.type));
    key(w, "track");
    str(w, e.track);
    if (e.pid != kNoId) { key(w, "pid"); w.Int64(e.pid); }
    if (e.tid != kNoId) { key(w, "tid"); w.Int64(e.tid); }
    if (!e.process.empty()) { key(w, "process"); str(w, e.process); }
    if (e.engine != Engine::none) {
        key(w, "engine");
        str(w, to_string(e.engine));
    }
    key(w, "ts_ns");
    w.Int64(e.ts_ns);
    key(w, "dur_ns");
    w.Int64(e.dur_ns);
    key(w, "name");
    str(w, e.name);
    if (!e.opcode.empty()) { key(w, "opcode"); str(w, e.opcode); }
    if (!e.hlo_name.empty()) { key(w, "hlo_name"); str(w, e.hlo_name); }
    if (!e.layer.empty()) { key(w, "layer"); str(w, e.layer); }
    if (e.bytes >= 0) { key(w, "bytes"); w.Int64(e.bytes); }
    if (e.flops >= 0) { key(w, "flops"); write_number(w, e.flops); }
    if (e.model_flops >= 0) { key(w, "model_flops"); write_number(w, e.model_flops); }
    if (e.dma_kind != DmaKind::unknown) { key(w, "dma_kind"); str(w, to_string(e.dma_kind)); }
    if (e.transpose) { key(w, "transpose"); w.Bool(true); }
    if (!e.tensor.empty()) { key(w, "tensor"); str(w, e.tensor); }
    if (e.type == EventType::counter) { key(w, "value"); write_number(w, e.value); }
    if (e.depth > 0) { key(w, "depth"); w.Int(e.depth); }
    if (e.pcore >= 0) { key(w, "pcore"); w.Int(e.pcore); }
    if (!e.args_json.empty()) {
        key(w, "args");
        w.RawValue(e.args_json.data(), e.args_json.size(), rapidjson::kObjectType);
    }
    w.EndObject();
}

void write_flow_record(JsonWriter& w, const std::string& profile_id, const Flow& f) {
    w.StartObject();
    key(w, "kind");
    str(w, "flow");
    key(w, "profile");
    str(w, profile_id);
    key(w, "id");
    str(w, f.id);
    if (!f.category.empty()) { key(w, "category"); str(w, f.category); }
    if (!f.name.empty()) { key(w, "name"); str(w, f.name); }
    key(w, "from_event");
    w.Int64(f.from);
    key(w, "to_event");
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
