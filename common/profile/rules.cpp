#include "common/profile/rules.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>

#include <rapidjson/document.h>

#include "common/profile/executions.h"
#include "common/profile/profile_record.h"

namespace nx {

namespace {

enum class Op { lt, gt, ge };

// One condition: metric [/ divisor] OP (constant | other metric x factor).
struct Condition {
    std::string_view metric;
    std::string_view divisor;        // empty: the metric itself
    Op op;
    double threshold;                // used when threshold_metric is empty
    std::string_view threshold_metric;
};

struct Rule {
    std::string_view id;
    Severity severity;
    Condition when;
    Condition also;                  // a second condition (empty metric: none)
    std::string_view cause;
    std::string_view action;
    std::string_view origin;         // which rule set it comes from (RuleInfo::origin)
};

// A metric named with this placeholder is evaluated once per engine row
// (tensor, vector, scalar, gpsimd, sync); the finding names the engine.
constexpr std::string_view kEnginePlaceholder = "{engine}";
constexpr std::string_view kEngineRows[] = {"tensor", "vector", "scalar", "gpsimd", "sync"};

constexpr Condition kNone{};

// The pattern study's instruction-mix rule: over this share of memory (or
// compute) operations makes a kernel memory- (compute-) bound.  Used by the
// two mix rules and by classify_bound.
constexpr double kInstructionMixPercent = 70;

// Thresholds: neuron-facts.md section 4 unless noted.  ">>" in the source
// ("weight_queue_bytes >> weight_size_bytes") is read as more than twice.
const Rule kRules[] = {
    {"tensor_engine_idle", Severity::critical,
     {"tensor_engine_active_time_percent", {}, Op::lt, 50, {}}, kNone,
     "the tensor engine is busy less than half the time (pattern study: restructure matmuls)",
     "restructure matmuls: fewer, larger matmuls with tiles that fill the 128x128 array; batch small ones", "pattern study"},
    {"tensor_engine_underused", Severity::warn,
     {"tensor_engine_active_time_percent", {}, Op::lt, 70, {}}, kNone,
     "tensor engine utilisation is low: small batch or memory-bound operations",
     "increase the batch size and improve the data layout", "Explorer 2.27"},
    {"dma_wait", Severity::warn,
     {"dma_wait_percent", {}, Op::gt, 15, {}}, kNone,
     "data movement blocks compute: DMA runs while no compute engine does",
     "prefetch data (double-buffer DMA behind compute) and improve the memory access pattern", "Explorer 2.27"},
    {"sbuf_full", Severity::warn,
     {"sbuf_fullness_percent", {}, Op::gt, 90, {}}, kNone,
     "the state buffer is nearly full: intermediate tensors spill",
     "fuse adjacent ops and keep tensors live in SBUF to cut spills", "Explorer 2.27"},
    {"sbuf_reloads", Severity::warn,
     {"sbuf_reload_ratio", {}, Op::gt, 0.6, {}}, kNone,
     "intermediate tensors are spilled and reloaded",
     "fuse adjacent ops and keep tensors live in SBUF to cut spills", "Explorer 2.27"},
    {"sbuf_saves", Severity::warn,
     {"sbuf_save_ratio", {}, Op::gt, 0.6, {}}, kNone,
     "intermediate tensors are spilled to HBM",
     "fuse adjacent ops and keep tensors live in SBUF to cut spills", "Explorer 2.27"},
    {"memory_bound_roofline", Severity::warn,
     {"mm_arithmetic_intensity", {}, Op::lt, 0, "peak_flops_bandwidth_ratio"}, kNone,
     "the kernel is memory-bound: arithmetic intensity is below the ridge point",
     "raise arithmetic intensity: reduce reloads and spills, cut layout overhead, make DMAs bigger", "Explorer 2.27"},
    {"compute_bound_roofline", Severity::info,
     {"mm_arithmetic_intensity", {}, Op::ge, 0, "peak_flops_bandwidth_ratio"}, kNone,
     "the kernel is compute-bound: arithmetic intensity is at or above the ridge point",
     "keep one compute engine 90%+ active and push mfu_estimated_percent toward 100%", "Explorer 2.27"},
    {"weights_reloaded", Severity::warn,
     {"weight_queue_bytes", "weight_size_bytes", Op::gt, 2, {}}, kNone,
     "weights are loaded from HBM again and again",
     "restructure to reuse weights from SBUF and avoid duplicate HBM reads", "Explorer 2.27"},
    {"dma_fragmented", Severity::warn,
     {"dma_transfer_average_bytes", {}, Op::lt, 32768, {}}, {"dma_transfer_count", {}, Op::ge, 1000, {}},
     "DMA transfers are small and many: per-transfer overhead (~1.3 us) dominates",
     "make transfers at least 32 KiB (>= 2 KiB per partition) to raise mbu_estimated_percent", "Explorer 2.27"},
    {"tensor_engine_poorly_fed", Severity::warn,
     {"model_flops", "hardware_flops", Op::lt, 0.5, {}}, kNone,
     "less than half of the tensor engine's FLOPs are model FLOPs",
     "use bigger tiles and pipeline matmuls so the array is not waiting or padding", "NKI guide"},
    {"transposes", Severity::warn,
     {"transpose_flops", "hardware_flops", Op::gt, 0.10, {}}, kNone,
     "layout transposes take more than 10% of the tensor engine's FLOPs",
     "change the data layout so operands arrive in the layout the matmul wants", "Explorer 2.29"},
    {"spill_reloads", Severity::warn,
     {"spill_reload_bytes", "hbm_read_bytes", Op::gt, 0.25, {}}, kNone,
     "spill reloads are more than a quarter of HBM reads",
     "fuse ops or re-tile so intermediates fit in SBUF", "Explorer 2.29"},
    {"tensor_reloaded", Severity::warn,
     {"max_tensor_load_count", {}, Op::gt, 2, {}}, kNone,
     "a tensor is loaded from HBM more than twice",
     "hoist the loads out of the loop and reuse the tile from SBUF", "NKI guide"},
    {"memory_bound_mix", Severity::info,
     {"memory_instruction_percent", {}, Op::gt, kInstructionMixPercent, {}}, kNone,
     "memory-bound by instruction mix: over 70% of operations are loads, stores, copies or DMA (pattern study)",
     "optimise HBM-SBUF transfers and data layout", "pattern study"},
    {"compute_bound_mix", Severity::info,
     {"compute_instruction_percent", {}, Op::gt, kInstructionMixPercent, {}}, kNone,
     "compute-bound by instruction mix: over 70% of operations are matmul/add/mul/conv (pattern study)",
     "parallelise across engines and fuse operations", "pattern study"},
    {"engine_saturated", Severity::info,
     {"busiest_engine_active_time_percent", {}, Op::ge, 90, {}}, kNone,
     "an engine is active 90% or more of the time: compute-bound",
     "reduce the work on the busiest engine or move some of it to idle engines", "NKI guide"},
    {"bandwidth_bound", Severity::info,
     {"mbu_estimated_percent", {}, Op::ge, 60, {}}, kNone,
     "HBM bandwidth utilisation is 60% or more: memory-bound",
     "cut bytes moved: reuse tiles from SBUF, fuse ops, use smaller dtypes", "NKI guide"},
    // Neuron Explorer 2.29 on: the tensor engine's model FLOPs against the
    // FLOPs it could have done while active (peak x active time).
    {"model_flops_low", Severity::warn,
     {"model_flops", "active_flops", Op::lt, 0.5, {}}, kNone,
     "model FLOPs are less than half of the tensor engine's active FLOPs: it is busy but poorly fed",
     "use bigger tiles and pipeline matmuls: fewer transposes, less padding, no stalls between matmuls", "Explorer 2.29"},
    {"nki_coverage", Severity::warn,
     {"{engine}_engine_nki_instruction_percent", {}, Op::lt, 50, {}}, kNone,
     "less than half of this engine's instructions come from NKI source: the compiler generated the rest",
     "move the engine's remaining work into the NKI kernel, or check what the compiler inserted around it", "Explorer 2.29"},
    {"flops_throttled", Severity::warn,
     {"throttled_flops_percent", {}, Op::gt, 5, {}}, kNone,
     "power throttling took part of the tensor engine's active FLOPs",
     "spread dense matmul bursts out (the dI/dt limiter ramps at ~3 us), or accept the limit: it is the hardware's", "Explorer 2.29"},
    {"collective_outlier", Severity::warn,
     {"collective_outlier_ratio", {}, Op::gt, 2, {}}, kNone,
     "a collective operation took far longer than the median of its group (same operation and size)",
     "look for a straggling rank or contention at that time; compare ranks with nx-report --compare", "Explorer 2.29"},
    {"small_dma", Severity::warn,
     {"small_dma_transfer_percent", {}, Op::gt, 50, {}}, {"small_dma_transfer_count", {}, Op::ge, 100, {}},
     "most hardware-DGE DMA transfers are under 4 KiB: many tiny transfers back-pressure HBM",
     "make each DMA move at least 4 KiB (coalesce along the free dimension)", "Explorer 2.32"},
    {"throttling", Severity::info,
     {"throttle_active_time_percent", {}, Op::gt, 10, {}}, kNone,
     "the core ran under a throttle limit for a large share of the time",
     "read throttle_avg_util_limit_percent: the limit caps what any kernel change can gain here", "nx"},
    {"unnamed_instructions", Severity::warn,
     {"unnamed_instruction_percent", {}, Op::gt, 1, {}}, kNone,
     "the source names no opcode for more than 1% of the NeuronCore instructions ('unknown', or none): the per-opcode "
     "figures (top opcodes, instruction mix, the pattern study's ratio) miss what they were",
     "check that the NTFF was viewed with the NEFF it was captured from (nx-convert --neff), and with a viewer as new as "
     "the compiler; until then trust counts and times, not the per-opcode figures",
     "nx"},
    {"data_quality", Severity::warn,
     {"min_core_coverage_percent", {}, Op::lt, 95, {}}, kNone,
     "a physical core's instructions span less than 95% of the execution: the capture may have lost that core's tail "
     "(the profiler does not warn of it), or the core's share of the work ends early",
     "read the notes for each core's share; if a core's tail is missing, capture again before trusting its figures; "
     "if its work ends early, balance the work between the two cores",
     "nx"},
    {"tensor_repeat", Severity::warn,
     {"max_tensor_repeat_factor", {}, Op::gt, 1, {}}, kNone,
     "a tensor is loaded into SBUF more than once (its repeat factor is above 1)",
     "keep the tensor resident in SBUF across its uses, or reorder loops so each tile is loaded once", "Explorer 2.28"},
};

const char* op_text(Op op) {
    switch (op) {
        case Op::lt: return "<";
        case Op::gt: return ">";
        case Op::ge: return ">=";
    }
    return "?";
}

bool holds(Op op, double v, double t) {
    switch (op) {
        case Op::lt: return v < t;
        case Op::gt: return v > t;
        case Op::ge: return v >= t;
    }
    return false;
}

// Evaluates one condition: sets value/threshold; false when inputs are missing.
bool evaluate(const Condition& c, const ProfileSummary& s, double& value, double& threshold, bool& result,
              std::string& missing) {
    const MetricValue* m = s.find(c.metric);
    if (!m) {
        missing = std::string(c.metric);
        return false;
    }
    value = m->value;
    if (!c.divisor.empty()) {
        const MetricValue* d = s.find(c.divisor);
        if (!d || d->value == 0) {
            missing = std::string(c.divisor);
            return false;
        }
        value /= d->value;
    }
    threshold = c.threshold;
    if (!c.threshold_metric.empty()) {
        const MetricValue* t = s.find(c.threshold_metric);
        if (!t) {
            missing = std::string(c.threshold_metric);
            return false;
        }
        threshold = t->value;
    }
    result = holds(c.op, value, threshold);
    return true;
}

std::string number(double v) {
    char buf[32];
    double a = std::fabs(v);
    if (v == std::floor(v) && a < 1e12) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return buf;
    }
    if (a != 0 && (a < 0.01 || a >= 1e6)) std::snprintf(buf, sizeof buf, "%.3g", v);
    else std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string condition_text(const Condition& c) {
    std::string lhs(c.metric);
    if (!c.divisor.empty()) lhs += " / " + std::string(c.divisor);
    std::string rhs = c.threshold_metric.empty() ? number(c.threshold) : std::string(c.threshold_metric);
    return lhs + " " + op_text(c.op) + " " + rhs;
}

}  // namespace

std::string_view to_string(Severity s) {
    switch (s) {
        case Severity::info: return "info";
        case Severity::warn: return "warn";
        case Severity::critical: return "critical";
    }
    return "info";
}

std::optional<Severity> parse_severity(std::string_view s) {
    for (Severity v : {Severity::info, Severity::warn, Severity::critical})
        if (s == to_string(v)) return v;
    return std::nullopt;
}

namespace {

// The threshold a run uses for a rule: its --set value, else the table's.
double threshold_for(const Rule& r, const RuleThresholds* t) {
    if (t) {
        auto it = t->values.find(r.id);
        if (it != t->values.end()) return it->second;
    }
    return r.when.threshold;
}

std::string replace_engine(std::string_view metric, std::string_view engine) {
    std::string m(metric);
    size_t p = m.find(kEnginePlaceholder);
    if (p != std::string::npos) m.replace(p, kEnginePlaceholder.size(), engine);
    return m;
}

// What a rule's message says of its threshold, and how to say another one:
// a run that sets RULE.threshold=V gets a message that states V, not the
// table's value.  {P}: the threshold as it is (a percent metric); {R}: a
// ratio as a percent; {N}: the number.
struct ThresholdWords {
    std::string_view rule, said, instead;
};
constexpr ThresholdWords kThresholdWords[] = {
    {"tensor_engine_idle", "less than half the time", "less than {P}% of the time"},
    {"tensor_engine_poorly_fed", "less than half of", "less than {R}% of"},
    {"transposes", "more than 10% of", "more than {R}% of"},
    {"spill_reloads", "more than a quarter of", "more than {R}% of"},
    {"tensor_reloaded", "more than twice", "more than {N} times"},
    {"memory_bound_mix", "over 70% of", "over {P}% of"},
    {"compute_bound_mix", "over 70% of", "over {P}% of"},
    {"engine_saturated", "90% or more", "{P}% or more"},
    {"bandwidth_bound", "60% or more", "{P}% or more"},
    {"model_flops_low", "less than half of", "less than {R}% of"},
    {"nki_coverage", "less than half of", "less than {P}% of"},
    {"flops_throttled", "took part of", "took more than {P}% of"},
    {"collective_outlier", "far longer than the median", "more than {N} times the median"},
    {"small_dma", "most hardware-DGE DMA transfers", "over {P}% of hardware-DGE DMA transfers"},
    {"throttling", "a large share of the time", "more than {P}% of the time"},
    {"tensor_repeat", "more than once (its repeat factor is above 1)", "with a repeat factor above {N}"},
    {"unnamed_instructions", "more than 1% of", "more than {P}% of"},
    {"data_quality", "less than 95% of", "less than {P}% of"},
};

}  // namespace

std::vector<std::string> threshold_wording_mismatches() {
    std::vector<std::string> out;
    for (const ThresholdWords& w : kThresholdWords) {
        auto r = std::find_if(std::begin(kRules), std::end(kRules), [&](const Rule& x) { return x.id == w.rule; });
        if (r == std::end(kRules)) out.push_back(std::string(w.rule) + ": no such rule");
        else if (r->cause.find(w.said) == std::string_view::npos)
            out.push_back(std::string(w.rule) + ": its message does not say \"" + std::string(w.said) + "\"");
    }
    return out;
}

namespace {

// The rule's message for a threshold the run set (`cause` unchanged when it
// is the table's own, or the message names no figure).
std::string cause_for_threshold(const Rule& r, std::string cause, double threshold) {
    if (!r.when.threshold_metric.empty() || threshold == r.when.threshold) return cause;
    for (const ThresholdWords& w : kThresholdWords) {
        if (w.rule != r.id) continue;
        size_t at = cause.find(w.said);
        if (at == std::string::npos) return cause;
        std::string words(w.instead);
        for (auto [mark, v] : {std::pair<std::string_view, double>{"{P}", threshold}, {"{R}", threshold * 100},
                               {"{N}", threshold}})
            if (size_t m = words.find(mark); m != std::string::npos) words.replace(m, mark.size(), number(v));
        return cause.replace(at, w.said.size(), words);
    }
    return cause;
}

void evaluate_rule(const Rule& r, const ProfileSummary& summary, std::string_view engine, double threshold,
                   std::vector<Finding>& out, std::vector<std::string>* missing) {
    std::string metric = replace_engine(r.when.metric, engine);
    Condition when = r.when;
    when.metric = metric;
    when.threshold = threshold;
    double value = 0, thr = 0;
    bool fires = false;
    std::string lacking;
    std::string id(r.id);
    if (!evaluate(when, summary, value, thr, fires, lacking)) {
        if (missing) missing->push_back(id + " (needs " + lacking + ")");
        return;
    }
    if (!fires) return;
    if (!r.also.metric.empty()) {
        double v2 = 0, t2 = 0;
        bool also = false;
        if (!evaluate(r.also, summary, v2, t2, also, lacking)) {
            if (missing) missing->push_back(id + " (needs " + lacking + ")");
            return;
        }
        if (!also) return;
    }
    Finding f;
    f.rule = id;
    f.severity = r.severity;
    f.metric = metric;
    if (!r.when.divisor.empty()) f.metric += "/" + std::string(r.when.divisor);
    f.value = value;
    f.threshold = thr;
    std::string cond = f.metric + " = " + number(value) + " " + op_text(r.when.op) + " " + number(thr);
    if (!r.when.threshold_metric.empty()) cond += " (" + std::string(r.when.threshold_metric) + ")";
    std::string cause = cause_for_threshold(r, std::string(r.cause), thr);
    if (!engine.empty()) cause = std::string(engine) + " engine: " + cause;
    f.message = cause + " [" + cond + "]";
    f.action = std::string(r.action);
    double scale = std::max(std::fabs(thr), 1e-12);
    f.excess = std::fabs(value - thr) / scale;
    f.start_ns = summary.start_ns;
    f.end_ns = summary.end_ns;
    out.push_back(std::move(f));
}

}  // namespace

// A session's slowest execution against its NEFF's median (executions.h),
// with what grew in it; the others slow are counted.
Finding slow_execution(const ProfileSummary& summary) {
    const ExecutionDigest& d = *summary.execution_digest;
    const SlowExecution& x = d.slow.front();
    double ratio = static_cast<double>(x.dur_ns) / static_cast<double>(x.median_ns);
    Finding f;
    f.rule = "slow_execution";
    f.severity = Severity::warn;
    f.metric = "execution duration / its NEFF's median";
    f.value = ratio;
    f.threshold = kSlowExecutionRatio;
    char r[32];
    std::snprintf(r, sizeof r, "%.2fx", ratio);
    f.message = "execution " + std::to_string(x.index) + " (" + x.neff + ") took " + duration_text(x.dur_ns) +
                ", " + r + " the median of its NEFF's executions (" + duration_text(x.median_ns) +
                "): " + x.what_changed;
    if (d.slow.size() > 1) f.message += "; " + std::to_string(d.slow.size() - 1) + " more executions are slow";
    f.action = "compare it with a median execution of its NEFF (the execution table or dataset table): what grew is "
               "where it lost time; a collective or a host stall there points outside the kernel";
    f.excess = ratio / kSlowExecutionRatio - 1;
    f.region = "execution " + std::to_string(x.index);
    f.start_ns = x.start_ns;
    f.end_ns = x.start_ns + x.dur_ns;
    return f;
}

std::vector<Finding> evaluate_rules(const ProfileSummary& summary, std::vector<std::string>* missing,
                                    const RuleThresholds* thresholds) {
    std::vector<Finding> out;
    for (const Rule& r : kRules) {
        double threshold = threshold_for(r, thresholds);
        if (r.when.metric.find(kEnginePlaceholder) == std::string_view::npos) {
            evaluate_rule(r, summary, {}, threshold, out, missing);
            continue;
        }
        // Per engine: "missing" only when no engine row has the metric.
        bool any = false;
        for (std::string_view e : kEngineRows) {
            if (!summary.find(replace_engine(r.when.metric, e))) continue;
            any = true;
            evaluate_rule(r, summary, e, threshold, out, nullptr);
        }
        if (!any && missing) missing->push_back(std::string(r.id) + " (needs " + std::string(r.when.metric) + ")");
    }
    if (summary.execution_digest && !summary.execution_digest->slow.empty()) out.push_back(slow_execution(summary));
    rank_findings(out);
    return out;
}

std::vector<std::string> explorer_rules_missing(const std::vector<std::string>& missing) {
    std::vector<std::string> out;
    for (const std::string& m : missing) {
        std::string id = m.substr(0, m.find(' '));
        for (const Rule& r : kRules)
            if (r.id == id && r.origin.substr(0, 8) == "Explorer" &&
                std::find(out.begin(), out.end(), id) == out.end())
                out.push_back(id);
    }
    return out;
}

std::optional<std::string> RuleThresholds::set(std::string_view setting) {
    size_t eq = setting.find('=');
    size_t dot = setting.find('.');
    if (eq == std::string_view::npos || dot == std::string_view::npos || dot > eq ||
        setting.substr(dot + 1, eq - dot - 1) != "threshold")
        return "expected RULE.threshold=VALUE, got '" + std::string(setting) + "'";
    std::string_view id = setting.substr(0, dot);
    const Rule* rule = nullptr;
    for (const Rule& r : kRules)
        if (r.id == id) rule = &r;
    if (!rule) return "unknown rule '" + std::string(id) + "' (nx-report --list rules lists them)";
    if (!rule->when.threshold_metric.empty())
        return "rule '" + std::string(id) + "' compares against " + std::string(rule->when.threshold_metric) +
               ": it has no threshold to set";
    std::string v(setting.substr(eq + 1));
    char* end = nullptr;
    double d = v.empty() ? 0 : std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !std::isfinite(d))
        return "threshold of '" + std::string(id) + "' is not a number: '" + v + "'";
    values[std::string(id)] = d;
    return std::nullopt;
}

