#include "common/records/latency_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace nx {

namespace {
double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    double pos = p / 100.0 * static_cast<double>(sorted.size() - 1);
    size_t lo = static_cast<size_t>(std::floor(pos));
    size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}
}  // namespace

LatencyStats latency_stats(std::vector<double> v, int warmup) {
    LatencyStats s;
    s.warmup = warmup;
    s.n = static_cast<int>(v.size());
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    s.median = percentile(v, 50);
    s.p95 = percentile(v, 95);
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    if (v.size() > 1 && s.min != s.max) {  // identical samples: exactly 0, not rounding noise
        double ss = 0;
        for (double x : v) ss += (x - s.mean) * (x - s.mean);
        s.stdev = std::sqrt(ss / static_cast<double>(v.size() - 1));
    }
    return s;
}

}  // namespace nx
