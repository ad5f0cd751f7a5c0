#include "common/profile/metric_defs.h"

#include "common/io/named_rows.h"

namespace nx {

namespace {

const std::vector<MetricDef> kDefs = {
    // Time and counts.
    {"total_time", "s", Better::lower, "device time of the run (source summary, else first event start to last event end)"},
    {"neuroncore_cycle_count", "count", Better::lower, "NeuronCore cycles at the profiler base clock"},
    {"event_count", "count", Better::neither, "events in the profile"},
    // Engines: active time is the union of the engine's busy intervals.
    {"tensor_engine_active_time", "s", Better::neither, "TensorE busy time (LoadStationary and MultiplyMoving rows together)"},
    {"tensor_engine_active_time_percent", "%", Better::higher, "TensorE busy time over total_time"},
    {"tensor_engine_instruction_count", "count", Better::neither, "TensorE instructions"},
    {"vector_engine_active_time", "s", Better::neither, "VectorE busy time"},
    {"vector_engine_active_time_percent", "%", Better::neither, "VectorE busy time over total_time"},
    {"vector_engine_instruction_count", "count", Better::neither, "VectorE instructions"},
    {"scalar_engine_active_time", "s", Better::neither, "ScalarE busy time"},
    {"scalar_engine_active_time_percent", "%", Better::neither, "ScalarE busy time over total_time"},
    {"scalar_engine_instruction_count", "count", Better::neither, "ScalarE instructions"},
    {"gpsimd_engine_active_time", "s", Better::neither, "GpSimdE busy time"},
    {"gpsimd_engine_active_time_percent", "%", Better::neither, "GpSimdE busy time over total_time"},
    {"gpsimd_engine_instruction_count", "count", Better::neither, "GpSimdE instructions"},
    {"sync_engine_active_time", "s", Better::neither, "SyncE busy time"},
    {"sync_engine_active_time_percent", "%", Better::neither, "SyncE busy time over total_time"},
    {"sync_engine_instruction_count", "count", Better::neither, "SyncE instructions"},
    {"matmul_instruction_count", "count", Better::neither, "MultiplyMoving (MATMUL) instructions"},
    {"compute_active_time", "s", Better::neither, "time any compute engine is busy (nx)"},
    {"busiest_engine_active_time_percent", "%", Better::neither, "active time percent of the busiest compute engine (nx)"},
    {"tensor_engine_time_share_percent", "%", Better::higher,
     "TensorE busy time over the summed busy time of all compute engines (nx)"},
    // A Kineto trace's device streams (GPU, MTIA), as Holistic Trace
    // Analysis defines them (device_streams.h): over the device window, the
    // work the CPU launched before the last, incomplete step.
    {"device_window_time", "s", Better::lower,
     "first start to last end of the device work counted (HTA's kernel time; nx)"},
    {"device_busy_time", "s", Better::neither, "time any device work runs: the union of it (nx)"},
    {"device_compute_time", "s", Better::neither, "time computation kernels run (HTA's compute time; nx)"},
    {"device_communication_time", "s", Better::neither,
     "time communication kernels run (NCCL, RCCL, oneCCL; nx)"},
    {"device_memory_time", "s", Better::neither, "time memory copies and sets run (nx)"},
    {"device_idle_time", "s", Better::lower, "device_window_time with no device work running (HTA's idle time; nx)"},
    {"device_idle_time_percent", "%", Better::lower, "device_idle_time over device_window_time (HTA's idle_time_pctg; nx)"},
    {"device_compute_time_percent", "%", Better::higher,
     "device_compute_time over device_window_time (HTA's compute_time_pctg; nx)"},
    {"device_non_compute_time_percent", "%", Better::lower,
     "device work that is not computation over device_window_time (HTA's non_compute_time_pctg; nx)"},
    {"comm_comp_overlap_percent", "%", Better::higher,
     "communication time spent computing too, over device_communication_time (HTA's comp_comm_overlap_pctg; nx)"},
    // The vmap/scan/for-loop study's own figures (its perfetto_analyzer.py:
    // SUM(dur) of slices by exact name).  Comparable with its published
    // table, not with the engine metrics above: its "TensorMatrix" includes
    // VectorE's TENSOR_TENSOR and TENSOR_REDUCE and its "engine time" counts
    // only these names, not the rest of any engine's work.
    {"pattern_study_tensormatrix_time", "s", Better::neither,
     "the pattern study's \"TensorMatrix\" time: summed durations of MATMUL, TENSOR_TENSOR and TENSOR_REDUCE "
     "instructions on any engine (nx; the study's definition, not TensorE busy time)"},
    {"pattern_study_other_time", "s", Better::neither,
     "the pattern study's \"other\" time: summed durations of WRITE and COPY instructions (nx; the study's definition)"},
    {"pattern_study_engine_time", "s", Better::lower,
     "the pattern study's \"total engine time\": pattern_study_tensormatrix_time + pattern_study_other_time "
     "(nx; the study's definition, not the engines' busy time)"},
    {"pattern_study_tensormatrix_share_percent", "%", Better::neither,
     "the pattern study's \"TensorMatrix ratio\": pattern_study_tensormatrix_time over pattern_study_engine_time "
     "(nx; the study's definition)"},
    // FLOPs and roofline.
    {"model_flops", "flop", Better::neither, "useful matmul FLOPs of the model"},
    {"hardware_flops", "flop", Better::neither, "all TensorE FLOPs: sum of 2 x active rows x active cols x elements"},
    {"transpose_flops", "flop", Better::lower, "TensorE FLOPs spent on transposes"},
    {"adjusted_hardware_flops", "flop", Better::neither,
     "hardware_flops in BF16-equivalent FLOPs: FP32 x4, FP8 x1 on trn1/inf2 and x0.5 on trn2/trn3"},
    {"adjusted_transpose_flops", "flop", Better::lower, "transpose_flops in BF16-equivalent FLOPs"},
    {"achieved_tflops", "TFLOP/s", Better::higher, "hardware_flops over total_time (nx)"},
    {"peak_flops", "flop/s", Better::neither,
     "dense BF16 peak FLOP/s of the profile's logical NeuronCore: every physical core's (2 under LNC=2) (nx)"},
    {"peak_hbm_bytes_per_s", "bytes/s", Better::neither,
     "HBM bandwidth MBU divides by: one HBM stack (the profile's hbm_ddr_bandwidth, else the target's) (nx)"},
    {"mm_arithmetic_intensity", "flop/B", Better::higher, "(hardware_flops - transpose_flops) / (hbm_read_bytes + hbm_write_bytes)"},
    {"peak_flops_bandwidth_ratio", "flop/B", Better::neither,
     "ridge point as the profiler computes it: one physical core's peak FLOP/s over peak_hbm_bytes_per_s"},
    {"active_flops", "flop", Better::neither,
     "what the tensor engine could do while busy: peak_flops x tensor_engine_active_time (Neuron Explorer's active FLOPs; nx)"},
    {"throttled_flops", "flop", Better::lower,
     "active FLOPs lost to throttling: tensor engine busy time under a throttle limit k/n x (1 - k/n) x peak_flops (nx)"},
    {"throttled_flops_percent", "%", Better::lower, "throttled_flops over the tensor engine's busy time at peak (nx)"},
    {"mfu_estimated_percent", "%", Better::higher,
     "model FLOPs over peak_flops x total_time; without model FLOPs, mfu_inst_estimated_percent (as the profiler)"},
    {"mfu_inst_estimated_percent", "%", Better::higher,
     "instruction-based MFU: BF16-equivalent (hardware - transpose) FLOPs over peak_flops x total_time"},
    {"hfu_estimated_percent", "%", Better::higher, "BF16-equivalent hardware FLOPs over peak_flops x total_time"},
    {"mfu_max_achievable_estimated_percent", "%", Better::higher, "min(100, 100 x mm_arithmetic_intensity / peak_flops_bandwidth_ratio)"},
    {"mbu_estimated_percent", "%", Better::higher, "achieved HBM bytes/s over peak_hbm_bytes_per_s"},
    {"min_core_coverage_percent", "%", Better::higher,
     "the lowest share of the execution a physical core's instructions span, first start to last end (LNC=2 "
     "profiles; a lost core tail, which the profiler does not warn about, makes it small) (nx)"},
    // DMA.
    {"dma_active_time", "s", Better::neither, "time at least one DMA transfer is in flight (union)"},
    {"dma_active_time_percent", "%", Better::neither, "dma_active_time over total_time"},
    {"dma_transfer_count", "count", Better::neither, "DMA transfers"},
    {"dma_transfer_total_bytes", "bytes", Better::neither, "bytes moved by DMA"},
    {"dma_transfer_average_bytes", "bytes", Better::higher, "bytes per DMA transfer"},
    {"dma_wait_time", "s", Better::lower, "time DMA is active while no compute engine is (nx: data movement not hidden)"},
    {"dma_wait_percent", "%", Better::lower, "dma_wait_time over total_time (nx)"},
    {"hardware_dge_transfer_count", "count", Better::neither, "DMA transfers on hardware-DGE queues (queue type hardware_dynamic)"},
    {"small_dma_transfer_count", "count", Better::lower, "hardware-DGE transfers under 4 KiB (Neuron Explorer's small-DMA warning)"},
    {"small_dma_transfer_percent", "%", Better::lower, "small_dma_transfer_count over hardware_dge_transfer_count"},
    // Throttling (the profiler's throttle intervals: neuron-profile's ham rows, Explorer's Throttle table).
    {"throttle_active_time", "s", Better::lower, "time the core ran under a throttle limit (union of throttle intervals with k < n)"},
    {"throttle_active_time_percent", "%", Better::lower, "throttle_active_time over total_time"},
    {"throttle_avg_util_limit_percent", "%", Better::higher, "time-weighted mean of the limit k/n while throttled"},
    // NKI attribution (instructions naming an NKI source location or kernel instruction).
    {"tensor_engine_nki_instruction_percent", "%", Better::higher, "TensorE instructions from NKI source over all its instructions"},
    {"vector_engine_nki_instruction_percent", "%", Better::higher, "VectorE instructions from NKI source over all its instructions"},
    {"scalar_engine_nki_instruction_percent", "%", Better::higher, "ScalarE instructions from NKI source over all its instructions"},
    {"gpsimd_engine_nki_instruction_percent", "%", Better::higher, "GpSimdE instructions from NKI source over all its instructions"},
    {"sync_engine_nki_instruction_percent", "%", Better::higher, "SyncE instructions from NKI source over all its instructions"},
    // Collectives (Explorer's CcOp table).
    {"collective_op_count", "count", Better::neither, "collective operations"},
    {"collective_outlier_ratio", "ratio", Better::lower,
     "longest collective over the median of its group (same operation and size, groups of 3 or more)"},
    // Memory.
    {"hbm_read_bytes", "bytes", Better::neither, "bytes read from HBM"},
    {"hbm_write_bytes", "bytes", Better::neither, "bytes written to HBM"},
    {"hbm_reload_bytes", "bytes", Better::lower, "HBM bytes read again for a tensor already loaded"},
    {"sbuf_read_bytes", "bytes", Better::neither, "bytes read from SBUF"},
    {"sbuf_write_bytes", "bytes", Better::neither, "bytes written to SBUF"},
    {"spill_save_bytes", "bytes", Better::lower, "bytes spilled from SBUF to HBM"},
    {"spill_reload_bytes", "bytes", Better::lower, "spilled bytes read back from HBM"},
    {"weight_queue_bytes", "bytes", Better::lower, "bytes moved by weight-load DMA queues"},
    {"weight_size_bytes", "bytes", Better::neither, "size of the weights"},
    {"inputs_outputs_weights_size_bytes", "bytes", Better::neither, "size of inputs, outputs and weights"},
    {"sbuf_reload_ratio", "ratio", Better::lower, "SBUF reloads over loads"},
    {"sbuf_save_ratio", "ratio", Better::lower, "SBUF saves over stores"},
    {"sbuf_fullness_percent", "%", Better::neither, "peak SBUF occupancy"},
    {"useful_read_percent", "%", Better::higher, "(hbm_read_bytes - hbm_reload_bytes) / hbm_read_bytes"},
    {"max_tensor_repeat_factor", "ratio", Better::lower,
     "largest SBUF load repeat factor of a tensor (TensorInfo / neff_node load_to_sbuf_repeat_factor)"},
    {"repeated_tensor_count", "count", Better::lower, "tensors with a repeat factor above 1"},
    {"max_tensor_load_count", "count", Better::lower, "most times one tensor was loaded from HBM (nx)"},
    // Instruction mix (the pattern study's heuristic).
    {"memory_instruction_percent", "%", Better::neither, "load/store/dma/copy instructions and DMA transfers over all (nx)"},
    {"compute_instruction_percent", "%", Better::neither, "matmul/add/mul/conv/activation instructions over all (nx)"},
    {"unnamed_instruction_percent", "%", Better::lower,
     "NeuronCore instructions the source names no opcode for ('unknown', or none) over all NeuronCore instructions (nx)"},
};

}  // namespace

const std::vector<MetricDef>& metric_defs() { return kDefs; }

const MetricDef* find_metric_def(std::string_view name) { return find_named(kDefs, name); }

std::string_view metric_unit(std::string_view name) {
    if (const MetricDef* d = find_metric_def(name)) return d->unit;
    // The Neuron profile schema states units in its names (nx(7), RECORDS).
    struct Suffix { std::string_view suffix, unit; };
    static constexpr Suffix kSuffixes[] = {{"_percent", "%"}, {"_bytes", "bytes"}, {"_time", "s"},
                                           {"_ns", "ns"},     {"_count", "count"}, {"_flops", "flop"}};
    for (const Suffix& s : kSuffixes)
        if (name.size() > s.suffix.size() && name.substr(name.size() - s.suffix.size()) == s.suffix) return s.unit;
    return {};
}

}  // namespace nx
