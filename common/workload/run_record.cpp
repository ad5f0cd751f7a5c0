// Writes run records and reads their stored fields back (run_record.h).
#include "common/workload/run_record.h"

#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "common/io/error.h"
#include "common/records/jsonl.h"
#include "common/records/latency_stats.h"
#include "common/workload/workload_record.h"

namespace nx {

namespace {
// The figures of the record's "latency_us" object, named once for writing
// them from the statistics and reading them back into a row.
struct LatencyField {
    const char* name;
    double LatencyStats::*stat;
    std::optional<double> RunRow::*row;
};
constexpr LatencyField kLatencyFields[] = {
    {"median", &LatencyStats::median, &RunRow::median}, {"mean", &LatencyStats::mean, &RunRow::mean},
    {"min", &LatencyStats::min, &RunRow::min},          {"max", &LatencyStats::max, &RunRow::max},
    {"p95", &LatencyStats::p95, &RunRow::p95},          {"stdev", &LatencyStats::stdev, &RunRow::stdev}};

std::string text(const rapidjson::Value& r, const char* k) {
    auto it = r.FindMember(k);
    return it != r.MemberEnd() && it->value.IsString() ? it->value.GetString() : "";
}
int64_t integer(const rapidjson::Value& r, const char* k) {
    auto it = r.FindMember(k);
    return it != r.MemberEnd() && it->value.IsNumber() ? static_cast<int64_t>(it->value.GetDouble()) : 0;
}
double number(const rapidjson::Value& r, const char* k) {
    auto it = r.FindMember(k);
    return it != r.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : NAN;
}
const rapidjson::Value* object(const rapidjson::Value& r, const char* k) {
    auto it = r.FindMember(k);
    return it != r.MemberEnd() && it->value.IsObject() ? &it->value : nullptr;
}
}  // namespace

RunView view_run(const rapidjson::Value& r) {
    RunView v;
    v.name = text(r, "name");
    v.study = text(r, "study");
    v.op = text(r, "op");
    v.dtype = text(r, "dtype");
    v.backend = text(r, "backend");
    v.target = text(r, "target");
    v.lnc = integer(r, "lnc");
    v.M = integer(r, "M");
    v.K = integer(r, "K");
    v.N = integer(r, "N");
    v.batch = integer(r, "batch");
    v.seq = integer(r, "seq");
    v.pattern = text(r, "pattern");
    v.size = text(r, "size");
    v.phase = text(r, "phase");
    v.gemm = text(r, "gemm");
    v.model = text(r, "model");
    v.iterations = integer(r, "iterations");
    v.features = integer(r, "features");
    v.tp = integer(r, "tp");
    v.tflops = number(r, "tflops");
    v.compile_ms = number(r, "compile_ms");
    if (const rapidjson::Value* l = object(r, "latency_us")) {
        v.median_us = number(*l, "median");
        v.p95_us = number(*l, "p95");
    }
    if (const rapidjson::Value* t = object(r, "tiles")) {
        v.tiles_M = integer(*t, "M");
        v.tiles_K = integer(*t, "K");
        v.tiles_N = integer(*t, "N");
        v.tiles_total = integer(*t, "total");
    }
    if (const rapidjson::Value* p = object(r, "predicted")) {
        auto it = p->FindMember("instructions");
        if (it != p->MemberEnd() && it->value.IsInt64()) v.predicted_instructions = it->value.GetInt64();
        v.error_band_percent = number(*p, "error_band_percent");
        v.predicted = true;
        v.variant = text(*p, "variant");
    }
    auto c = r.FindMember("cached");
    v.cached = c != r.MemberEnd() && c->value.IsBool() && c->value.GetBool();
    return v;
}

std::vector<RunView> view_runs(const std::vector<rapidjson::Document>& runs) {
    std::vector<RunView> out;
    for (const auto& r : runs) out.push_back(view_run(r));
    return out;
}

std::string utc_now_iso8601() {
    // Milliseconds: two runs of one workload in the same second stay apart
    // in the run history (its rows are unique by start time).
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    std::tm tm{};
    gmtime_r(&ts.tv_sec, &tm);
    char buf[40];
    size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, ".%03ldZ", ts.tv_nsec / 1000000);
    return buf;
}

