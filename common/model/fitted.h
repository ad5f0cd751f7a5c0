// The model's fitted parameters and the calibration residuals they left, as
// `make calibrate` wrote them to fitted_params.inc (compiled in, so the model
// needs no data file at run time), and the error band a prediction carries:
// the spread of the residuals of comparable calibration points (same op
// family and target; same family on any target when none; every point when
// the family has none).
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
    const char* set;     // fit, held_out, reference
    double error_percent;
};
std::span<const FittedResidual> fitted_residuals();

// The op family of a workload op ("mlp" is made of matmuls).
std::string_view op_family(std::string_view op);

// The relative error band (percent, root mean square of the residuals of
// comparable fit and held-out points) and what it was taken from.
struct ErrorBand {
    double percent = 0;
    int points = 0;
    std::string basis;  // "elementwise on trn2 (2 points)", ...
};
ErrorBand error_band(std::string_view family, std::string_view target);

}  // namespace nx::model
