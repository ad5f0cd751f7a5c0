// The cpu backend: workloads executed for real on the host (OpenBLAS and C++
// loops, fp32), timed like device runs.  Its records are host measurements,
// labelled cpu: they say nothing about a NeuronCore's speed.
#pragma once

#include "common/run/backend.h"

namespace nx {

class CpuBackend : public Backend {
public:
    explicit CpuBackend(BackendOptions o) : o_(std::move(o)) {}
    std::string name() const override { return "cpu"; }
    std::string target() const override { return "cpu"; }
    Execution run(const Workload& w) override;
    void trace(const Workload& w, ImportHandler& out) override;

private:
    BackendOptions o_;
};

}  // namespace nx
