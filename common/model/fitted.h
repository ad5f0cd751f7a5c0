// The model's fitted parameters and the calibration residuals they left, as
// `make calibrate` wrote them to fitted_params.inc (compiled in, so the model
// needs no data file at run time), and the error band a prediction carries:
// the spread of the residuals of comparable calibration points - the same op
// family, target, dtype and logical core - or, when there are none, no band
// and a basis that says so.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "common/model/cost_model.h"

namespace nx::model {

// One free parameter: its name in the data file, the field, bounds the fit
// keeps it in, its unit and what it is.
struct ParamInfo {
    const char* name;
    double ModelParams::*field;
    double lower, upper;
    const char* unit;
    const char* what;
};
std::span<const ParamInfo> model_param_info();

// The parameters as last fitted.
const ModelParams& fitted_params();

// One calibration point's residual after the fit.
struct FittedResidual {
    const char* point;
    const char* family;  // matmul, elementwise, pattern
    const char* target;
    const char* dtype;
    int lnc;             // physical cores of its logical core
    int lanes;           // of which its kernel's work used
    const char* set;     // fit, held_out, reference
    double error_percent;
};
std::span<const FittedResidual> fitted_residuals();

// The op family of a workload op ("mlp" is made of matmuls).
std::string_view op_family(std::string_view op);

// What a prediction is compared on: its op family, target, dtype, and the
// logical core (physical cores, and how many the kernel's work spread over:
// a kernel sharded over two cores is judged by sharded points only).
struct BandKey {
    std::string_view family, target, dtype;
    int lnc = 1, lanes = 1;
};
// "matmul in bf16 on trn2 at LNC=2, sharded over 2 physical cores".
std::string band_key_text(const BandKey& key);

// The relative error band (percent, root mean square of the residuals of
// the comparable fit and held-out points; NaN when there are none) and what
// it was taken from, or why there is none.
struct ErrorBand {
    double percent = 0;
    int points = 0;
    std::string basis;  // "elementwise in fp32 on trn2 at LNC=2, on one physical core (4 points)", ...
    bool known() const { return points > 0; }
};
ErrorBand error_band(const BandKey& key);

}  // namespace nx::model
