// The workload's two tables: its record fields and its ops (workload.h).
#include "common/workload/workload.h"

#include <algorithm>

#include "common/io/error.h"
#include "common/io/named_rows.h"

namespace nx {

namespace {

using W = Workload;

// Every field a workload record holds, in the order records write them.
const WorkloadField kFields[] = {
    {"study", &W::study, nullptr, false},
    {"name", &W::name, nullptr, false},
    {"op", &W::op},
    {"M", nullptr, &W::M},
    {"K", nullptr, &W::K},
    {"N", nullptr, &W::N},
    {"batch", nullptr, &W::batch},
    {"seq", nullptr, &W::seq},
    {"hidden", nullptr, &W::hidden},
    {"intermediate", nullptr, &W::intermediate},
    {"pattern", &W::pattern},
    {"size", &W::size},
    {"iterations", nullptr, &W::iterations},
    {"features", nullptr, &W::features},
    {"opname", &W::opname},
    {"rows", nullptr, &W::rows},
    {"cols", nullptr, &W::cols},
    {"channels", nullptr, &W::channels},
    {"out_channels", nullptr, &W::out_channels},
    {"height", nullptr, &W::height},
    {"width", nullptr, &W::width},
    {"filter", nullptr, &W::filter},
    {"pool", nullptr, &W::pool},
    {"stride", nullptr, &W::stride},
    {"state_size", nullptr, &W::state_size},
    {"dtype", &W::dtype},
    {"variant", &W::variant, nullptr, false},
    {"target", &W::target, nullptr, false},
    // The compiler partitions a graph for its LNC (neuronx-cc --lnc): part of
    // what a compiled graph depends on.
    {"lnc", nullptr, &W::lnc},
    {"shard", &W::shard, nullptr, false},
};

[[noreturn]] void bad(const Workload& w, const std::string& what) { throw Error(workload_label(w) + ": " + what); }

constexpr const char* kPatterns = "vmap, scan, for_loop, for_loop_launch";

void check_pattern(const Workload& w) {
    if (w.pattern.empty()) bad(w, std::string("missing pattern (known: ") + kPatterns + ")");
    if (w.pattern != "vmap" && w.pattern != "scan" && w.pattern != "for_loop" && w.pattern != "for_loop_launch")
        bad(w, "unknown pattern '" + w.pattern + "' (known: " + kPatterns + ")");
    if (w.pattern.rfind("for_loop", 0) == 0 && w.size != "small" && w.size != "medium" && w.size != "large")
        bad(w, "unknown size '" + w.size + "' (known: small, medium, large)");
}

void fill_pattern(Workload& w) {
    if (w.pattern.rfind("for_loop", 0) == 0 && w.size.empty()) w.size = "small";
}

void check_elementwise(const Workload& w) {
    if (w.opname.empty()) bad(w, "elementwise workload without an \"opname\"");
}

// The ops, their sizes and defaults (the model's lowerings read the same:
// nx-sim(7) LOWERING).  0: the size is required.
const std::vector<WorkloadOp> kOps = {
    {"matmul", {{"M", 0}, {"K", 0}, {"N", 0}}},
    {"mlp", {{"batch", 0}, {"seq", 0}, {"hidden", 0}, {"intermediate", 0}}},
    {"pattern", {{"iterations", 3}, {"batch", 32}, {"features", 128}}, check_pattern, fill_pattern},
    {"elementwise", {{"rows", 0}, {"cols", 0}}, check_elementwise},
    {"conv2d", {{"channels", 0}, {"out_channels", 0}, {"height", 0}, {"width", 0}, {"batch", 1}, {"filter", 3}, {"pool", 1}}},
    {"pool2d", {{"channels", 0}, {"height", 0}, {"width", 0}, {"batch", 1}, {"pool", 2}}},
    {"ssm_scan", {{"channels", 0}, {"seq", 0}, {"batch", 1}, {"state_size", 16}}},
    {"dwconv1d", {{"channels", 0}, {"width", 0}, {"batch", 1}, {"filter", 3}}},
};

}  // namespace

std::span<const WorkloadField> workload_fields() { return kFields; }

const WorkloadField* find_workload_field(std::string_view name) { return find_named(kFields, name); }

std::span<const WorkloadOp> workload_ops() { return kOps; }

const WorkloadOp* find_workload_op(std::string_view name) { return find_named(kOps, name); }

std::string workload_op_names() { return joined_names(kOps); }

std::string workload_label(const Workload& w) {
    if (!w.name.empty()) return w.name;
    if (!w.op.empty()) return w.op + " workload";
    return "workload";
}

Workload with_defaults(Workload w) {
    const WorkloadOp* op = find_workload_op(w.op);
    if (!op) return w;
    for (const WorkloadOp::Size& s : op->sizes) {
        int64_t& v = w.*(find_workload_field(s.field)->number);
        if (v == 0 && s.fallback > 0) v = s.fallback;
    }
    if (op->fill) op->fill(w);
    return w;
}

}  // namespace nx
