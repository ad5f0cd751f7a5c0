#include "common/run/backend.h"

#include "common/run/cpu_backend.h"
#include "common/run/neuron_backend.h"
#include "common/run/sim_backend.h"
#include "common/targets.h"

namespace nx {

void Backend::run_all(const std::vector<Workload>& workloads, const Done& done) {
    for (size_t i = 0; i < workloads.size(); ++i) {
        try {
            Execution e = run(workloads[i]);
            done(i, &e, nullptr);
        } catch (const Error& err) {
            done(i, nullptr, &err);
        }
    }
}

void Backend::trace(const Workload& w, ImportHandler&) {
    throw Error(w.name + ": the " + name() + " backend cannot trace in-process");
}

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& o) {
    if (name == "sim" || name == "neuron") {
        if (!find_target(o.target))
            throw UsageError("unknown --target '" + o.target + "' for the " + name + " backend (known: " +
                             target_names() + ")");
        if (name == "sim") return std::make_unique<SimBackend>(o);
        return std::make_unique<NeuronBackend>(o);
    }
    if (name == "cpu") {
        if (!o.target.empty() && o.target != "cpu")
            throw UsageError("the cpu backend runs on the host: --target must be cpu (got '" + o.target + "')");
        return std::make_unique<CpuBackend>(o);
    }
    throw UsageError("unknown --backend '" + name + "' (known: sim, cpu, neuron)");
}

}  // namespace nx
