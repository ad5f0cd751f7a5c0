// A dataset's plan and its bookkeeping: which profiles the dataset should
// hold (DATASET/_nx/plan.tsv, written by nx-convert --plan), which scheduler
// task converts which of them, and which are done (a marker per plan entry,
// DATASET/_nx/done/<key>, naming the profiles it wrote; the key hashes the
// entry, so planning the tree again keeps what is done), so a re-run
// converts only what is missing and the reduce names what is.  Where these
// files lie: dataset_folder.h.
//
// The plan file: a header line "rank<TAB>input<TAB>neff", then one line per
// profile (rank -1: none; neff empty: none needed).  A path's tab, newline,
// carriage return and backslash are written \t, \n, \r and \\, so that any
// name a file system allows keeps to its line.
#pragma once

#include <cstddef>
#include <optional>
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
std::string plan_text(const std::vector<PlanEntry>& plan);
// The plan of the dataset at `root`.  Throws Error naming the file and line
// of a malformed plan, or the plan's path when there is none.
std::vector<PlanEntry> read_plan(const std::string& root);
std::vector<PlanEntry> parse_plan(const std::string& text, const std::string& path);

// The entries of task `task` of `tasks` (0-based): contiguous, as even as can
// be, so a task's profiles are neighbouring ranks.  [first, last) =
// [task*entries/tasks, (task+1)*entries/tasks), rounded down: the split
// pipelines/shard makes of a study's records, so every fan-out in nx shares
// one rule.  A task past the last gets none.
std::pair<size_t, size_t> task_range(size_t entries, int task, int tasks);

namespace dataset {

class Folder;

// A profile an entry wrote: its id and the rank it went to (a PyTorch
// trace's distributedInfo may give another than the plan's).
struct WrittenProfile {
    std::string id;
    int rank = -1;
};
// The marker's name of an entry (its hash).
std::string done_key(const PlanEntry& entry);
// Writes the marker (atomically): the profiles the entry wrote, a line
// "<file stem>\t<rank>" each.
void mark_done(const Folder& dataset, const PlanEntry& entry, const std::vector<WrittenProfile>& profiles,
               const std::string& tag);
// The profiles an entry's marker names (none without a marker), as file
// stems with their ranks.
struct DoneProfile {
    std::string stem;
    int rank = -1;
};
std::vector<DoneProfile> done_profiles(const Folder& dataset, const PlanEntry& entry);
// True when the entry's marker exists and every profile it names is in the
// dataset (its profiles file is there, in the rank's partition the marker
// gives; a marker of only ids, as earlier nx wrote them, the entry's).
bool is_done(const Folder& dataset, const PlanEntry& entry);
// Removes the entry's marker.
void forget_done(const Folder& dataset, const PlanEntry& entry);

// The plan's entries the dataset lacks, in plan order (empty when it has no
// plan: nothing is known to be missing).
struct Missing {
    size_t entry;
    PlanEntry plan;
};
std::vector<Missing> missing_entries(const std::string& root);

// The plan the dataset has now; none when it has none.
std::optional<std::vector<PlanEntry>> current_plan(const Folder& dataset);
// The profiles in the dataset that no done marker of its plan names ("ID
// (rank R)"): converted by hand, or left by a plan before; empty when the
// dataset has no plan.
std::vector<std::string> unplanned_profiles(const std::string& root);

}  // namespace dataset

}  // namespace nx
