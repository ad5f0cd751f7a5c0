// What nx-run does once its options are read: workload records read from
// files or stdin, then run on a backend (one per target they ask for), each
// timed workload written as a run record.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/io/output.h"
#include "common/run/backend.h"
#include "common/workload/workload.h"

namespace nx {

struct RunRequest {
    std::string backend;          // the backend's name (backends.h)
    BackendOptions options;       // its options; target: the default target
    bool target_given = false;    // --target: it wins over a record's own target
    bool keep_going = false;      // a failing workload is counted, the rest run
    std::string variant;          // --variant: the matmul kernel for piped matmuls too
    int progress = 0;             // 1: progress on stderr always, -1: never, 0: on a terminal
};

// Workload records (kind workload, run or capture) from `inputs` ("-" or
// none: stdin, refused on a terminal), their target settled: a record's own
// stands unless --target was given or the backend runs only on the host.
std::vector<Workload> read_workloads(const std::vector<std::string>& inputs, const RunRequest& r);

// Validates `workloads` (a bad one throws, or with keep_going is counted),
// runs them grouped by target in order of first appearance, `first` serving
// its own target, and writes a run record per workload to `out`.  The first
// failure throws unless keep_going; failures kept going are counted in
// error_counts() (the tool exits 1 for them).
void run_workloads(std::vector<Workload> workloads, const RunRequest& r, std::unique_ptr<Backend> first,
                   Output& out);

}  // namespace nx
