// The backend table (backends.h).
#include "common/run/backends.h"

#include <iterator>

#include "common/io/error.h"
#include "common/io/named_rows.h"
#include "common/target/targets.h"
#include "common/run/cpu_backend.h"
#include "common/run/neuron_backend.h"
#include "common/run/sim_backend.h"

namespace nx {

namespace {

template <class B>
std::unique_ptr<Backend> make(const BackendOptions& o) {
    return std::make_unique<B>(o);
}

constexpr BackendDef kBackends[] = {
    {"sim", "the NeuronCore model: predictions, not measurements", kDefaultDeviceTarget, true,
     CaptureMethod::in_process, make<SimBackend>},
    {"cpu", "real execution on the host (OpenBLAS, fp32): host measurements", "cpu", false,
     CaptureMethod::in_process, make<CpuBackend>},
    {"neuron", "a Neuron device through the Neuron SDK (torch-neuronx)", kDefaultDeviceTarget, true,
     CaptureMethod::neuron_profiler, make<NeuronBackend>},
};

}  // namespace

std::span<const BackendDef> backend_defs() { return kBackends; }

const BackendDef* find_backend(std::string_view name) { return find_named(kBackends, name); }

std::string backend_names() { return joined_names(kBackends); }

std::string_view default_backend() { return kBackends[0].name; }

std::string backend_option_help() {
    std::string s;
    for (size_t i = 0; i < std::size(kBackends); ++i) {
        s += i == 0 ? "" : i + 1 == std::size(kBackends) ? " or " : ", ";
        s += kBackends[i].name;
        if (i == 0) s += " (default)";
    }
    return s;
}

std::string target_option_help() {
    std::string s = target_names();
    std::string def(kDefaultDeviceTarget);
    if (size_t at = (", " + s + ",").find(", " + def + ","); at != std::string::npos)
        s.insert(at + def.size(), " (default)");
    for (const BackendDef& b : kBackends)
        if (!b.device_targets) s += "; " + std::string(b.default_target) + " for the " + std::string(b.name) + " backend";
    return s;
}

void settle_lnc(Workload& w, const BackendDef& backend, int64_t given) {
    if (!backend.device_targets) {
        w.lnc = 0;
        return;
    }
    if (given != 0) w.lnc = given;
    if (w.lnc == 0)
        if (const Target* t = find_target(w.target)) w.lnc = t->lnc;
}

std::string lnc_option_help() {
    std::string s = "physical NeuronCores per logical core, 1 or 2 (default: the target's:";
    for (const Target& t : all_targets()) s += std::string(" ") + t.name + " " + std::to_string(t.lnc);
    return s + ")";
}

std::unique_ptr<Backend> make_backend(const std::string& name, BackendOptions o) {
    const BackendDef* def = find_backend(name);
    if (!def) throw UsageError("unknown --backend '" + name + "' (known: " + backend_names() + ")");
    if (o.target.empty()) o.target = def->default_target;
    if (def->device_targets && !find_target(o.target))
        throw UsageError("unknown --target '" + o.target + "' for the " + name + " backend (known: " +
                         target_names() + ")");
    if (!def->device_targets && o.target != def->default_target)
        throw UsageError("the " + name + " backend runs on the host: --target must be " +
                         std::string(def->default_target) + " (got '" + o.target + "')");
    return def->make(o);
}

}  // namespace nx
