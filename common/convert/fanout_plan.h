// The plan of a fan-out: every profile of a capture tree, one line each, with
// the rank it gets, so that scheduler tasks (Slurm array tasks, make -j,
// xargs -P) can each convert their share into one dataset and a reduce can
// tell what is missing.
//
// What a capture tree holds, found by name (cluster-scale.md):
// - the runtime's layout, OUTPUT/<instance>_pid_<pid>/<hash>_instid_<n>_vnc_<k>.ntff
//   (with neff_<hash>.neff) or the same names in .json/.json.gz (neuron-profile's
//   JSON of that NTFF): a worker is one (instance, process, core); ranks
//   number the workers in the order of those three (a rank is Nsight's
//   "sorted file names" rule, made explicit), so every graph a worker ran
//   gets the worker's rank;
// - profile_rank_<i>.json|.json.gz|.ntff, rank-<i>.json(.gz),
//   sampled_rank-<i>.json(.gz) and the like: rank i (rank_in_file_name);
// - Neuron Explorer profile directories: the rank of the layout their path
//   follows, else none.
// Anything else in the tree is not a profile and is left out; hidden files
// and folders, and what is not a regular file (a FIFO, a socket, a device),
// are left out and named, where their names look like profiles'.
// The plan file and the task's share of it: dataset/dataset_plan.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/dataset/dataset_plan.h"

namespace nx {

struct PlanOptions {
    // Hidden files and folders (".snapshot/", ".Trash/") are planned too.
    bool include_hidden = false;
};

struct CaptureTreePlan {
    std::vector<PlanEntry> entries;
    // What looked like a profile and was left out: "PATH: why" (a hidden
    // folder, a FIFO, a rank out of range).
    std::vector<std::string> skipped;
};

// Throws Error when the tree cannot be read or holds no profile.
CaptureTreePlan plan_capture_tree(const std::string& root, const PlanOptions& options = {});
// A path as a plan names it (absolute, normalised: scheduler tasks may start
// in another directory), so a path found otherwise can be looked up in it.
std::string planned_path(const std::string& path);

// The rank a file's name gives: profile_rank_<i>.json|.json.gz|.ntff, and
// the names users give PyTorch traces: rank-<i>, rank_<i>, rank<i> after
// words joined by "_" (sampled_rank-1.json.gz, inference_rank_1.json.gz),
// with the profiler's suffix or none (rank-3.<time>.pt.trace.json.gz); the
// extension in any case.  None for another name.  Throws Error naming the
// file when the name has such a form with a rank that is not a number from 0
// to 2147483647.
std::optional<int> rank_in_file_name(const std::string& path);

}  // namespace nx
