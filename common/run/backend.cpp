#include "common/run/backend.h"

#include <new>
#include <optional>
#include <stdexcept>

#include "common/run/cpu_backend.h"
#include "common/run/neuron_backend.h"
#include "common/run/sim_backend.h"
#include "common/targets.h"

namespace nx {

void Backend::run_all(const std::vector<Workload>& workloads, const Done& done) {
    for (size_t i = 0; i < workloads.size(); ++i) {
        // Only the workload's own failures are its errors: what `done` throws
        // (a closed stdout) ends the run.
        std::optional<Execution> result;
        std::optional<Error> error;
        try {
            result = run(workloads[i]);
        } catch (const Error& err) {
            error = err;
        } catch (const std::bad_alloc&) {
            error = Error(workloads[i].name + ": out of memory");
        } catch (const std::length_error&) {
            error = Error(workloads[i].name + ": too large to allocate");
        }
        bool go_on = result ? done(i, &*result, nullptr) : done(i, nullptr, &*error);
        if (!go_on) return;
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
