// simulate(): validate, lower, schedule, summarise.
#include "common/model/sim.h"

#include "common/io/error.h"
#include "common/model/fitted.h"
#include "common/model/lowering.h"
#include "common/model/scheduler.h"
#include "common/model/sharding.h"
#include "common/model/validate.h"

namespace nx::model {

namespace {

struct Lowered {
    Time device_ns = 0;
    double sbuf_bytes = 0;  // per partition
};

// The variants' names, once when every part used the same.
std::string variant_text(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names)
        if (out.find(n) == std::string::npos) out += (out.empty() ? "" : "|") + n;
    return out;
}

Lowered lower(Scheduler& s, const WorkloadSpec& spec, SimResult& r) {
    Lowered out;
    const int lanes = s.lanes();
    switch (spec.kind) {
        case WorkloadKind::matmul: {
            // Each core's part chooses its own variant and plan (its HBM share
            // is the lane's), then the parts run side by side.
            const std::vector<MatmulProblem> parts = shard_matmul(spec.matmul, lanes);
            std::vector<MatmulPlan> plans;
            std::vector<std::string> names;
            for (const MatmulProblem& p : parts) {
                MatmulVariant v = spec.variant ? *spec.variant : choose_matmul_variant(p, s.cost());
                plans.push_back(best_matmul_plan(p, v, s.cost()));
                names.emplace_back(to_string(v));
                out.sbuf_bytes = std::max(out.sbuf_bytes, static_cast<double>(plans.back().sbuf_bytes));
            }
            std::vector<Lowering> tasks;
            for (size_t i = 0; i < parts.size(); ++i) tasks.push_back(lower_matmul(s, parts[i], plans[i]));
            run_lowerings(s, tasks);
            r.variant = variant_text(names);
            r.tiles = matmul_tiles(spec.matmul.M, spec.matmul.K, spec.matmul.N);
            break;
        }
        case WorkloadKind::mlp: {
            std::vector<MlpOutcome> outcomes(static_cast<size_t>(lanes));
            std::vector<Lowering> tasks;
            for (int i = 0; i < lanes; ++i) tasks.push_back(lower_mlp(s, spec.mlp, i, outcomes[static_cast<size_t>(i)]));
            run_lowerings(s, tasks);
            r.variant = outcomes.front().variant;
            r.tiles = outcomes.front().tiles;
            for (const MlpOutcome& o : outcomes) out.sbuf_bytes = std::max(out.sbuf_bytes, o.sbuf_bytes);
            break;
        }
        case WorkloadKind::pattern: {
            PatternOutcome o = lower_pattern(s, spec.pattern);
            out.device_ns = o.device_ns;
            out.sbuf_bytes = o.sbuf_bytes;
            break;
        }
        case WorkloadKind::elementwise: {
            const std::vector<ElementwiseSpec> parts = shard_elementwise(spec.elementwise, lanes);
            std::vector<ElementwiseOutcome> outcomes(parts.size());
            std::vector<Lowering> tasks;
            for (size_t i = 0; i < parts.size(); ++i) tasks.push_back(lower_elementwise(s, parts[i], outcomes[i]));
            run_lowerings(s, tasks);
            r.variant = outcomes.front().variant;
            for (const ElementwiseOutcome& o : outcomes) out.sbuf_bytes = std::max(out.sbuf_bytes, o.sbuf_bytes);
            break;
        }
        case WorkloadKind::conv2d: {
            ConvOutcome o = lower_conv(s, spec.conv);
            out.sbuf_bytes = o.sbuf_bytes;
            break;
        }
        case WorkloadKind::pool2d: {
            PoolOutcome o = lower_pool(s, spec.pool);
            r.variant = spec.pool.variant == PoolVariant::reduce ? "reduce" : "separable";
            out.sbuf_bytes = o.sbuf_bytes;
            break;
        }
        case WorkloadKind::ssm_scan: {
            ScanOutcome o = lower_scan(s, spec.scan);
            r.variant = "v" + std::to_string(spec.scan.version);
            out.sbuf_bytes = o.sbuf_bytes;
            break;
        }
        case WorkloadKind::dwconv1d: {
            DwConvOutcome o = lower_dwconv(s, spec.dwconv);
            r.variant = spec.dwconv.variant == DwConvVariant::per_position ? "per_position" : "windowed";
            out.sbuf_bytes = o.sbuf_bytes;
            break;
        }
    }
    return out;
}

}  // namespace

int workload_lnc(const Workload& w, const Target& target) {
    if (w.lnc == 0) return target.lnc;
    if (w.lnc < 1 || w.lnc > target.max_lnc)
        throw Error(workload_label(w) + ": lnc " + std::to_string(w.lnc) + ": " + target.name + " groups at most " +
                    std::to_string(target.max_lnc) + " physical core" + (target.max_lnc == 1 ? "" : "s") +
                    " per logical core");
    return static_cast<int>(w.lnc);
}

