// The backends nx knows, as rows of one table: name, what it is, the target
// it runs on when none is given, how nx-capture profiles one of its runs,
// and how nx-run makes one.  nx-run and nx-capture both read this table;
// adding a backend is a row here plus its class (common/run/*_backend.*).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "common/run/backend.h"

namespace nx {

// How nx-capture gets a profile of a run.
enum class CaptureMethod {
    in_process,       // the backend traces the workload itself into an nx event file
    neuron_profiler,  // neuron-profile capture on the NEFF the run kept
};

struct BackendDef {
    std::string_view name;
    std::string_view description;     // one line, for --help and messages
    std::string_view default_target;  // when --target is not given
    bool device_targets;              // runs on the Neuron targets (targets.h); else only on default_target
    CaptureMethod capture;
    std::unique_ptr<Backend> (*make)(const BackendOptions&);
};

std::span<const BackendDef> backend_defs();
// nullptr when the name is unknown.
const BackendDef* find_backend(std::string_view name);
// "sim, cpu, neuron" for messages.
std::string backend_names();
// The first row is the backend a run uses when --backend is not given.
std::string_view default_backend();
// --help texts from the table: "sim (default), cpu or neuron" and
// "trn1, inf2, trn2 (default), trn3; cpu for the cpu backend".
std::string backend_option_help();
std::string target_option_help();
// The logical NeuronCore a workload runs on, settled before it runs so its
// run record says it: `given` (nx-run --lnc) when not 0, else the
// workload's own, else on a Neuron target that target's default LNC (2 on
// trn2 and trn3, 1 on trn1 and inf2); the host CPU has none (0).
void settle_lnc(Workload& w, const BackendDef& backend, int64_t given);
// "--lnc: 1 or 2 (default: ...)" for --help.
std::string lnc_option_help();

// The backend `name` on options.target (its default target when empty).
// Throws UsageError for an unknown backend or a target it cannot run.
std::unique_ptr<Backend> make_backend(const std::string& name, BackendOptions options);

}  // namespace nx
