// The neuron backend: workloads on a real Neuron device through the Neuron
// SDK.  nx-run starts cmd/nx-run/neuron_driver.py (torch-neuronx) once per run
// and streams the workloads to it; profiles are captured from the NEFFs it
// keeps (nx-capture, neuron-profile capture).
//
//   NX_PYTHON         the Python that has torch-neuronx (default python3)
//   NX_NEURON_DRIVER  the driver script (default: installed share/nx, or the source tree)
#pragma once

#include "common/run/backend.h"

namespace nx {

class NeuronBackend : public Backend {
public:
    explicit NeuronBackend(BackendOptions o);
    std::string name() const override { return "neuron"; }
    std::string target() const override { return o_.target; }
    // One driver per logical-core size the workloads ask for: the runtime
    // takes its LNC once per process (NEURON_LOGICAL_NC_CONFIG).
    void run_all(const std::vector<Workload>& workloads, const Done& done) override;
    Execution run(const Workload& w) override;

    // The compiled-artefact cache directory ($XDG_CACHE_HOME/nx or ~/.cache/nx).
    static std::string default_cache_dir();

private:
    // One run of the Python driver over `workloads`.
    void run_driver(const std::vector<Workload>& workloads, const Done& done);

    BackendOptions o_;
};

}  // namespace nx