const Target& workload_target(const Workload& w) {
    const std::string name = w.target.empty() ? kDefaultDeviceTarget : w.target;
    const Target* t = find_target(name);
    if (!t) throw Error(workload_label(w) + ": unknown target '" + name + "' (known: " + target_names() + ")");
    return *t;
}

SimResult simulate(const Workload& w, const Target& target, ImportHandler* events) {
    return simulate(w, target, events, fitted_params());
}

bool shards(const WorkloadSpec& spec, int lanes) {
    switch (spec.kind) {
        case WorkloadKind::matmul: return shard_matmul(spec.matmul, lanes).size() > 1;
        case WorkloadKind::mlp: return mlp_shards(spec.mlp, lanes);
        case WorkloadKind::elementwise: return shard_elementwise(spec.elementwise, lanes).size() > 1;
        default: return false;  // lowered for one physical core (nx-sim(7), LNC)
    }
}

SimResult simulate(const Workload& w, const Target& target, ImportHandler* events, const ModelParams& params) {
    WorkloadSpec spec = validate_workload(w, CostModel(target, params));
    const int lnc = workload_lnc(w, target);
    // The kernel's work spreads over every physical core when its lowering
    // shards it; otherwise it runs on the first.
    const int lanes = spec.shard && shards(spec, lnc) ? lnc : 1;
    CostModel cost(target, params, Placement{lnc, lanes});
    Scheduler sched(cost, events);
    SimResult r;
    // The launch pattern's every launch is a kernel of its own (patterns.cpp).
    const bool one_kernel = !(spec.kind == WorkloadKind::pattern && spec.pattern.kind == PatternKind::for_loop_launch);
    if (one_kernel) sched.begin_kernel(0);
    Lowered low = lower(sched, spec, r);
    if (one_kernel) sched.end_kernel();
    sched.finish();

    const SimStats& st = sched.stats();
    r.latency_ns = st.end;
    r.device_ns = spec.kind == WorkloadKind::pattern && spec.pattern.kind == PatternKind::for_loop_launch ? low.device_ns : st.end;
    r.instructions = st.instructions;
    r.dma_transfers = st.dma_transfers;
    r.model_flops = st.model_flops;
    r.hardware_flops = st.hardware_flops;
    r.hbm_read_bytes = st.hbm_read_bytes;
    r.hbm_write_bytes = st.hbm_write_bytes;
    r.hbm_bytes = st.hbm_read_bytes + st.hbm_write_bytes;
    r.sbuf_peak_bytes = low.sbuf_bytes * static_cast<double>(target.sbuf_partitions);
    r.sbuf_read_bytes = st.sbuf_read_bytes;
    r.sbuf_write_bytes = st.sbuf_write_bytes;
    r.tensor_busy_ns = st.unit_busy_ns[kTrackTensorMatrix];
    r.vector_busy_ns = st.unit_busy_ns[kTrackVector];
    r.scalar_busy_ns = st.unit_busy_ns[kTrackScalar];
    r.gpsimd_busy_ns = st.unit_busy_ns[kTrackGpSimd];
    r.floor_clamps = st.floor_clamps;
    r.peak_buffered_events = sched.peak_buffered_events();
    r.lnc = lnc;
    r.lanes = lanes;
    for (int c = 0; c < lnc; ++c) {
        CoreTimes& ct = r.cores[static_cast<size_t>(c)];
        ct.busy_ns = st.core_busy_ns[static_cast<size_t>(c)];
        ct.wait_ns = st.core_wait_ns[static_cast<size_t>(c)];
        ct.end_ns = st.core_end[static_cast<size_t>(c)];
    }

    if (events) {
        // What the events cannot carry: on-chip memory, sizes, cycles.
        events->source_metric("sbuf_fullness_percent", 100.0 * low.sbuf_bytes / target.sbuf_bytes_per_partition());
        events->source_metric("sbuf_read_bytes", r.sbuf_read_bytes);
        events->source_metric("sbuf_write_bytes", r.sbuf_write_bytes);
        events->source_metric("weight_size_bytes", spec.weight_bytes);
        events->source_metric("inputs_outputs_weights_size_bytes", spec.io_bytes);
        events->source_metric("neuroncore_cycle_count", r.device_ns * target.profiler_clock_ghz);
        // total_time is device time only; the launch pattern's host dispatch is not.
        if (r.device_ns != r.latency_ns) events->source_metric("total_time", r.device_ns / 1e9);
    }
    return r;
}

}  // namespace nx::model