std::string host_name() {
    char buf[HOST_NAME_MAX + 1] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

std::string run_record_json(const Workload& w, const std::string& backend, const std::string& target,
                            const Execution& e, int warmup, const std::string& started_at, const std::string& host) {
    rapidjson::StringBuffer sb;
    JsonWriter j(sb);
    j.StartObject();
    j.Key("kind");
    j.String("run");
    Workload fields = w;
    fields.target.clear();  // written below, as what actually ran
    write_workload_fields(j, fields);
    j.Key("backend");
    j.String(backend.c_str());
    j.Key("target");
    j.String(target.c_str());
    LatencyStats s = latency_stats(e.latencies_us, warmup);
    j.Key("latency_us");
    j.StartObject();
    for (const LatencyField& f : kLatencyFields) {
        j.Key(f.name);
        write_number(j, s.*f.stat);
    }
    j.Key("n");
    j.Int(s.n);
    j.Key("warmup");
    j.Int(s.warmup);
    j.EndObject();
    j.Key("compile_ms");
    if (e.compile_ms) write_number(j, *e.compile_ms);
    else j.Null();
    j.Key("cached");
    j.Bool(e.cached);
    if (auto t = workload_tiles(w)) {
        j.Key("tiles");
        j.StartObject();
        j.Key("M");
        j.Int64(t->M);
        j.Key("K");
        j.Int64(t->K);
        j.Key("N");
        j.Int64(t->N);
        j.Key("total");
        j.Int64(t->total);
        j.EndObject();
    }
    double flops = workload_flops(w);
    j.Key("tflops");
    if (flops > 0 && s.median > 0) write_number(j, flops / (s.median * 1e-6) / 1e12);
    else j.Null();
    j.Key("artifacts");
    j.StartObject();
    if (!e.neff.empty()) {
        j.Key("neff");
        j.String(e.neff.c_str());
    }
    j.EndObject();
    if (!e.predicted_json.empty()) {
        j.Key("predicted");
        j.RawValue(e.predicted_json.data(), e.predicted_json.size(), rapidjson::kObjectType);
    }
    j.Key("toolchain");
    j.String(e.toolchain.c_str());
    if (!e.note.empty()) {
        j.Key("note");
        j.String(e.note.c_str());
    }
    j.Key("started_at");
    j.String(started_at.c_str());
    j.Key("host");
    j.String(host.c_str());
    j.EndObject();
    return std::string(sb.GetString(), sb.GetSize());
}


RunRow run_row_from_record(const rapidjson::Value& r, std::string record_json) {
    RunRow row;
    row.study = get_string(r, "study").value_or("");
    row.name = get_string(r, "name").value_or("");
    if (row.name.empty()) throw Error("run record without a \"name\"");
    row.op = get_string(r, "op").value_or("");
    row.backend = get_string(r, "backend").value_or("");
    row.target = get_string(r, "target").value_or("");
    row.dtype = get_string(r, "dtype").value_or("");
    row.started_at = get_string(r, "started_at").value_or("");
    row.host = get_string(r, "host").value_or("");
    if (const rapidjson::Value* l = find_member(r, "latency_us")) {
        if (!l->IsObject()) throw Error("expected an object for \"latency_us\"");
        for (const LatencyField& f : kLatencyFields) row.*f.row = get_number(*l, f.name);
        row.n = get_number(*l, "n");
        // A count of executions: it is stored as an integer.
        if (row.n && !(*row.n >= 0 && *row.n <= 9.0e15 && *row.n == std::floor(*row.n)))
            throw Error("expected a whole count for \"latency_us.n\"");
    }
    row.compile_ms = get_number(r, "compile_ms");
    row.tflops = get_number(r, "tflops");
    row.record = std::move(record_json);
    return row;
}

}  // namespace nx
