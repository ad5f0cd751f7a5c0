// What every backend shares: running workloads one at a time with each
// workload's failure kept as its own, and the default refusal to trace.
#include "common/run/backend.h"

#include <new>
#include <optional>
#include <stdexcept>

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

}  // namespace nx
