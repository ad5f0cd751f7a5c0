// A run as the study reports show it (run_view.h).
#include "common/report/run_view.h"

#include <cmath>

#include "common/report/prediction_band.h"
#include "common/format/units.h"

namespace nx {

std::string format_run_ns(const RunView& r, double ns) {
    if (!std::isfinite(ns)) return format_ns(ns);
    return with_band(format_ns(ns), r.error_band_percent);
}

}  // namespace nx
