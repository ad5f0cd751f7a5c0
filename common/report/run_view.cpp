// A run as the study reports show it (run_view.h).
#include "common/report/run_view.h"

#include <cmath>

#include "common/report/prediction_band.h"
#include "common/format/units.h"

namespace nx {

std::string format_run_ns(const RunView& r, double ns) {
    if (!std::isfinite(ns)) return format_ns(ns);
    PredictionBand band;
    band.percent = r.error_band_percent;
    band.predicted = r.predicted && predicts(r.backend);
    return with_band(format_ns(ns), band);
}

std::string target_text(const RunView& r) {
    return r.lnc > 0 ? r.target + " (LNC=" + std::to_string(r.lnc) + ")" : r.target;
}

}  // namespace nx
