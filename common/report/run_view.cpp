// A run as the study reports show it (run_view.h).
#include "common/report/run_view.h"

#include <cmath>
#include <cstdio>

#include "common/report/units.h"

namespace nx {

std::string format_run_ns(const RunView& r, double ns) {
    if (!std::isfinite(ns) || !std::isfinite(r.error_band_percent)) return format_ns(ns);
    char band[32];
    std::snprintf(band, sizeof band, " (+-%.0f%%)", r.error_band_percent);
    return "~" + format_ns(ns) + band;
}

std::string backend_phrase(const std::string& backend) {
    if (backend == "sim") return "sim (predicted by the nx NeuronCore model, not measured)";
    if (backend == "cpu") return "cpu (measured on the host CPU, not a Neuron device)";
    if (backend == "neuron") return "neuron (measured on a Neuron device)";
    return backend.empty() ? "unknown backend" : backend;
}

}  // namespace nx
