// A dataset's plan and its bookkeeping: which profiles the dataset should
// hold (DATASET/_nx/plan.tsv, written by nx-convert --plan), which scheduler
// task converts which of them, and which are done (a marker per plan entry,
// DATASET/_nx/done/<key>, naming the profiles it wrote; the key hashes the
// entry, so planning the tree again keeps what is done), so a re-run
// converts only what is missing and the reduce names what is.  The _nx
// folder is the dataset's own: engines skip paths that start with '_', and
// table globs (DATASET/<table>/**) never reach it.
//
// The plan file: a header line "rank<TAB>input<TAB>neff", then one line per
// profile (rank -1: none; neff empty: none needed).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/io/output.h"

namespace nx {

struct PlanEntry {
    int rank = -1;
    std::string input;
    std::string neff;
};

void write_plan(Output& out, const std::vector<PlanEntry>& plan);
// Throws Error naming the file and line of a malformed plan.
std::vector<PlanEntry> read_plan(const std::string& path);

// The entries of task `task` of `tasks` (0-based): contiguous, as even as can
// be, so a task's profiles are neighbouring ranks.  [first, last).
std::pair<size_t, size_t> task_range(size_t entries, int task, int tasks);

namespace dataset {

std::string plan_path(const std::string& root);
// Where a profile's partition is noted ("rank=3"): DIR/_nx/at/<id>.  Its next
// conversion at another rank removes the files at this one.
std::string partition_index_path(const std::string& root, std::string_view profile_id);
// The marker of a plan entry.
std::string done_path(const std::string& root, const PlanEntry& entry);
// A profile an entry wrote: its id and the rank it went to (a PyTorch
// trace's distributedInfo may give another than the plan's).
struct WrittenProfile {
    std::string id;
    int rank = -1;
};
// Writes the marker (atomically): the profiles the entry wrote, a line
// "<id>\t<rank>" each.
void mark_done(const std::string& root, const PlanEntry& entry, const std::vector<WrittenProfile>& profiles);
// True when the entry's marker exists and every profile it names is in the
// dataset (its profiles file is there, in the rank's partition the marker
// gives; a marker of only ids, as earlier nx wrote them, the entry's).
bool is_done(const std::string& root, const PlanEntry& entry);

// The plan's entries the dataset lacks, in plan order (empty when it has no
// plan: nothing is known to be missing).
struct Missing {
    size_t entry;
    PlanEntry plan;
};
std::vector<Missing> missing_entries(const std::string& root);

}  // namespace dataset

}  // namespace nx
