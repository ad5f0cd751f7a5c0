#include "common/profile/bounds.h"

#include <cmath>
#include <cstdio>

#include "common/target/targets.h"

namespace nx {

namespace {

std::string figure(double v, const char* unit) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g %s", v, unit);
    return buf;
}

}  // namespace

double Bounds::over_highest() const {
    const Bound* b = top();
    return b && *b->ns > 0 ? measured_ns / *b->ns : 0;
}

Bounds compute_bounds(const ProfileSummary& s, std::string_view target_name, const CriticalPath* path,
                      std::string_view no_path) {
    Bounds out;
    // Whole nanoseconds: the profiler gives seconds (0.008176 s * 1e9 is 8175999.999999999).
    const MetricValue* t = s.find("total_time");
    out.measured_ns = t ? std::round(t->value * 1e9) : 0;
    if (!(out.measured_ns > 0)) out.measured_ns = static_cast<double>(s.end_ns - s.start_ns);

    Bound memory{"memory", std::nullopt, {}};
    const MetricValue* rd = s.find("hbm_read_bytes");
    const MetricValue* wr = s.find("hbm_write_bytes");
    const Target* target = find_target(target_name);
    // The profile's own HBM figure (core_peaks.h), the target's otherwise.
    const MetricValue* hbm = s.find("peak_hbm_bytes_per_s");
    if (!rd || !wr) {
        memory.basis = "not in this profile: HBM bytes";
    } else if (!hbm && !target) {
        memory.basis = "not in this profile: the target's peak HBM bandwidth (--target)";
    } else {
        double bytes = rd->value + wr->value, bw = hbm ? hbm->value : target->hbm_bytes_per_s_core();
        memory.ns = bytes / bw * 1e9;
        memory.basis = figure(bytes, "B") + " of HBM traffic at " + figure(bw, "B/s");
    }

    Bound compute{"compute", std::nullopt, {}};
    // BF16-equivalent FLOPs against the BF16 peak of every physical core.
    const MetricValue* flops = s.find("adjusted_hardware_flops");
    if (!flops) flops = s.find("hardware_flops");
    const MetricValue* peak = s.find("peak_flops");
    if (!flops) {
        compute.basis = "not in this profile: the tensor engine's FLOPs";
    } else if (!peak || peak->value <= 0) {
        compute.basis = "not in this profile: the target's peak FLOP/s (--target)";
    } else {
        compute.ns = flops->value / peak->value * 1e9;
        compute.basis = figure(flops->value, "FLOP") + " at " + figure(peak->value, "FLOP/s");
    }

    Bound dependency{"dependency", std::nullopt, {}};
    if (path && !path->steps.empty()) {
        dependency.ns = static_cast<double>(path->length_ns);
        dependency.basis = std::to_string(path->steps.size()) + " dependent steps, " +
                           figure(static_cast<double>(path->work_ns), "ns") + " of work and " +
                           figure(static_cast<double>(path->length_ns - path->work_ns), "ns") + " of gaps";
        out.critical_where = path->where;
        out.critical_steps = path->steps.size();
    } else {
        dependency.basis = std::string(no_path);
    }

    out.bounds = {std::move(memory), std::move(compute), std::move(dependency)};
    for (size_t k = 0; k < out.bounds.size(); ++k)
        if (out.bounds[k].ns && (out.highest < 0 || *out.bounds[k].ns > *out.bounds[static_cast<size_t>(out.highest)].ns))
            out.highest = static_cast<int>(k);
    return out;
}

}  // namespace nx
