// The cpu backend's programs: each workload as real host code (OpenBLAS sgemm
// for matmuls, C++ loops for the pattern graphs and element-wise ops), with an
// optional recorder that sees every op as it runs (for nx-capture's
// instrumented re-run).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "common/workload/workload.h"

namespace nx {

class OpRecorder {
public:
    virtual ~OpRecorder() = default;
    // One op ran from t0 to t1 (steady clock, ns).
    virtual void op(std::string_view name, std::string_view layer, int64_t t0_ns, int64_t t1_ns, double flops) = 0;
};

class CpuProgram {
public:
    virtual ~CpuProgram() = default;
    // One execution of the workload.  `rec` may be null (timed runs).
    virtual void execute(OpRecorder* rec) = 0;
};

// Allocates and fills the buffers (nx-run reports this as compile_ms).
// Throws Error("<name>: ...") when the workload cannot run on the host
// (shape too large for the memory limit, unknown op).
std::unique_ptr<CpuProgram> prepare_cpu_program(const Workload& w);

// The steady clock in ns (shared with the timing harness).
int64_t now_ns();

}  // namespace nx
