// Each physical core's share of a timeline: what nx-sim(7)'s LNC comparison
// sets side by side for a real LNC=2 profile and the model's prediction.
// An ImportHandler, so it reads a profile of any format nx imports and a
// simulation alike: per physical core (an event's pcore; an event that names
// none is core 0's), each engine's busy time - the profiler's own busy
// intervals when the profile has them (its active_time), else the union of
// the engine's instructions but its semaphore waits - the time the core's
// engines spent waiting on semaphores (EVENT_SEMAPHORE, SemaphoreWait), its
// instructions, and its first and last instruction.  It keeps every busy
// interval until the end (a source need not give them in time order): for
// comparing one kernel's profile, not for streaming a long one.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/model/cost_model.h"
#include "common/profile/profile_sink.h"

namespace nx::model {

// The engines compared: TensorE (both rows), VectorE, ScalarE, GpSimdE, Sync.
inline constexpr int kBalanceEngines = 5;
// "tensor", "vector", ... in the order of CoreShare::busy_ns.
const char* balance_engine_name(int engine);

struct CoreShare {
    std::array<double, kBalanceEngines> busy_ns{};
    double wait_ns = 0;       // semaphore waits on all of the core's engines
    int64_t instructions = 0;
    int64_t matmuls = 0;      // MATMUL instructions (TensorE's MultiplyMoving)
    int64_t first_ns = -1, last_ns = -1;
};

class CoreBalance : public ImportHandler {
public:
    void begin_profile(const ProfileInfo&) override {}
    void source_metric(std::string_view, double) override {}
    void event(const Event& e) override;
    void update_info(const ProfileInfo&) override {}
    void end_profile() override;
    void abort_profile() override {}

    // After end_profile: the profiler's busy intervals when it gave them,
    // the union of the instructions otherwise.
    const CoreShare& core(int c) const { return shares_[static_cast<size_t>(c)]; }
    int cores() const { return cores_; }
    bool from_profiler() const { return from_profiler_; }

private:
    using Intervals = std::vector<std::pair<int64_t, int64_t>>;
    static double union_ns(Intervals& v);
    std::array<CoreShare, kMaxLnc> shares_{};
    std::array<std::array<Intervals, kBalanceEngines>, kMaxLnc> instr_{}, active_{};
    bool from_profiler_ = false;
    int cores_ = 1;
};

}  // namespace nx::model
