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
    double percent = NAN;    // NaN: no band (not a prediction, or no comparable calibration point)
    std::string basis;       // "elementwise in fp32 on trn1 at LNC=1 (5 points)", or why there is none; may be empty
    bool predicted = false;  // a sim profile whose run record carried its "predicted" object
    bool known() const { return std::isfinite(percent); }
};

// The band a sim profile carries from its run record; none for any other backend.
PredictionBand prediction_band(const ProfileInfo& info);

// "+-35%".
std::string band_text(double band_percent);
// A figure as reports print it: "~" + figure + " (+-P%)" for a prediction
// with a band, "~" + figure + " (no band)" for one no calibration point is
// comparable with, the figure as given for a measurement.
std::string with_band(const std::string& figure, const PredictionBand& band);

}  // namespace nx
