#include "common/workload/study_plan.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <set>
#include <sstream>

#include "common/io/error.h"
#include "common/target/targets.h"
#include "common/records/jsonl.h"
#include "common/workload/llm_models.h"

namespace nx {

namespace {

// Ranges stop here: a typo like 128:1e9:+1 must not plan a billion workloads.
constexpr size_t kMaxValues = 10000;

// Default shapes per study (small enough for a laptop on every backend).
constexpr const char* kSweepRange = "128:2048:x2";
// Tiling mode: values straddling multiples of the tile sizes (128 for the
// partition and stationary dims, 512 for the moving dim), the others fixed.
constexpr int64_t kTilingFixed = 512;
constexpr int kTilingMultiples = 4;
constexpr const char* kLlmSeq = "128:2048:x2";  // Neuron's default buckets: powers of two from 128
constexpr const char* kPatternBatch = "32";      // the pattern study's unified conditions
constexpr const char* kPatternDtype = "fp32";

int64_t parse_int(const std::string& s, const std::string& option) {
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0') throw UsageError("--" + option + ": '" + s + "' is not a whole number");
    if (errno == ERANGE) throw UsageError("--" + option + ": '" + s + "' is out of range");
    return v;
}

std::string name_of(std::initializer_list<std::string> parts) {
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : "_") + p;
    return s;
}

std::string carried(const std::vector<std::pair<std::string, std::string>>& text,
                    const std::vector<std::pair<std::string, int64_t>>& nums) {
    std::string s = "{";
    for (auto& [k, v] : text) s += (s.size() > 1 ? "," : "") + json_quote(k) + ":" + json_quote(v);
    for (auto& [k, v] : nums) s += (s.size() > 1 ? "," : "") + json_quote(k) + ":" + std::to_string(v);
    return s + "}";
}

// A workload of `study` running `op` in `dtype` on the planned target; the
// caller sets its shape and name.
Workload planned_workload(const char* study, const char* op, const std::string& dtype, const PlanOptions& o) {
    Workload w;
    w.study = study;
    w.op = op;
    w.dtype = dtype;
    w.target = o.target;
    return w;
}

std::vector<Workload> matmul_products(const std::vector<int64_t>& Ms, const std::vector<int64_t>& Ks,
                                      const std::vector<int64_t>& Ns, const std::vector<std::string>& dtypes,
                                      const PlanOptions& o, std::set<std::string>& seen) {
    std::vector<Workload> out;
    for (const std::string& d : dtypes)
        for (int64_t m : Ms)
            for (int64_t k : Ks)
                for (int64_t n : Ns) {
                    Workload w = planned_workload("matmul", "matmul", d, o);
                    w.M = m;
                    w.K = k;
                    w.N = n;
                    w.variant = o.variant;
                    w.name = "mm_" + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + "_" + d;
                    if (seen.insert(w.name).second) out.push_back(w);
                }
    return out;
}

std::vector<int64_t> straddle(int64_t tile) {
    std::vector<int64_t> v;
    for (int i = 1; i <= kTilingMultiples; ++i)
        for (int64_t d : {-1, 0, 1}) v.push_back(i * tile + d);
    return v;
}

}  // namespace

