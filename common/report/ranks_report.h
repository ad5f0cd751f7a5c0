// nx-report --ranks: the ranks of a multi-rank capture (profiles whose
// records carry a worker rank) in one table: each rank's total time, its skew
// against the fastest, the straggler and the engine that explains it, and
// each rank's time in collective operations (in a collective the ranks that
// arrive first wait for the last, so it is mostly waiting).  Neuron Explorer
// shows one device-only capture at a time.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"
#include "common/store/store.h"

namespace nx {

struct CollectiveTime {
    int64_t ops = 0;
    int64_t ns = 0;  // summed durations of the collective operations
};
// Per profile uid: the time of the events on its "collectives" track
// (Explorer's collective operations).  Profiles without one are absent.
std::map<std::string, CollectiveTime> store_collective_times(Store& store);

struct RankCapture {
    std::string name;  // the capture: the ranks' common source directory
    std::vector<const ProfileEntry*> ranks;  // by rank
};
// The profiles with a rank, grouped by capture; profiles without one are left
// out (`skipped` names them).
std::vector<RankCapture> group_ranks(const std::vector<ProfileEntry>& profiles, std::vector<std::string>& skipped);

void add_rank_report(Document& doc, const std::vector<RankCapture>& captures,
                     const std::map<std::string, CollectiveTime>& collectives);
// Rows: kind "rank", capture, rank, profile, total_ns, vs_fastest, behind_ns,
// straggler (0/1), collective_ops, collective_ns, collective_percent.
void write_rank_rows(const std::vector<RankCapture>& captures, const std::map<std::string, CollectiveTime>& collectives,
                     RowWriter& out);

}  // namespace nx
