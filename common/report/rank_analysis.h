// The cross-rank answers of nx-report --ranks, computed from each rank's
// profile summary alone (its time breakdown and collective operations,
// time_breakdown.h), never from the events: a thousand ranks' summaries fit
// in one process where their events would not.  The same summaries come
// from profile records, a study database or a dataset's profiles table, so
// the three give the same answers.
//
// - Per rank: total time, skew against the fastest, the time breakdown
//   (compute, collectives, exposed DMA, idle), compute/communication overlap
//   (time computing while communicating / time communicating, as HTA
//   defines it), collective wait.
// - Collective wait: the ranks' collective operations are matched by their
//   order (the k-th collective of every rank is the same operation when
//   their names agree, as they do in SPMD programs); an operation's wait on
//   a rank is its duration there minus its shortest duration on any rank
//   (the transfer itself; the rest is waiting for the last rank to arrive).
//   Durations need no common clock, so unaligned device clocks do not matter.
// - Straggler, HTA's definition: among the significant matched collectives
//   (at least 1% of the ranks' median collective time), the rank that starts
//   each latest (start time normalised to its own profile's start); the
//   straggler is the rank latest most often, ties going to the one latest on
//   the most variable collective.  A device profile is one execution: each
//   collective counts.  Where every rank marks its iterations (the PyTorch
//   profiler's ProfilerStep#N), it is counted as HTA does, over iterations:
//   in each, the significant collective whose start varies most across the
//   ranks (from each rank's start of that iteration) and the rank that
//   starts it last.  Without matched collectives the straggler is the
//   slowest rank.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/report/report_input.h"

namespace nx {

struct RankRow {
    const ProfileEntry* profile = nullptr;
    int rank = -1;
    double total_ns = 0;
    const TimeBreakdown* breakdown = nullptr;  // null: the profile has none
    int64_t collective_ops = 0;
    int64_t collective_ns = 0;
    double overlap_percent = -1;   // compute while communicating / communicating; -1: no collectives
    int64_t wait_ns = -1;          // -1: collectives not matched
    int latest_count = 0;          // significant collectives (or iterations: RankAnalysis::iterations) it started last
};

struct RankAnalysis {
    std::string capture;
    std::string graph;
    std::string steps;  // RankCapture::steps
    std::vector<RankRow> rows;  // by rank
    size_t fastest = 0, slowest = 0;
    double median_ns = 0;
    // Collectives matched across every rank (0: none could be).
    size_t matched = 0;
    size_t significant = 0;
    // Iterations the straggler was counted over (0: each collective counted).
    size_t iterations = 0;
    std::string unmatched_reason;
    // The straggler (an index into rows, or -1 when there is none), how it
    // was found, and the collective that shows it most.
    int straggler = -1;
    std::string straggler_basis;     // "collectives" or "total time"
    std::string straggler_note;      // why by total time
    std::string most_variable;       // "AllReduce #3"
    double start_spread_ns = 0;      // its latest minus earliest normalised start
    // The engine (or phase) that explains it: the figure that differs most
    // from the fastest rank's ("tensor busy time", "idle time") and by how
    // much (ns; negative: less than the fastest).  Empty when none differs.
    std::string straggler_change;
    int64_t straggler_change_ns = 0;
    // The job's world size when every rank's profile says it (PyTorch's
    // distributedInfo), and the ranks below it that no profile is of.
    int64_t world_size = -1;
    std::vector<int> missing_ranks;
};

// One graph's profiles on the ranks of one capture.  The runtime captures
// each NEFF a core runs (NEURON_RT_INSPECT_DEVICE_PROFILE: the first
// execution of every NEFF on every core), so a training step of several
// graphs leaves several profiles per rank in one folder; only the same
// graph's profiles compare across ranks.
struct RankCapture {
    std::string name;   // the capture: the ranks' common source directory
    std::string graph;  // its NEFF hash (runtime_path_of_source); empty when the paths give none
    // The iterations its profiles mark ("10-12": a PyTorch profiler window
    // of steps 10 to 12; empty when none): a profiler schedule that repeats
    // leaves one trace per window on each rank, compared window by window.
    std::string steps;
    int64_t first_step = -1;
    std::vector<const ProfileEntry*> ranks;  // by rank, one profile each
};
struct RankGrouping {
    std::vector<RankCapture> captures;
    std::vector<std::string> without_rank;  // names of the profiles left out: no rank
    // A second profile of a rank, graph and capture (the one of the lower
    // profile id is kept, whatever the sources' order): "rank 3: kept A,
    // left B", or "rank 3: A twice" (one profile read from two sources);
    // sorted.
    std::vector<std::string> duplicates;
};
// The profiles with a rank, grouped by capture, graph and window of steps
// (sorted by the three).
RankGrouping group_ranks(const std::vector<ProfileEntry>& profiles);

RankAnalysis analyse_ranks(const RankCapture& capture);

// The ranks' compute utilisation on one time axis (the longest rank's span in
// `buckets` buckets, each rank's own buckets resampled onto it; past a
// rank's end it is 0): rows by rank, percent.
std::vector<std::vector<double>> rank_heat_map(const RankAnalysis& a, int buckets, double& span_ns);
// The same axis (span_ns from rank_heat_map), the share of each bucket a
// rank spent in collective operations (its breakdown's collective_percent).
std::vector<std::vector<double>> rank_collective_map(const RankAnalysis& a, int buckets, double span_ns);
// The same axis, the share of each bucket a rank spent waiting in matched
// collectives: an operation's wait on a rank (its duration there minus its
// shortest on any rank) is taken as its first part, the rank waiting for
// the last one to arrive before the transfer.  Every row 0 when nothing
// matched.
std::vector<std::vector<double>> rank_wait_map(const RankAnalysis& a, int buckets, double span_ns);

// The ranks worth reading of a capture, each with why: the straggler, the
// fastest, the rank at the median (the middle of the ranks by total time,
// ties in rank order), and of the ranks unlike the median the five slowest
// and the three that waited least in collectives (the late arrivals the
// others wait for).  In rank order; a rank with several reasons once.
struct NotableRank {
    size_t row = 0;                   // index into RankAnalysis::rows
    std::vector<std::string> why;     // "straggler", "fastest", "median", "slow", "waited least"
};
std::vector<NotableRank> notable_ranks(const RankAnalysis& a);
// The rank at the median (an index into rows), as notable_ranks names it.
size_t median_row(const RankAnalysis& a);

// "0-33, 35-299": sorted ranks as ranges, the first 20 ranges ("and more"
// after).
std::string rank_ranges(const std::vector<int>& ranks);

// The engine, or the phase of the breakdown (idle, exposed DMA), whose time
// differs most between `row` and `against`, and by how much (ns; negative:
// less than `against`); empty when none differs.
std::pair<std::string, int64_t> largest_change(const RankRow& row, const RankRow& against);

}  // namespace nx
