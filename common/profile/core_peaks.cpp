#include "common/profile/core_peaks.h"

#include <cmath>
#include <cstdio>

namespace nx {

namespace {

std::string tflops(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g TFLOP/s", v / 1e12);
    return buf;
}

std::string gbps(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g GB/s", v / 1e9);
    return buf;
}

double source_value(const std::map<std::string, double, std::less<>>& source, std::string_view name) {
    auto it = source.find(name);
    return it == source.end() ? NAN : it->second;
}

// How close a count must be to an integer to be read as one (the profiler's
// peaks are computed, so its HFU implies them to a few parts per million;
// 2% leaves room for a target's rounded 79 TFLOP/s against 78.6).
constexpr double kCountTolerance = 0.02;

}  // namespace

std::optional<CorePeaks> core_peaks(const Target* target, const CoreFacts& facts) {
    CorePeaks p;
    std::string cores_from, peak_from, hbm_from;
    if (facts.pe_clock_ghz > 0) {
        int rows = facts.pe_rows > 0 ? facts.pe_rows : target ? target->pe_rows : 128;
        int cols = facts.pe_cols > 0 ? facts.pe_cols : target ? target->pe_cols : 128;
        p.flops_per_s_physical = 2.0 * rows * cols * facts.pe_clock_ghz * 1e9;
        peak_from = facts.peak_from;
    } else if (target) {
        p.flops_per_s_physical = target->peak_flops_bf16;
        peak_from = std::string("the ") + target->name + " default";
    }
    if (facts.physical_cores > 0) {
        p.physical_cores = facts.physical_cores;
        cores_from = facts.cores_from;
    } else if (target) {
        p.physical_cores = target->lnc;
        cores_from = std::string("the ") + target->name + " default LNC";
    }
    if (facts.hbm_bytes_per_s > 0) {
        p.hbm_bytes_per_s = facts.hbm_bytes_per_s;
        hbm_from = facts.hbm_from;
    } else if (target) {
        p.hbm_bytes_per_s = target->hbm_bytes_per_s_core();
        hbm_from = std::string("the ") + target->name + " default";
    }
    if (p.flops_per_s_physical <= 0 && p.hbm_bytes_per_s <= 0) return std::nullopt;
    p.flops_per_s = p.flops_per_s_physical * p.physical_cores;
    if (p.flops_per_s > 0)
        p.basis = std::to_string(p.physical_cores) + " physical core" + (p.physical_cores == 1 ? "" : "s") + " (" +
                  cores_from + ") x " + tflops(p.flops_per_s_physical) + " (" + peak_from + ")";
    if (p.hbm_bytes_per_s > 0)
        p.basis += std::string(p.basis.empty() ? "" : "; ") + "HBM " + gbps(p.hbm_bytes_per_s) + " (" + hbm_from + ")";
    return p;
}

void infer_core_facts(const std::map<std::string, double, std::less<>>& source, const Target* target, CoreFacts& facts) {
    double total = source_value(source, "total_time");
    if (!(total > 0)) return;
    if (facts.physical_cores <= 0 && target) {
        // The profiler's HFU is its (BF16-equivalent when it gives them) FLOPs
        // over its logical core's peak: how many physical cores that peak is.
        double hfu = source_value(source, "hfu_estimated_percent");
        double flops = source_value(source, "adjusted_hardware_flops");
        if (!(flops > 0)) flops = source_value(source, "hardware_flops");
        double physical = facts.pe_clock_ghz > 0 ? 2.0 * target->pe_rows * target->pe_cols * facts.pe_clock_ghz * 1e9
                                                 : target->peak_flops_bf16;
        if (hfu > 0 && flops > 0) {
            double cores = flops / (hfu / 100 * total) / physical;
            double whole = std::round(cores);
            if (whole >= 1 && whole <= 8 && std::fabs(cores - whole) <= kCountTolerance * whole) {
                facts.physical_cores = static_cast<int>(whole);
                facts.cores_from = "the profiler's own HFU";
            }
        }
    }
    if (facts.hbm_bytes_per_s <= 0) {
        double mbu = source_value(source, "mbu_estimated_percent");
        double bytes = source_value(source, "hbm_read_bytes") + source_value(source, "hbm_write_bytes");
        if (mbu > 0 && bytes > 0) {
            facts.hbm_bytes_per_s = bytes / (mbu / 100 * total);
            facts.hbm_from = "the profiler's own MBU";
        }
    }
}

double bf16_equivalent_flops(double raw, const Target& target, DType dtype) { return raw * target.flop_weight(dtype); }

}  // namespace nx
