// A profile of many executions (the runtime's session mode: one NTFF, many
// NEFFs, thousands of executions) in few words: how many, each NEFF's spread
// of durations (min, median, p90, max), and the slow executions, each with
// what grew in it against its NEFF's median execution, which is what a
// person reading a session asks first ("which iteration was slow, and
// why?").  An execution is slow at 1.2x its NEFF's median, for a NEFF of at
// least 3 executions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/profile/profile.h"

namespace nx {

inline constexpr double kSlowExecutionRatio = 1.2;
inline constexpr size_t kMaxSlowExecutions = 10;

ExecutionDigest digest_executions(const std::vector<ExecutionStat>& executions);

// What grew most in `slow` against `median`: the part of the time that grew
// most (compute, collectives outside compute, DMA nothing hides, idle), and
// the engine whose busy time grew most, e.g. "compute +30 us (TensorE busy
// +28 us)"; empty when no part grew.
std::string what_changed(const ExecutionStat& slow, const ExecutionStat& median);

// A duration as the digest's texts write it: "850 ns", "41.99 us", "1.20 ms",
// "2.50 s" (format/units.h is a layer above this one).
std::string duration_text(int64_t ns);

}  // namespace nx
