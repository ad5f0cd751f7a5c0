#include "common/model/cost_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/model/event_stream.h"
#include "common/model/fitted.h"

namespace nx::model {

CostModel::CostModel(const Target& target) : CostModel(target, fitted_params()) {}

CostModel::CostModel(const Target& target, const ModelParams& params)
    : CostModel(target, params, Placement{target.lnc, 1}) {}

CostModel::CostModel(const Target& target, const ModelParams& params, Placement placement)
    : target_(target),
      params_(params),
      placement_(placement),
      // The logical core's HBM share, split evenly between the lanes that
      // work (a sharded kernel's two halves are alike).
      hbm_contiguous_(target.hbm_bytes_per_s_core(placement.lnc) * params.hbm_contiguous / 1e9 / placement.lanes),
      hbm_strided_(target.hbm_bytes_per_s_core(placement.lnc) * params.hbm_strided / 1e9 / placement.lanes),
      dma_engines_(std::clamp(target.dma_engines_per_core, 1, kMaxDmaEngines)) {
    if (placement.lnc < 1 || placement.lnc > kMaxLnc || placement.lanes < 1 || placement.lanes > placement.lnc)
        throw std::logic_error("model: a placement of " + std::to_string(placement.lanes) + " lanes on LNC=" +
                               std::to_string(placement.lnc));
}

Time CostModel::kernel_fixed_ns() const {
    // NC-v3 has its own fitted value; NC-v4 has no measured point and is
    // assumed to behave as NC-v3.
    return std::string_view(target_.core) == "NC-v2" ? params_.fixed_ns_v2 : params_.fixed_ns_v3;
}

Time CostModel::dma_issue_ns() const { return hardware_dge() ? kDgeIssueNs : params_.dma_issue_ns; }

bool CostModel::hardware_dge() const { return std::string_view(target_.core) != "NC-v2"; }

int CostModel::k_pack(DType d) const {
    if (d != DType::fp8 && !is_mx(d)) return 1;
    double ratio = 1 / target_.flop_weight(d);
    return std::max(1, static_cast<int>(std::lround(ratio)));
}

Time CostModel::multiply_moving_ns(int64_t moving_cols, DType d) const {
    double cycles = static_cast<double>(std::max(moving_cols, kMatmulMinCycles));
    if (d == DType::fp32) cycles *= kFp32PassFactor;
    return cycles / target_.tensor_clock_ghz;
}

Time CostModel::load_stationary_ns(int64_t stationary_cols, DType d) const {
    int64_t cols = (stationary_cols + kLoadStationarySpeedup - 1) / kLoadStationarySpeedup;
    double cycles = static_cast<double>(std::max(cols, kLoadStationaryMinCycles));
    if (d == DType::fp32) cycles *= kFp32PassFactor;
    return cycles / target_.tensor_clock_ghz;
}

Time CostModel::vector_ns(int64_t free_elems, int inputs) const {
    double passes = std::max(inputs, 1);
    return (passes * static_cast<double>(free_elems) + kVectorStaticCycles) / target_.vector_clock_ghz;
}

Time CostModel::scalar_ns(int64_t free_elems) const {
    double ns = static_cast<double>(free_elems + kAccessStaticCycles) / target_.scalar_clock_ghz;
    return std::max(ns, kScalarMinIssueNs);
}

Time CostModel::gpsimd_ns(int64_t free_elems, int inputs) const {
    double passes = std::max(inputs, 1);
    return (passes * static_cast<double>(free_elems) + kGpSimdStaticCycles) / target_.gpsimd_clock_ghz;
}

Time CostModel::sync_ns() const { return static_cast<double>(kSyncInstructionCycles) / target_.profiler_clock_ghz; }

Time CostModel::dma_engine_ns(int64_t rows, int64_t row_bytes) const {
    double bytes = static_cast<double>(rows) * (static_cast<double>(row_bytes) + kDmaDescriptorOverheadBytes);
    return bytes / target_.dma_bytes_per_ns_engine;
}

}  // namespace nx::model
