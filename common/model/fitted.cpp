#include "common/model/fitted.h"

#include <cmath>
#include <vector>

namespace nx::model {

namespace {

// Bounds keep a fit physical: a fraction of the HBM peak is in (0, 1]; a
// fixed cost or an issue cost is positive and below what any measured kernel
// shows in total.
constexpr ParamInfo kParams[] = {
    {"fixed_ns_v2", &ModelParams::fixed_ns_v2, 1000, 100000, "ns", "kernel preamble + drain, NC-v2 (trn1, inf2)"},
    {"fixed_ns_v3", &ModelParams::fixed_ns_v3, 1000, 100000, "ns", "kernel preamble + drain, NC-v3 (trn2; trn3 assumed)"},
    {"dma_issue_ns", &ModelParams::dma_issue_ns, 1, 5000, "ns", "descriptor issue per transfer, NC-v2 (trn1, inf2)"},
    {"hbm_contiguous", &ModelParams::hbm_contiguous, 0.01, 1, "", "sustained HBM fraction, contiguous transfers"},
    {"hbm_strided", &ModelParams::hbm_strided, 0.01, 1, "", "sustained HBM fraction, strided tiles"},
};

ModelParams load_params() {
    ModelParams p;
#define NX_PARAM(name, value) p.name = value;
#define NX_RESIDUAL(point, family, target, dtype, lnc, lanes, set, error)
#include "common/model/fitted_params.inc"
#undef NX_PARAM
#undef NX_RESIDUAL
    return p;
}

constexpr FittedResidual kResiduals[] = {
#define NX_PARAM(name, value)
#define NX_RESIDUAL(point, family, target, dtype, lnc, lanes, set, error) {point, family, target, dtype, lnc, lanes, set, error},
#include "common/model/fitted_params.inc"
#undef NX_PARAM
#undef NX_RESIDUAL
    {nullptr, nullptr, nullptr, nullptr, 0, 0, nullptr, 0},  // keeps the array non-empty before the first fit
};

bool counts(const FittedResidual& r) {
    std::string_view set = r.set;
    return set == "fit" || set == "held_out";
}

std::string points_text(int n) { return std::to_string(n) + (n == 1 ? " point" : " points"); }

}  // namespace

std::span<const ParamInfo> model_param_info() { return kParams; }

const ModelParams& fitted_params() {
    static const ModelParams p = load_params();
    return p;
}

std::span<const FittedResidual> fitted_residuals() { return {kResiduals, std::size(kResiduals) - 1}; }

std::string_view op_family(std::string_view op) { return op == "mlp" ? "matmul" : op; }

std::string band_key_text(const BandKey& key) {
    std::string s = std::string(key.family) + " in " + std::string(key.dtype) + " on " + std::string(key.target) +
                    " at LNC=" + std::to_string(key.lnc);
    if (key.lnc > 1)
        s += key.lanes > 1 ? ", sharded over " + std::to_string(key.lanes) + " physical cores" : ", on one physical core";
    return s;
}

ErrorBand error_band(const BandKey& key) {
    ErrorBand b;
    double sum = 0;
    for (const FittedResidual& r : fitted_residuals()) {
        if (!counts(r) || key.family != r.family || key.target != r.target || key.dtype != r.dtype || key.lnc != r.lnc ||
            key.lanes != r.lanes)
            continue;
        sum += r.error_percent * r.error_percent;
        ++b.points;
    }
    if (b.points == 0) {
        // Another kernel's, target's, dtype's or core's band would claim a
        // track record the model does not have here.
        b.percent = NAN;
        b.basis = "no calibration point is a " + band_key_text(key) + ": no band";
        return b;
    }
    b.percent = std::sqrt(sum / b.points);
    b.basis = band_key_text(key) + " (" + points_text(b.points) + ")";
    return b;
}

}  // namespace nx::model
