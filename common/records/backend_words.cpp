#include "common/records/backend_words.h"

namespace nx {

namespace {

constexpr BackendWords kBackends[] = {
    {"sim", true, "predicted by the model (sim)", "predicted by the nx performance model, not measured"},
    {"neuron", false, "measured on a Neuron device (neuron)", "measured on a Neuron device"},
    {"cpu", false, "measured on the host CPU (cpu)", "measured on the host CPU, not a Neuron device"},
};

}  // namespace

const BackendWords* backend_words(std::string_view backend) {
    for (const BackendWords& b : kBackends)
        if (b.name == backend) return &b;
    return nullptr;
}

bool predicts(std::string_view backend) {
    const BackendWords* b = backend_words(backend);
    return b && b->predicts;
}

std::string provenance_label(std::string_view backend) {
    if (const BackendWords* b = backend_words(backend)) return std::string(b->label);
    return backend.empty() ? "unknown backend" : "from backend " + std::string(backend);
}

std::string backend_phrase(std::string_view backend) {
    if (const BackendWords* b = backend_words(backend)) return std::string(b->name) + " (" + std::string(b->phrase) + ")";
    return backend.empty() ? "unknown backend" : std::string(backend);
}

}  // namespace nx
