// The sim backend: the NeuronCore model (common/model) as a Backend.  Its
// "executions" are predictions: deterministic, identical, and labelled sim in
// every record.
#pragma once

#include "common/run/backend.h"

namespace nx {

class SimBackend : public Backend {
public:
    explicit SimBackend(BackendOptions o) : o_(std::move(o)) {}
    std::string name() const override { return "sim"; }
    std::string target() const override { return o_.target; }
    Execution run(const Workload& w) override;
    void trace(const Workload& w, ImportHandler& out) override;

private:
    BackendOptions o_;
};

}  // namespace nx
