#include "common/workload/workload_record.h"

#include <algorithm>
#include <set>

#include "common/io/error.h"
#include "common/target/targets.h"

namespace nx {

namespace {

// The record fields the Workload struct holds; everything else is carried.
const std::set<std::string, std::less<>> kWorkloadFields = {
    "kind", "study", "name", "op", "M", "K", "N", "batch", "seq", "hidden", "intermediate", "pattern", "size",
    "iterations", "features", "opname", "rows", "cols", "channels", "out_channels", "height", "width", "filter", "pool", "stride", "state_size", "dtype", "variant",
    "target"};

// Fields of run and capture records that are not the workload's: they are
// re-made by the tool that writes the next record, never carried twice.
const std::set<std::string, std::less<>> kResultFields = {
    "backend", "latency_us", "compile_ms", "cached", "tiles", "tflops", "artifacts", "started_at", "host",
    "toolchain", "profile", "error", "predicted", "note"};

int64_t positive_or_zero(const rapidjson::Value& r, const char* k) {
    std::optional<int64_t> v = get_int(r, k);
    return v ? *v : 0;
}

void key(JsonWriter& w, const char* k) { w.Key(k); }

}  // namespace

Workload workload_from_record(const rapidjson::Value& r) {
    Workload w;
    w.study = get_string(r, "study").value_or("");
    w.name = get_string(r, "name").value_or("");
    w.op = get_string(r, "op").value_or("");
    if (w.name.empty()) throw Error("workload without a \"name\"");
    if (w.op.empty()) throw Error(w.name + ": workload without an \"op\"");
    w.M = positive_or_zero(r, "M");
    w.K = positive_or_zero(r, "K");
    w.N = positive_or_zero(r, "N");
    w.batch = positive_or_zero(r, "batch");
    w.seq = positive_or_zero(r, "seq");
    w.hidden = positive_or_zero(r, "hidden");
    w.intermediate = positive_or_zero(r, "intermediate");
    w.pattern = get_string(r, "pattern").value_or("");
    w.size = get_string(r, "size").value_or("");
    w.iterations = positive_or_zero(r, "iterations");
    w.features = positive_or_zero(r, "features");
    w.opname = get_string(r, "opname").value_or("");
    w.rows = positive_or_zero(r, "rows");
    w.cols = positive_or_zero(r, "cols");
    w.channels = positive_or_zero(r, "channels");
    w.out_channels = positive_or_zero(r, "out_channels");
    w.height = positive_or_zero(r, "height");
    w.width = positive_or_zero(r, "width");
    w.filter = positive_or_zero(r, "filter");
    w.pool = positive_or_zero(r, "pool");
    w.stride = positive_or_zero(r, "stride");
    w.state_size = positive_or_zero(r, "state_size");
    w.dtype = get_string(r, "dtype").value_or("bf16");
    w.variant = get_string(r, "variant").value_or("");
    w.target = get_string(r, "target").value_or("");
    rapidjson::StringBuffer sb;
    JsonWriter cw(sb);
    cw.StartObject();
    bool any = false;
    for (auto& m : r.GetObject()) {
        std::string_view k(m.name.GetString(), m.name.GetStringLength());
        if (kWorkloadFields.count(k) || kResultFields.count(k)) continue;
        cw.Key(m.name.GetString(), m.name.GetStringLength());
        m.value.Accept(cw);
        any = true;
    }
    cw.EndObject();
    if (any) w.carried_json.assign(sb.GetString(), sb.GetSize());
    return w;
}

void write_workload_fields(JsonWriter& w, const Workload& wl) {
    auto text = [&](const char* k, const std::string& v) {
        if (v.empty()) return;
        key(w, k);
        w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
    };
    auto num = [&](const char* k, int64_t v) {
        if (v == 0) return;
        key(w, k);
        w.Int64(v);
    };
    text("study", wl.study);
    text("name", wl.name);
    text("op", wl.op);
    num("M", wl.M);
    num("K", wl.K);
    num("N", wl.N);
    num("batch", wl.batch);
    num("seq", wl.seq);
    num("hidden", wl.hidden);
    num("intermediate", wl.intermediate);
    text("pattern", wl.pattern);
    text("size", wl.size);
    num("iterations", wl.iterations);
    num("features", wl.features);
    text("opname", wl.opname);
    num("rows", wl.rows);
    num("cols", wl.cols);
    num("channels", wl.channels);
    num("out_channels", wl.out_channels);
    num("height", wl.height);
    num("width", wl.width);
    num("filter", wl.filter);
    num("pool", wl.pool);
    num("stride", wl.stride);
    num("state_size", wl.state_size);
    text("dtype", wl.dtype);
    text("variant", wl.variant);
    text("target", wl.target);
    if (!wl.carried_json.empty()) {
        rapidjson::Document d;
        d.Parse(wl.carried_json.c_str());
        if (d.IsObject())
            for (auto& m : d.GetObject()) {
                w.Key(m.name.GetString(), m.name.GetStringLength());
                m.value.Accept(w);
            }
    }
}

std::string workload_record_json(const Workload& wl) {
    rapidjson::StringBuffer sb;
    JsonWriter w(sb);
    w.StartObject();
    w.Key("kind");
    w.String("workload");
    write_workload_fields(w, wl);
    w.EndObject();
    return std::string(sb.GetString(), sb.GetSize());
}

std::optional<Tiles> workload_tiles(const Workload& wl) {
    // TensorE limits (neuron-facts.md section 6): partition (K) and
    // stationary free size (M) 128, moving free size (N) 512.
    constexpr int64_t kPartition = 128, kStationary = 128, kMoving = 512;
    if (wl.op != "matmul" || wl.M <= 0 || wl.K <= 0 || wl.N <= 0) return std::nullopt;
    if (wl.M > kMaxDimension || wl.K > kMaxDimension || wl.N > kMaxDimension) return std::nullopt;
    Tiles t;
    t.M = (wl.M + kStationary - 1) / kStationary;
    t.K = (wl.K + kPartition - 1) / kPartition;
    t.N = (wl.N + kMoving - 1) / kMoving;
    t.total = t.M * t.K * t.N;
    return t;
}

double workload_flops(const Workload& wl) {
    if (wl.op == "matmul") return 2.0 * static_cast<double>(wl.M) * static_cast<double>(wl.K) * static_cast<double>(wl.N);
    if (wl.op == "conv2d") {
        const int64_t f = wl.filter > 0 ? wl.filter : 3;
        const double oh = static_cast<double>(std::max<int64_t>(wl.height - f + 1, 0));
        const double ow = static_cast<double>(std::max<int64_t>(wl.width - f + 1, 0));
        return 2.0 * static_cast<double>(std::max<int64_t>(wl.batch, 1)) * static_cast<double>(wl.out_channels) *
               static_cast<double>(wl.channels) * static_cast<double>(f * f) * oh * ow;
    }
    if (wl.op == "mlp") {
        double t = static_cast<double>(wl.batch) * static_cast<double>(wl.seq);
        double h = static_cast<double>(wl.hidden), i = static_cast<double>(wl.intermediate);
        return 2.0 * t * h * i * 3;  // gate, up, down projections
    }
    return 0;
}

void validate_workload(const Workload& wl) {
    auto bad = [&](const std::string& what) { throw Error(wl.name + ": " + what); };
    auto positive = [&](const char* field, int64_t v) {
        if (v <= 0) bad(std::string(field) + " must be positive, got " + std::to_string(v));
        if (v > kMaxDimension)
            bad(std::string(field) + " = " + std::to_string(v) + " is beyond any device (at most " +
                std::to_string(kMaxDimension) + ")");
    };
    if (!parse_dtype(wl.dtype)) bad("unknown dtype '" + wl.dtype + "' (known: bf16, fp16, fp32, fp8)");
    if (wl.op == "matmul") {
        positive("M", wl.M);
        positive("K", wl.K);
        positive("N", wl.N);
    } else if (wl.op == "mlp") {
        positive("batch", wl.batch);
        positive("seq", wl.seq);
        positive("hidden", wl.hidden);
        positive("intermediate", wl.intermediate);
    } else if (wl.op == "pattern") {
        static const std::set<std::string, std::less<>> kPatterns = {"vmap", "scan", "for_loop", "for_loop_launch"};
        if (!kPatterns.count(wl.pattern))
            bad("unknown pattern '" + wl.pattern + "' (known: vmap, scan, for_loop, for_loop_launch)");
        if (wl.pattern.rfind("for_loop", 0) == 0 && wl.size != "small" && wl.size != "medium" && wl.size != "large")
            bad("for-loop size must be small, medium or large, got '" + wl.size + "'");
        positive("iterations", wl.iterations);
        positive("batch", wl.batch);
        positive("features", wl.features);
    } else if (wl.op == "elementwise") {
        if (wl.opname.empty()) bad("elementwise workload without an \"opname\"");
        positive("rows", wl.rows);
        positive("cols", wl.cols);
    } else if (wl.op == "conv2d") {
        positive("channels", wl.channels);
        positive("out_channels", wl.out_channels);
        positive("height", wl.height);
        positive("width", wl.width);
    } else if (wl.op == "pool2d") {
        positive("channels", wl.channels);
        positive("height", wl.height);
        positive("width", wl.width);
    } else if (wl.op == "ssm_scan") {
        positive("channels", wl.channels);
        positive("seq", wl.seq);
    } else if (wl.op == "dwconv1d") {
        positive("channels", wl.channels);
        positive("width", wl.width);
    } else {
        bad("unknown op '" + wl.op + "' (known: " + kWorkloadOps + ")");
    }
}

}  // namespace nx
