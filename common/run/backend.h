// Backends run workloads: sim (the NeuronCore model: predictions), cpu (real
// execution on the host) and neuron (a Neuron device through the Neuron SDK).
// nx-run times executions through them; nx-capture asks them for a profile.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/profile/profile_sink.h"
#include "common/workload/run_record.h"
#include "common/workload/workload.h"

namespace nx {

// What one workload's run produced.
struct BackendOptions {
    std::string target;       // trn1 | inf2 | trn2 | trn3 (sim, neuron); cpu: "cpu"
    int warmup = 5;
    int timed = 20;
    bool use_cache = true;
    std::string cache_dir;    // compiled-artefact cache (neuron)
    std::string work_dir;     // where the neuron driver keeps NEFFs
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    virtual std::string target() const = 0;

    // Runs each workload (warm-up, then timed executions) and reports each
    // result or error as it is known; `done` returns false to stop the run
    // (nothing more is started).  The default runs one at a time; backends
    // with a costly start (the neuron driver) batch.
    using Done = std::function<bool(size_t index, const Execution* result, const Error* error)>;
    virtual void run_all(const std::vector<Workload>& workloads, const Done& done);
    virtual Execution run(const Workload& w) = 0;

    // Streams a profile of one execution as events into `out` (begin/end are
    // the caller's).  Not every backend can (neuron captures through
    // neuron-profile instead: backends.h says which way each one goes).
    virtual void trace(const Workload& w, ImportHandler& out);
};

}  // namespace nx
