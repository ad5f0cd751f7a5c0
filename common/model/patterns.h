// The vmap / scan / for-loop study (reference/seeds/pattern-study-summary.md)
// as the XLA graphs neuronx-cc compiles for each way of writing the loop,
// lowered the way a neuron-profile capture of such a graph shows them
// (cost_model.h, "Compiler-lowered graphs"): inputs and outputs by
// DMA_DIRECT2D on GpSimdE in one packet per partition row plus a semaphore
// write per DMA engine, constants by one static DMA, an EVENT_SEMAPHORE where
// an engine waits for another's result, dynamic slices through an index
// register, and each distinct Python float other than 0 and +-1 (vmap's 0.1,
// the loop bodies' constants) as a graph input of its own (torch-xla's
// IsSpecialScalar).
//
//   vmap             f(x) = relu(sum(x * x, -1)) + 0.1 over x[iterations, batch,
//                    features]: one batched graph.  TensorE transposes x
//                    (features onto the partitions: a compiler-inserted
//                    transpose), VectorE squares while evacuating PSUM, TensorE
//                    sums the squares against a ones column, ScalarE applies
//                    relu + 0.1.
//   scan             g(carry, x) = (carry + sum(x), carry + sum(x) + sum(x @ x.T))
//                    per iteration: one graph with a device loop; each iteration
//                    slices xs[i] through the loop counter, transposes it,
//                    multiplies x @ x.T on TensorE, reduces on VectorE, sums
//                    across partitions on TensorE, updates the carried state on
//                    ScalarE, writes ys[i]; every engine branches back.
//                    Iterations are sequential (carried state).
//   for_loop         the study's loop body unrolled into the graph, heavier
//                    at each size (patterns.cpp, loop_body): small
//                    result += mean(data[i % batch]); medium adds a square,
//                    a relu'd running state and a scaled update; large a
//                    tanh, a normalisation and two running states.  Per
//                    iteration the row is a static slice (the index is a Python int), one element per
//                    partition; reductions are TensorE matmuls against a
//                    constant matrix that broadcast the scalar back to the
//                    partitions, element-wise ops one VectorE or ScalarE
//                    instruction each (a dependent chain).
//   for_loop_launch  the small body launched as its own graph per iteration:
//                    each launch pays host dispatch (kHostDispatchNs) and
//                    reloads and stores the running result through HBM.
//
// for_loop sizes: 3, 10 and 30 trips at the study's 3 iterations, as its
// script runs them (common/workload/for_loop_size.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/model/cost_model.h"
#include "common/target/targets.h"

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

bool parse_pattern_kind(std::string_view s, PatternKind& kind);
// SBUF bytes per partition the graph keeps resident.
int64_t pattern_sbuf_bytes(const PatternSpec& spec);

struct PatternOutcome {
    Time end = 0;        // latency (with host dispatch for for_loop_launch)
    Time device_ns = 0;  // time executing on the device
    double sbuf_bytes = 0;
};

PatternOutcome lower_pattern(Scheduler& s, const PatternSpec& spec);

}  // namespace nx::model
