// simulate(): validate, lower, schedule, summarise.
#include "common/model/sim.h"

#include "common/io/error.h"
#include "common/model/fitted.h"
#include "common/model/scheduler.h"
#include "common/model/validate.h"

namespace nx::model {

namespace {

struct Lowered {
    Time device_ns = 0;
    double sbuf_bytes = 0;  // per partition
};

Lowered lower(Scheduler& s, const WorkloadSpec& spec, SimResult& r) {
    Lowered out;
    switch (spec.kind) {
        case WorkloadKind::matmul: {
            MatmulVariant v = spec.variant ? *spec.variant : choose_matmul_variant(spec.matmul, s.cost());
            MatmulPlan plan = best_matmul_plan(spec.matmul, v, s.cost());
            lower_matmul(s, spec.matmul, plan);
            r.variant = std::string(to_string(v));
            r.tiles = matmul_tiles(spec.matmul.M, spec.matmul.K, spec.matmul.N);
            out.sbuf_bytes = static_cast<double>(plan.sbuf_bytes);
            break;
        }
        case WorkloadKind::mlp: {
            MlpOutcome o = lower_mlp(s, spec.mlp);
            r.variant = o.variant;
            r.tiles = o.tiles;
            out.sbuf_bytes = o.sbuf_bytes;
            break;
        }
        case WorkloadKind::pattern: {
            PatternOutcome o = lower_pattern(s, spec.pattern);
            out.device_ns = o.device_ns;
            out.sbuf_bytes = o.sbuf_bytes;
            break;
        }
        case WorkloadKind::elementwise: {
            ElementwiseOutcome o = lower_elementwise(s, spec.elementwise);
            r.variant = o.variant;
            out.sbuf_bytes = o.sbuf_bytes;
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

const Target& workload_target(const Workload& w) {
    const std::string name = w.target.empty() ? kDefaultDeviceTarget : w.target;
    const Target* t = find_target(name);
    if (!t) throw Error(workload_label(w) + ": unknown target '" + name + "' (known: " + target_names() + ")");
    return *t;
}

SimResult simulate(const Workload& w, const Target& target, ImportHandler* events) {
    return simulate(w, target, events, fitted_params());
}

SimResult simulate(const Workload& w, const Target& target, ImportHandler* events, const ModelParams& params) {
    CostModel cost(target, params);
    WorkloadSpec spec = validate_workload(w, cost);
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
