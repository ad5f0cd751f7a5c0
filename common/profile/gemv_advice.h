// Findings fitted to the workload a profile ran, when its record says: a
// decode GEMV (matrix-vector: a matmul with one or a few rows, M = batch) is
// memory-bound by its shape, so the generic matmul advice ("fewer, larger
// matmuls", "bigger tiles", "raise arithmetic intensity") would send the user
// to restructure something that cannot be restructured.  Its time is reading
// the weights: what helps is more rows per weight read (batching requests) or
// weights kept stationary across tokens.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/profile/profile.h"
#include "common/profile/rules.h"

namespace nx {

// A matmul with fewer rows than this is a GEMV for advice: it cannot fill one
// 128-row tile of the array, whatever the matmul count (neuron-facts.md
// section 6).
constexpr int64_t kGemvMaxRows = 127;

struct GemvShape {
    int64_t M = 0, K = 0, N = 0;
    int64_t weight_bytes = 0;   // K x N at the workload's dtype (0: dtype unknown)
};

// The GEMV the profile's carried workload record describes (op "matmul" with
// M <= kGemvMaxRows, or an llm decode-phase matmul); nullopt otherwise.
std::optional<GemvShape> gemv_of(const ProfileInfo& info);

// Rewrites the matmul-restructuring findings of a GEMV profile (tensor engine
// idle, poorly fed, model FLOPs low, memory-bound roofline) to the advice that
// fits it; other findings and other profiles are left as they are.
void fit_findings_to_workload(std::vector<Finding>& findings, const ProfileInfo& info);

}  // namespace nx
