#include "common/workload/workload_record.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

#include "common/io/error.h"
#include "common/records/json_members.h"
#include "common/target/targets.h"

namespace nx {

namespace {

// Fields of run and capture records that are not the workload's: they are
// re-made by the tool that writes the next record, never carried twice.
const std::set<std::string, std::less<>> kResultFields = {
    "backend", "latency_us", "compile_ms", "cached", "tiles", "tflops", "artifacts", "started_at", "host",
    "toolchain", "profile", "error", "predicted", "note"};

}  // namespace

Workload workload_from_record(const rapidjson::Value& r) {
    Workload w;
    for (const WorkloadField& f : workload_fields()) {
        if (f.text) w.*f.text = get_string(r, f.name).value_or(w.*f.text);
        else w.*f.number = get_int(r, f.name).value_or(0);
    }
    if (w.name.empty()) throw Error("workload without a \"name\"");
    if (w.op.empty()) throw Error(w.name + ": workload without an \"op\"");
    w.carried_json = other_members_json(r, [](std::string_view k) {
        return k == "kind" || find_workload_field(k) || kResultFields.count(k);
    });
    // What runs is the whole shape: the op's defaults, written out.
    return with_defaults(std::move(w));
}

void write_workload_fields(JsonWriter& w, const Workload& wl) {
    for (const WorkloadField& f : workload_fields()) {
        if (f.text) {
            const std::string& v = wl.*f.text;
            if (v.empty()) continue;
            w.Key(f.name);
            w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
        } else if (int64_t v = wl.*f.number; v != 0) {
            w.Key(f.name);
            w.Int64(v);
        }
    }
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
    const std::string label = workload_label(wl);
    auto bad = [&](const std::string& what) { throw Error(label + ": " + what); };
    const std::optional<DType> dtype = parse_dtype(wl.dtype);
    if (!dtype) bad("unknown dtype '" + wl.dtype + "' (known: " + std::string(dtype_names()) + ")");
    const WorkloadOp* op = find_workload_op(wl.op);
    if (!op) bad(wl.op.empty() ? "missing op (known: " + workload_op_names() + ")"
                               : "unknown op '" + wl.op + "' (known: " + workload_op_names() + ")");
    const Target* target = find_target(wl.target);
    // MX formats are TensorE inputs: the vector engines compute in bf16 or
    // fp32 and only quantise into them, so only a matmul takes one, and only
    // on a target whose TensorE multiplies them.
    if (is_mx(*dtype)) {
        if (wl.op != "matmul") bad("dtype " + wl.dtype + " is a TensorE matmul input format; " + wl.op + " takes " + "bf16, fp16, fp32 or fp8");
        if (target && !target->supports(*dtype)) bad(target->why_unsupported(*dtype));
    }
    if (wl.lnc != 0) {
        if (wl.lnc != 1 && wl.lnc != 2) bad("lnc must be 1 or 2, got " + std::to_string(wl.lnc));
        if (target && wl.lnc > target->max_lnc)
            bad("lnc " + std::to_string(wl.lnc) + ": " + target->name + " has one physical core per logical core (LNC=1 only)");
    }
    if (!wl.shard.empty() && wl.shard != "auto" && wl.shard != "none")
        bad("unknown shard '" + wl.shard + "' (known: auto, none)");
    // A size given is positive and within any device, whatever the op.
    for (const WorkloadField& f : workload_fields()) {
        if (!f.number) continue;
        int64_t v = wl.*f.number;
        if (v < 0) bad(std::string(f.name) + " must be positive, got " + std::to_string(v));
        if (v > kMaxDimension)
            bad(std::string(f.name) + " = " + std::to_string(v) + " is beyond any device (at most " +
                std::to_string(kMaxDimension) + ")");
    }
    for (const WorkloadOp::Size& s : op->sizes)
        if (s.fallback == 0 && wl.*(find_workload_field(s.field)->number) == 0)
            bad(std::string(s.field) + " must be positive, got 0");
    if (op->check) op->check(wl);
}

}  // namespace nx