std::vector<std::string> split_list(const std::string& spec) {
    std::vector<std::string> out;
    std::stringstream ss(spec);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

std::vector<int64_t> parse_range(const std::string& spec, const std::string& option) {
    std::vector<int64_t> out;
    for (const std::string& item : split_list(spec)) {
        size_t c1 = item.find(':');
        if (c1 == std::string::npos) {
            int64_t v = parse_int(item, option);
            if (v <= 0) throw UsageError("--" + option + ": '" + item + "' must be positive");
            out.push_back(v);
            continue;
        }
        size_t c2 = item.find(':', c1 + 1);
        int64_t lo = parse_int(item.substr(0, c1), option);
        int64_t hi = parse_int(item.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1), option);
        std::string step = c2 == std::string::npos ? "x2" : item.substr(c2 + 1);
        if (step.size() < 2 || (step[0] != 'x' && step[0] != '+'))
            throw UsageError("--" + option + ": step '" + step + "' must be xFACTOR or +INCREMENT (e.g. 128:8192:x2)");
        int64_t by = parse_int(step.substr(1), option);
        if (lo <= 0 || hi < lo) throw UsageError("--" + option + ": range '" + item + "' must go up from a positive start");
        if ((step[0] == 'x' && by < 2) || (step[0] == '+' && by < 1))
            throw UsageError("--" + option + ": step '" + step + "' does not advance");
        // The next value is computed only when it stays within hi, so a huge
        // hi or step never overflows.
        for (int64_t v = lo;;) {
            out.push_back(v);
            if (out.size() > kMaxValues) throw UsageError("--" + option + ": range '" + item + "' has too many values");
            bool more = step[0] == 'x' ? v <= hi / by : v <= hi - by;
            if (!more) break;
            v = step[0] == 'x' ? v * by : v + by;
        }
    }
    if (out.empty()) throw UsageError("--" + option + ": no values in '" + spec + "'");
    return out;
}