std::optional<std::string> RuleThresholds::read_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) return path + ": cannot open the rules file";
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        size_t hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        size_t b = line.find_first_not_of(" \t\r"), e = line.find_last_not_of(" \t\r");
        if (b == std::string::npos) continue;
        if (auto err = set(std::string_view(line).substr(b, e - b + 1))) return path + ":" + std::to_string(n) + ": " + *err;
    }
    return std::nullopt;
}

void rank_findings(std::vector<Finding>& findings) {
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        if (a.severity != b.severity) return a.severity > b.severity;
        return a.excess > b.excess;
    });
}

std::vector<const Finding*> top_findings(const std::vector<Finding>& ranked, size_t top) {
    // Like Neuron Explorer's summary: the few most important, one per metric
    // (the critical "tensor engine idle" hides the milder "under-used").
    std::vector<const Finding*> out;
    for (const Finding& f : ranked) {
        if (out.size() >= top) break;
        bool same_metric = std::any_of(out.begin(), out.end(), [&](const Finding* g) { return g->metric == f.metric; });
        if (!same_metric) out.push_back(&f);
    }
    return out;
}

std::vector<RuleInfo> rule_table() {
    std::vector<RuleInfo> out;
    for (const Rule& r : kRules) {
        std::string c = condition_text(r.when);
        if (!r.also.metric.empty()) c += " and " + condition_text(r.also);
        double t = r.when.threshold_metric.empty() ? r.when.threshold : std::numeric_limits<double>::quiet_NaN();
        out.push_back({std::string(r.id), std::string(to_string(r.severity)), c, std::string(r.action),
                       std::string(r.origin), t});
    }
    return out;
}

