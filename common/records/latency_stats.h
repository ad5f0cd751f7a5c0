// Latency statistics over timed executions, as run records report them.
#pragma once

#include <vector>

namespace nx {

struct LatencyStats {
    double median = 0, mean = 0, min = 0, max = 0, p95 = 0, stdev = 0;
    int n = 0, warmup = 0;
};

// p95 interpolates linearly between order statistics (numpy's default);
// stdev is the sample standard deviation (0 for one sample).
LatencyStats latency_stats(std::vector<double> samples, int warmup);

}  // namespace nx
