// The peak figures nx divides by for one profile: FLOP/s of its logical
// NeuronCore and the HBM bandwidth of MBU, as the profiler itself computes
// them.  Under LNC=2 (trn2 and trn3 by default) a logical core is two physical
// cores, and the profiler's HFU and MFU divide by both cores' peak (real trn2
// JSON: HFU 0.0334 = 285,212,672 FLOP / (54.28 us x 2 x 78.6 TFLOP/s)); MBU
// divides by one HBM stack (hbm_ddr_bandwidth) whatever the LNC.
//
// Where the figures come from, first that says: the profile's own facts
// (CoreFacts: neuron-profile's metadata, Explorer's Metadata and NeffHeader),
// then what the profiler's own HFU and MBU imply (a summary-json has no
// metadata, but its HFU is FLOPs over its peak), then the target's defaults
// (targets.cpp).  FLOPs are BF16-equivalent (adjusted): FP32 counts 4x, FP8
// half on trn2/trn3, so one peak, the BF16 one, serves every dtype.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "common/profile/profile.h"
#include "common/target/targets.h"

namespace nx {

struct CorePeaks {
    double flops_per_s = 0;           // the logical core's dense BF16 peak: every physical core
    double flops_per_s_physical = 0;  // one physical core's
    double hbm_bytes_per_s = 0;       // one HBM stack: MBU's denominator
    int physical_cores = 1;
    // The profiler's ridge point (peak_flops_bandwidth_ratio): one physical
    // core's peak over one stack's bandwidth (real outputs: 223.78 on inf2 =
    // 91.75 TFLOP/s / 410 GB/s; 109.84 on trn2 = 78.6 TFLOP/s / 716 GB/s).
    double ridge_point() const { return hbm_bytes_per_s > 0 ? flops_per_s_physical / hbm_bytes_per_s : 0; }
    // "2 physical cores (profile metadata) x 78.6 TFLOP/s; HBM 716 GB/s (profile metadata)".
    std::string basis;
};

// nullopt when neither the target nor the profile says enough.
std::optional<CorePeaks> core_peaks(const Target* target, const CoreFacts& facts);

// What the profiler's own figures imply about the core, for sources without
// metadata (summary-json): physical cores from its HFU (its FLOPs over its
// peak, as an integer count of the target's physical peak, within 2%), HBM
// bandwidth from its MBU.  Fills only what `facts` does not say.
void infer_core_facts(const std::map<std::string, double, std::less<>>& source, const Target* target, CoreFacts& facts);

// The BF16-equivalent FLOPs of `raw` FLOPs in `dtype` on `target`
// (neuron-explorer-parquet.md section 12: FP32 x4, FP8 x1 on NC-v2 and x0.5
// on NC-v3/v4, BF16/FP16 x1).
double bf16_equivalent_flops(double raw, const Target& target, DType dtype);

}  // namespace nx