BoundVerdict classify_bound(const ProfileSummary& s) {
    const MetricValue* ai = s.find("mm_arithmetic_intensity");
    const MetricValue* ridge = s.find("peak_flops_bandwidth_ratio");
    if (ai && ridge && ridge->value > 0) {
        bool compute = ai->value >= ridge->value;
        return {compute ? "compute-bound" : "memory-bound",
                "arithmetic intensity " + number(ai->value) + " FLOP/B vs ridge point " + number(ridge->value)};
    }
    const MetricValue* mem = s.find("memory_instruction_percent");
    const MetricValue* comp = s.find("compute_instruction_percent");
    if (mem && comp) {
        std::string evidence = "instruction mix: " + number(mem->value) + "% memory ops, " + number(comp->value) +
                               "% compute ops (" + number(kInstructionMixPercent) + "% rule)";
        if (mem->value > kInstructionMixPercent) return {"memory-bound", evidence};
        if (comp->value > kInstructionMixPercent) return {"compute-bound", evidence};
        return {"balanced", evidence};
    }
    return {"unknown", "no arithmetic intensity or instruction mix in the profile"};
}

namespace {

// What to do about a profiler message, by a phrase in it (neuron-profile
// 2.27's wording); the first match wins.
struct WarningAction {
    std::string_view phrase;
    std::string_view action;
};
constexpr WarningAction kWarningActions[] = {
    {"--enable-dge-notifs",
     "capture with --enable-dge-notifs (or NEURON_RT_ENABLE_DGE_NOTIFICATIONS=1): the DMA figures are incomplete "
     "without it"},
    {"missing compiler metrics", "recompile the model with the current neuronx-cc to get the compiler's metrics"},
    {"were dropped",
     "the figures made from those notifications (for DMA: transfers, bytes, busy time) are lower bounds; capture a "
     "shorter run or fewer executions to get them whole"},
};
// Warnings that say the profile lost data the profiler does not otherwise
// mark: a data_quality finding, not only the profiler's words (real Warning
// row: "Notification from block DMA of type DMA were dropped. This can cause
// corresponding data to be incorrect.").
// Phrases of a profiler warning that says the capture lost data (the
// runtime drops notifications when its buffers fill: a session's trace
// then stops short of its last executions).  Matched in lowercase.
constexpr std::string_view kLostData[] = {"were dropped", "dropped notification", "notifications dropped",
                                          "dropped "};
constexpr std::string_view kDefaultWarningAction = "read the profiler's message: figures it names may be incomplete";

// The message of one warning object: "message", else its first string field.
std::string warning_text(const rapidjson::Value& w, const char* key) {
    auto it = w.FindMember(key);
    if (it != w.MemberEnd() && it->value.IsString()) return it->value.GetString();
    return {};
}

}  // namespace

