// The vmap / scan / for-loop study (reference/seeds/pattern-study-summary.md)
// as the graphs a compiler builds for each way of writing the loop:
//
//   vmap             f(x) = relu(sum(x * x, -1)) + 0.1 over x[iterations, batch,
//                    features]: one batched graph.  VectorE squares, TensorE
//                    transposes the squares and sums them against a ones vector,
//                    ScalarE applies relu + 0.1.
//   scan             g(carry, x) = (carry + sum(x), carry + sum(x) + sum(x @ x.T))
//                    per iteration: one graph with a device loop; each iteration
//                    loads its slice, transposes it, multiplies x @ x.T on
//                    TensorE, reduces on VectorE, updates the carried state on
//                    ScalarE and branches back on the Sync engine.  Iterations
//                    are sequential (carried state).
//   for_loop         result += mean(data[i % batch]) unrolled into the graph:
//                    per iteration TensorE moves row i % batch to partition 0
//                    (a one-hot matmul), VectorE sums it, ScalarE scales and
//                    accumulates (a dependent chain).
//   for_loop_launch  the same body launched as its own graph per iteration: each
//                    launch pays host dispatch (kHostDispatchNs) and reloads and
//                    stores the running result through HBM.
//
// for_loop sizes: the unrolled trip count is iterations x 1 (small), x 3
// (medium), x 9 (large) -- the study's slice counts grew ~3x per size step
// (1117, 3401, 10223).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/model/cost_model.h"
#include "common/profile/targets.h"

namespace nx::model {

class Scheduler;

enum class PatternKind { vmap, scan, for_loop, for_loop_launch };

struct PatternSpec {
    PatternKind kind = PatternKind::vmap;
    std::string name;      // "vmap", "for_loop" ...
    std::string size;      // small | medium | large (for-loop kinds)
    int64_t iterations = 3, batch = 32, features = 128;
    DType dtype = DType::fp32;
    int64_t trip_count() const;  // for-loop kinds: unrolled iterations / launches
};

// Defaults of the study's unified conditions.
inline constexpr int64_t kPatternDefaultIterations = 3;
inline constexpr int64_t kPatternDefaultBatch = 32;
inline constexpr int64_t kPatternDefaultFeatures = 128;

bool parse_pattern_kind(std::string_view s, PatternKind& kind);
// Trip-count factor of a for-loop size; 0 when unknown.
int64_t for_loop_size_factor(std::string_view size);
// SBUF bytes per partition the graph keeps resident.
int64_t pattern_sbuf_bytes(const PatternSpec& spec);

struct PatternOutcome {
    Time end = 0;        // latency (with host dispatch for for_loop_launch)
    Time device_ns = 0;  // time executing on the device
    double sbuf_bytes = 0;
};

PatternOutcome lower_pattern(Scheduler& s, const PatternSpec& spec);

}  // namespace nx::model
