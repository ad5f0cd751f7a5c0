#include "common/run/cpu_backend.h"

#include "common/run/cpu_kernels.h"
#include "common/run/openblas.h"
#include "common/workload/workload_record.h"

namespace nx {

namespace {

// Events of the instrumented run: one per op on the host's track.
class EventRecorder : public OpRecorder {
public:
    EventRecorder(ImportHandler& out, int64_t origin) : out_(out), origin_(origin) {}
    void op(std::string_view name, std::string_view layer, int64_t t0, int64_t t1, double flops) override {
        Event e;
        e.type = EventType::instruction;
        e.engine = Engine::host;
        e.track = "cpu";
        e.name = name;
        e.opcode = name;
        e.layer = layer;
        e.ts_ns = t0 - origin_;
        e.dur_ns = t1 - t0;
        if (flops > 0) e.flops = flops;
        out_.event(e);
    }

private:
    ImportHandler& out_;
    int64_t origin_;
};

}  // namespace

Execution CpuBackend::run(const Workload& w) {
    validate_workload(w);
    Execution e;
    // Loads OpenBLAS (openblas.h) before anything is timed.
    e.toolchain = openblas_version() + " (host fp32)";
    int64_t t0 = now_ns();
    std::unique_ptr<CpuProgram> prog = prepare_cpu_program(w);
    // The host has no compiler: "compile" is allocating and filling buffers.
    e.compile_ms = static_cast<double>(now_ns() - t0) / 1e6;
    for (int i = 0; i < o_.warmup; ++i) prog->execute(nullptr);
    for (int i = 0; i < o_.timed; ++i) {
        int64_t s = now_ns();
        prog->execute(nullptr);
        e.latencies_us.push_back(static_cast<double>(now_ns() - s) / 1e3);
    }
    if (w.dtype != "fp32") e.note = w.dtype + " runs as fp32 on the host";
    return e;
}

void CpuBackend::trace(const Workload& w, ImportHandler& out) {
    validate_workload(w);
    std::unique_ptr<CpuProgram> prog = prepare_cpu_program(w);
    prog->execute(nullptr);  // warm caches and the BLAS threads first
    EventRecorder rec(out, now_ns());
    prog->execute(&rec);
}

}  // namespace nx