namespace {

std::vector<int64_t> range_or(const std::string& spec, const char* def, const char* option) {
    return parse_range(spec.empty() ? def : spec, option);
}

// The GEMMs of a model's layers for each phase, batch and (prefill)
// sequence length.
std::vector<Workload> llm_workloads(const PlanOptions& o, const std::vector<std::string>& dtypes) {
    const LlmModel* m = find_llm_model(o.model);
    if (!m) throw UsageError("--model: unknown model '" + o.model + "' (known: " + llm_model_names() + ")");
    std::vector<LlmGemm> gemms;
    try {
        gemms = llm_gemms(*m, o.tp);
    } catch (const Error& e) {
        throw UsageError(std::string("--tp: ") + e.what());
    }
    std::vector<Workload> out;
    std::set<std::string> seen;
    std::vector<int64_t> batches = range_or(o.batch, "1", "batch");
    std::vector<int64_t> seqs = range_or(o.seq, kLlmSeq, "seq");
    for (const std::string& phase : split_list(o.phases)) {
        if (phase != "prefill" && phase != "decode")
            throw UsageError("--phases: unknown phase '" + phase + "' (known: prefill, decode)");
        for (const std::string& d : dtypes)
            for (int64_t b : batches)
                for (int64_t s : phase == "prefill" ? seqs : std::vector<int64_t>{1})
                    for (const LlmGemm& g : gemms) {
                        Workload w = planned_workload("matmul", "matmul", d, o);
                        w.M = phase == "prefill" ? b * s : b;  // T = batch*seq, or batch when decoding
                        w.K = g.K;
                        w.N = g.N;
                        w.variant = o.variant;
                        w.batch = b;
                        if (phase == "prefill") w.seq = s;
                        std::string tag = phase == "prefill" ? "s" + std::to_string(s) : std::string();
                        w.name = name_of({m->name, "tp" + std::to_string(o.tp), "b" + std::to_string(b), phase});
                        if (!tag.empty()) w.name += "_" + tag;
                        w.name += "_" + g.gemm + (dtypes.size() > 1 ? "_" + d : "");
                        w.carried_json = carried({{"model", m->name}, {"phase", phase}, {"gemm", g.gemm}}, {{"tp", o.tp}});
                        if (seen.insert(w.name).second) out.push_back(w);
                    }
    }
    return out;
}

std::vector<Workload> matmul_workloads(const PlanOptions& o, const std::vector<std::string>& dtypes) {
    std::set<std::string> seen;
    if (o.mode == "sweep") {
        return matmul_products(range_or(o.M, kSweepRange, "M"), range_or(o.K, kSweepRange, "K"),
                               range_or(o.N, kSweepRange, "N"), dtypes, o, seen);
    }
    if (o.mode == "tiling") {
        std::vector<Workload> out;
        std::vector<int64_t> fixed = {kTilingFixed};
        auto add = [&](std::vector<Workload> ws) { out.insert(out.end(), ws.begin(), ws.end()); };
        add(matmul_products(o.M.empty() ? straddle(128) : parse_range(o.M, "M"), fixed, fixed, dtypes, o, seen));
        add(matmul_products(fixed, o.K.empty() ? straddle(128) : parse_range(o.K, "K"), fixed, dtypes, o, seen));
        add(matmul_products(fixed, fixed, o.N.empty() ? straddle(512) : parse_range(o.N, "N"), dtypes, o, seen));
        return out;
    }
    if (o.mode == "llm") return llm_workloads(o, dtypes);
    throw UsageError("--mode: unknown mode '" + o.mode + "' (known: sweep, tiling, llm)");
}

std::vector<Workload> pattern_workloads(const PlanOptions& o, const std::vector<std::string>& dtypes) {
    std::vector<Workload> out;
    std::set<std::string> seen;
    std::vector<int64_t> batches = range_or(o.batch, kPatternBatch, "batch");
    for (const std::string& p : split_list(o.patterns)) {
        if (p != "vmap" && p != "scan" && p != "for_loop" && p != "for_loop_launch")
            throw UsageError("--patterns: unknown pattern '" + p + "' (known: vmap, scan, for_loop, for_loop_launch)");
        // The for-loop is unrolled into the graph at every size; the
        // per-iteration-launch variant is shown at the small size.
        std::vector<std::string> sizes = p == "for_loop" ? split_list(o.sizes)
                                        : p == "for_loop_launch" ? std::vector<std::string>{"small"}
                                                                 : std::vector<std::string>{""};
        for (const std::string& d : dtypes)
            for (int64_t b : batches)
                for (const std::string& size : sizes) {
                    if (!size.empty() && size != "small" && size != "medium" && size != "large")
                        throw UsageError("--sizes: unknown size '" + size + "' (known: small, medium, large)");
                    Workload w = planned_workload("patterns", "pattern", d, o);
                    w.pattern = p;
                    w.size = size;
                    w.iterations = o.iterations;
                    w.batch = b;
                    w.features = o.features;
                    w.name = size.empty() ? p : p + "_" + size;
                    if (batches.size() > 1) w.name += "_b" + std::to_string(b);
                    if (dtypes.size() > 1) w.name += "_" + d;
                    if (seen.insert(w.name).second) out.push_back(w);
                }
    }
    if (o.iterations < 1 || o.features < 1) throw UsageError("--iterations and --features must be positive");
    return out;
}

// Defaults: one Llama-3-8B MLP block on a 128-token prefill.
std::vector<Workload> mlp_workloads(const PlanOptions& o, const std::vector<std::string>& dtypes) {
    std::vector<Workload> out;
    std::set<std::string> seen;
    for (const std::string& d : dtypes)
        for (int64_t b : range_or(o.batch, "1", "batch"))
            for (int64_t s : range_or(o.seq, "128", "seq"))
                for (int64_t h : range_or(o.hidden, "4096", "hidden"))
                    for (int64_t i : range_or(o.intermediate, "14336", "intermediate")) {
                        Workload w = planned_workload("mlp", "mlp", d, o);
                        w.batch = b;
                        w.seq = s;
                        w.hidden = h;
                        w.intermediate = i;
                        w.variant = o.variant;
                        w.name = "mlp_b" + std::to_string(b) + "_s" + std::to_string(s) + "_h" + std::to_string(h) +
                                 "_i" + std::to_string(i) + "_" + d;
                        if (seen.insert(w.name).second) out.push_back(w);
                    }
    return out;
}

}  // namespace

std::vector<Workload> plan_workloads(const PlanOptions& o) {
    std::vector<std::string> dtypes = split_list(o.dtypes.empty() ? (o.study == "patterns" ? kPatternDtype : "bf16") : o.dtypes);
    for (const std::string& d : dtypes)
        if (!parse_dtype(d)) throw UsageError("--dtype: unknown dtype '" + d + "' (known: " + std::string(dtype_names()) + ")");
    if (o.study == "matmul") return matmul_workloads(o, dtypes);
    if (o.study == "patterns") return pattern_workloads(o, dtypes);
    if (o.study == "mlp") return mlp_workloads(o, dtypes);
    throw UsageError("--study: unknown study '" + o.study + "' (known: matmul, patterns, mlp)");
}

}  // namespace nx
