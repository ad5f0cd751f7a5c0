// Neuron hardware targets as data: one row per target, every number with the
// document it comes from (see targets.cpp).  Used for MFU/MBU/roofline
// metrics, the findings' ridge point, and by the performance model.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nx {

// Element types of a workload.  mxfp8 and mxfp4 are the OCP microscaling
// formats NeuronCore-v4's TensorE multiplies at 4x the BF16 rate: 8- or
// 4-bit elements in groups of 32 along the contraction, each group sharing
// one 8-bit scale (its block scale).
enum class DType { bf16, fp16, fp32, fp8, mxfp8, mxfp4 };
std::optional<DType> parse_dtype(std::string_view s);
std::string_view to_string(DType d);
// "bf16, fp16, fp32, fp8, mxfp8, mxfp4" for messages.
std::string_view dtype_names();
// Bits of one element (an MX element without its share of the block scale).
int dtype_bits(DType d);
// Bytes of one element, for the byte-sized types (mxfp4 packs two elements
// in a byte: use dtype_bits).
int dtype_bytes(DType d);
// The microscaling formats: a TensorE input only (VectorE quantises into them).
bool is_mx(DType d);
// Elements sharing one 8-bit block scale, and the scale's bits.
inline constexpr int kMxBlockElements = 32;
inline constexpr int kMxScaleBits = 8;

struct Target {
    const char* name;             // "trn1"
    const char* core;             // "NC-v2"
    int cores_per_chip;
    // TensorE: a 128 x 128 systolic array; one moving column per cycle.
    int pe_rows, pe_cols;
    double tensor_clock_ghz;
    double vector_clock_ghz, scalar_clock_ghz, gpsimd_clock_ghz;
    double profiler_clock_ghz;    // base clock of neuroncore_cycle_count
    // On-chip memories, per core.
    int sbuf_partitions;
    double sbuf_bytes;            // total SBUF per core
    double psum_bytes;            // total PSUM per core
    int psum_banks;               // banks per partition (each 512 fp32 = 2 KiB)
    // HBM.
    double hbm_bytes_per_chip;
    double hbm_bytes_per_s_chip;  // peak HBM bandwidth per chip
    // DMA.
    int dma_engines_per_core;
    double dma_bytes_per_ns_engine;
    double dma_fixed_overhead_ns; // fixed cost of one transfer
    // Dense BF16 peak FLOP/s of one physical core.  Other dtypes count in
    // BF16-equivalent FLOPs (Neuron Explorer's adjusted FLOPs): one FLOP of
    // FP32 weighs 4, of FP8 1 on NC-v2 (no FP8 speed-up) and 0.5 on NC-v3/v4,
    // of MXFP8/MXFP4 0.25 where TensorE takes them (NC-v4; 0: not a dtype
    // of this target).
    double peak_flops_bf16;
    double fp32_flop_weight, fp8_flop_weight, mx_flop_weight;
    // VectorE and GpSimdE share one SBUF port and cannot access SBUF at the
    // same time (true on NC-v2; the performance model serialises them).
    bool vector_gpsimd_share_sbuf;
    // Logical NeuronCore: physical cores the runtime presents as one core by
    // default (NEURON_LOGICAL_NC_CONFIG), and the most it can group.  A
    // profile and a kernel launch are per logical core, and so is its HBM
    // share; the profiler's peak FLOP/s is every physical core's
    // (core_peaks.h).  Each physical core keeps its own engines, SBUF and 16
    // DMA engines.
    int lnc;
    int max_lnc;

    // HBM bandwidth of one logical core of `lnc_cores` physical cores (its
    // share of the chip); without an argument, of the default LNC.
    double hbm_bytes_per_s_core(int lnc_cores) const { return hbm_bytes_per_s_chip / cores_per_chip * lnc_cores; }
    double hbm_bytes_per_s_core() const { return hbm_bytes_per_s_core(lnc); }
    double sbuf_bytes_per_partition() const { return sbuf_bytes / sbuf_partitions; }
    // One physical core's dense peak in `d` FLOP/s: the BF16 peak over the
    // dtype's weight.
    double peak_flops(DType d) const;
    // BF16-equivalent FLOPs per FLOP of `d` (1 for a dtype the target lacks).
    double flop_weight(DType d) const;
    // Whether the target's engines take `d` at all (the MX formats: NC-v4
    // only), and if not, why: "dtype mxfp8: trn2 (NC-v3) has no MX matmul ...".
    bool supports(DType d) const { return !is_mx(d) || mx_flop_weight > 0; }
    std::string why_unsupported(DType d) const;
    // Ridge point (FLOP per HBM byte) for a dtype: peak FLOP/s over HBM B/s.
    double ridge_point(DType d) const { return peak_flops(d) / hbm_bytes_per_s_core(); }
};

// The device target nx runs and simulates on when none is named (nx-run,
// the sim and neuron backends, the model, make study).
inline constexpr const char* kDefaultDeviceTarget = "trn2";

// Every target, in the table's order.
const std::vector<Target>& all_targets();
// nullptr when the name is unknown.
const Target* find_target(std::string_view name);
// "trn1, inf2, trn2, trn3" for messages.
std::string target_names();
// The target of an EC2 instance type the profilers record ("inf2.xlarge" ->
// inf2, "trn1n.32xlarge" -> trn1, "trn2u.48xlarge" -> trn2,
// "trn3pds98.48xlarge" -> trn3): the documented types (targets.cpp, each
// with its source), then any type whose family starts with a target's
// name; empty for instances nx has no target for (inf1: no NeuronCore-v2).
std::string target_of_instance(std::string_view instance_type);

// An EC2 instance type with Neuron devices, as AWS documents it.
struct InstanceType {
    const char* name;      // "trn2.48xlarge"
    const char* target;    // "trn2"
    const char* source;    // the document that lists it
};
const std::vector<InstanceType>& instance_types();

}  // namespace nx
