// nx-capture's work: a profile of each run.  sim: the model's device trace;
// cpu: an instrumented re-run recording every op; both written as nx event
// files (gzip JSONL with the profile record at the end).  neuron:
// `neuron-profile capture -n NEFF -s NTFF` on the NEFF the run kept.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <vector>

namespace nx {

struct CaptureOptions {
    std::string dir = "captures";           // where profile files go
    int num_exec = 1;                       // neuron-profile --num-exec
    int profile_nth_exec = 1;               // neuron-profile --profile-nth-exec
    std::vector<std::string> profiler_args; // passed through (multi-worker options, --single-io ...)
    bool multi_worker = false;              // --collectives-workers-per-node given: one NTFF per rank
};

// Captures the run and returns its capture records (one per rank for a
// multi-worker neuron capture).  Throws Error("<name>: ...").
std::vector<std::string> capture_run(const rapidjson::Value& run, const CaptureOptions& options);

}  // namespace nx
