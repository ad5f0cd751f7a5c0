// Engine busy time: the one rule every consumer applies (ProfileMetrics, the
// engine_* SQL functions, the Perfetto utilisation counters).
//
// - When a profile carries the profiler's own busy intervals for an engine
//   (`active` events: the JSON `active_time` array), that engine's busy time
//   is their union.  The profiler's "tensor" intervals cover the whole
//   TensorE, so the TensorMatrix row is folded into the Tensor row then.
// - Otherwise it is derived from the engine's instructions, where waiting is
//   not work: EVENT_SEMAPHORE instructions (which sit waiting on a semaphore,
//   for milliseconds on an idle engine) count nothing.
//   Checked against neuron-profile 2.27's own `active_time` on real inf2
//   profiles: its intervals are exactly the other instructions, whole --
//   EVENT_SEMAPHORE_RANGE_CLEAR included (it clears semaphores, it does not
//   wait), and instructions with an `evt_wait_time` (the wait before the
//   instruction's timestamp, often longer than its duration: a 16 ns NOP
//   with evt_wait_time 898) counted from their timestamp.  Derived this way
//   the figures land within 0.001 points of the profiler's percentages.
// - DMA transfers count whole.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "common/profile/event.h"
#include "common/profile/interval_union.h"
#include "common/profile/profile.h"

namespace nx {

// True for instructions that only wait for a semaphore (EVENT_SEMAPHORE).
bool is_wait_opcode(std::string_view opcode);

// The part of an event that was work: [begin, end), empty (end <= begin)
// when none: wait instructions count nothing, everything else whole.
Interval work_interval(EventType type, std::string_view opcode, int64_t ts, int64_t dur);

class EngineBusy {
public:
    EngineBusy() = default;
    EngineBusy(const EngineBusy&) = delete;
    EngineBusy& operator=(const EngineBusy&) = delete;

    // Instructions, DMA transfers and `active` intervals count; other event
    // types and events without an engine are ignored.
    void add(EventType type, Engine engine, int64_t ts, int64_t dur, std::string_view opcode);
    void add(const Event& e) { add(e.type, e.engine, e.ts_ns, e.dur_ns, e.opcode); }

    // Everything below is for after the last add().
    // The row an engine's figures are reported on (tensor_matrix -> tensor
    // when the profiler gave tensor intervals).
    Engine row(Engine e) const;
    // A row with instructions, transfers or profiler intervals of its own.
    bool present(Engine row) const;
    BusyOrigin origin(Engine row) const;
    // The row's busy intervals as the rule above chooses them.
    IntervalUnion& busy(Engine row);
    int64_t instructions(Engine row) const;  // instructions (transfers) folded into the row
    int64_t duration_sum(Engine row) const;  // their plain summed durations
    // The same two without the semaphore waits: an engine's work, whose mean
    // duration says how long its instructions take.
    int64_t work_instructions(Engine row) const;
    int64_t work_duration_sum(Engine row) const;
    // Length of the union of several rows' busy intervals (rows not present
    // add nothing).
    int64_t union_length(std::initializer_list<Engine> rows);
    // The row's figures as the summary and the study database keep them
    // (active_percent left 0: it needs the profile's total time).
    EngineStat stat(Engine row);

    // The rows in the profiler's display order.
    static constexpr Engine kRows[] = {Engine::tensor_matrix, Engine::tensor, Engine::vector, Engine::scalar,
                                       Engine::gpsimd, Engine::sync, Engine::dma};

private:
    bool folded() const { return profiler_[static_cast<size_t>(Engine::tensor)]; }

    std::array<IntervalUnion, kEngineCount> work_;
    std::array<IntervalUnion, kEngineCount> intervals_;  // the profiler's
    std::array<bool, kEngineCount> profiler_{};
    std::array<int64_t, kEngineCount> count_{};
    std::array<int64_t, kEngineCount> dur_sum_{};
    std::array<int64_t, kEngineCount> wait_count_{};
    std::array<int64_t, kEngineCount> wait_sum_{};
    // A row's figure, with the TensorMatrix row's added when it is folded in.
    int64_t folded_sum(const std::array<int64_t, kEngineCount>& a, Engine r) const;
};

}  // namespace nx
