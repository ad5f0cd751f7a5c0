// The executions of a session compared across ranks.  A training job runs
// the same sequence of NEFFs on every rank, so the k-th execution of a NEFF
// on each rank is one iteration of the job: in each, the rank slower than
// the others holds every other rank up at the next collective.  For each
// NEFF this finds, per iteration, the ranks' median and the slowest rank,
// the rank slowest most often (the per-iteration straggler) and the
// iterations whose slowest rank is furthest above the median.  Durations
// need no common clock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/report/rank_analysis.h"

namespace nx {

struct IterationAcrossRanks {
    size_t ordinal = 0;      // the k-th execution of the NEFF on each rank, from 0
    size_t ranks = 0;        // ranks that ran it
    double median_ns = 0;    // the ranks' median duration
    size_t slowest_row = 0;  // an index into RankAnalysis::rows
    double slowest_ns = 0;
    int64_t slowest_index = 0;  // the source's index of that execution on the slowest rank
    // The rank whose execution is the iteration's median (of an even count,
    // the shorter of the middle two), and what grew in the slowest rank's
    // execution against it (executions.h: what_changed; empty: nothing).
    size_t median_row = 0;
    std::string changed;
    double over_median() const { return median_ns > 0 ? slowest_ns / median_ns : 0; }
};

struct NeffAcrossRanks {
    std::string neff;        // as the executions name it (empty: unnamed)
    size_t ranks = 0;        // ranks with executions of it
    size_t iterations = 0;   // iterations run by at least two ranks
    // The rank slowest in the most iterations (ties: the lower row), and in
    // how many.
    size_t most_often_row = 0;
    size_t most_often_count = 0;
    // Per row of the analysis, the iterations it was slowest in.
    std::vector<size_t> slowest_count;
    // The iterations whose slowest rank is furthest above the median, most
    // first (at most kWorstIterations).
    std::vector<IterationAcrossRanks> worst;
};
inline constexpr size_t kWorstIterations = 3;

// A capture's executions of each NEFF on each row (an index into
// RankAnalysis::rows), in the order of the source's execution index: the
// k-th of a NEFF on each row is one iteration.  The ranks page draws the
// same grouping.
struct ExecutionRun {
    int64_t index = 0;  // the source's execution index
    double dur_ns = 0;
    const ExecutionStat* stat = nullptr;  // its figures, in the row's profile
};
using RunsByRow = std::map<size_t, std::vector<ExecutionRun>>;
std::map<std::string, RunsByRow> executions_by_neff(const RankAnalysis& a);

// One entry per NEFF executed by at least two ranks, by NEFF name.  Empty
// when no profile of the capture holds executions.
std::vector<NeffAcrossRanks> iterations_across_ranks(const RankAnalysis& a);

}  // namespace nx