std::vector<Finding> source_findings(const ProfileInfo& info) {
    std::vector<Finding> out;
    if (info.carried_json.find("\"warnings\"") == std::string::npos &&
        info.carried_json.find("\"errors\"") == std::string::npos)
        return out;
    rapidjson::Document doc = carried_document(info);
    for (const char* list : {"errors", "warnings"}) {
        auto it = doc.FindMember(list);
        if (it == doc.MemberEnd() || !it->value.IsArray()) continue;
        bool error = std::string_view(list) == "errors";
        for (const auto& w : it->value.GetArray()) {
            std::string message;
            if (w.IsString()) message = w.GetString();
            else if (w.IsObject()) {
                message = warning_text(w, "message");
                for (auto m = w.MemberBegin(); message.empty() && m != w.MemberEnd(); ++m)
                    if (m->value.IsString()) message = m->value.GetString();
            }
            if (message.empty()) continue;
            Finding f;
            f.rule = error ? "profiler_error" : "profiler_warning";
            f.severity = error ? Severity::critical : Severity::warn;
            f.metric = w.IsObject() ? warning_text(w, "category") : std::string();
            if (f.metric.empty()) f.metric = list;
            f.value = f.threshold = std::numeric_limits<double>::quiet_NaN();
            f.message = "the profiler says: " + message;
            f.action = kDefaultWarningAction;
            for (const WarningAction& a : kWarningActions)
                if (message.find(a.phrase) != std::string::npos) {
                    f.action = a.action;
                    break;
                }
            f.excess = 0;
            std::string lower;
            for (char c : message) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            bool lost = std::any_of(std::begin(kLostData), std::end(kLostData),
                                    [&](std::string_view p) { return lower.find(p) != std::string::npos; }) &&
                        (lower.find("notification") != std::string::npos || lower.find("were dropped") != std::string::npos);
            if (lost && !error) {
                f.rule = "data_quality";
                f.metric = "dropped_notifications";
                f.message = "the profile lost data: " + f.message;
            }
            out.push_back(std::move(f));
        }
    }
    return out;
}

}  // namespace nx
