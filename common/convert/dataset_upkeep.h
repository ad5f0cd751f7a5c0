// A dataset's plan written and the dataset kept whole (nx-convert --dataset
// DIR --plan TREE, --repair): what a fan-out starts with, and what its
// reduce runs first.
//
// Planning a tree into a dataset that has a plan already is a re-plan: the
// profiles of entries the tree no longer holds (a process folder removed,
// files moved) are removed from the dataset with their done markers, so the
// dataset holds what the plan says and nothing else.
//
// The repair finishes what stopped writers left (dataset_commit.h: journals;
// dataset_folder.h: the hidden files of writers that have gone), removes the
// files of profiles that have no profiles file (a conversion that did not
// finish, a profiles file removed by hand), and names the profiles no plan
// entry accounts for.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/convert/fanout_plan.h"

namespace nx {

struct PlannedDataset {
    CaptureTreePlan plan;
    size_t ranks = 0;
    size_t dropped_entries = 0, removed_profiles = 0;
};
PlannedDataset plan_dataset(const std::string& dataset, const std::string& tree, const PlanOptions& options);
// What planning did, as notes on stderr: the paths skipped, the entries a
// re-plan dropped, the profiles and ranks planned.
void note_planned(const PlannedDataset& p, const std::string& dir);

struct RepairedDataset {
    size_t commits_finished = 0, commits_removed = 0;
    size_t writers_gone = 0, temporary_files = 0;
    size_t unfinished_files = 0;  // of profiles without a profiles file
    std::vector<std::string> unplanned;  // "ID (rank R)": in the dataset, in no entry of its plan
};
RepairedDataset repair_dataset(const std::string& dataset);
// What a repair did, as a note on stderr, and a warning when profiles are in
// no entry of the plan.
void note_repaired(const RepairedDataset& r, const std::string& dir);

}  // namespace nx
