// The model's error band on a predicted time, as every report prints it:
// "~93.2 us (+-35%)".  A sim run record carries the band (its "predicted"
// object: error_band_percent, error_band_basis, from the calibration residuals
// of comparable points, nx-sim(7) CALIBRATION); a profile made from that run
// carries the same object, so its total time is shown the same way.
#pragma once

#include <cmath>
#include <string>

#include "common/profile/profile.h"

namespace nx {

struct PredictionBand {
    double percent = NAN;  // NaN: no band (not a prediction, or a record without one)
    std::string basis;     // "elementwise on trn1 (5 points)"; may be empty
    bool known() const { return std::isfinite(percent); }
};

// The band a sim profile carries from its run record; none for any other backend.
PredictionBand prediction_band(const ProfileInfo& info);

// "+-35%".
std::string band_text(double band_percent);
// "~" + figure + " (+-P%)" when the band is known, the figure as given otherwise.
std::string with_band(const std::string& figure, double band_percent);

}  // namespace nx
