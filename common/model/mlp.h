// A gated MLP block: y = down(act(x @ W_gate) * (x @ W_up)) for x of
// [batch * seq, hidden], W_gate/W_up [hidden, intermediate], W_down
// [intermediate, hidden].
//
// Lowered as three matmul phases with fused epilogues:
//   gate_proj  act^T = act(W_gate^T x^T)           ScalarE applies the activation
//                                                  while evacuating PSUM
//   up_proj    h^T = (W_up^T x^T) * act^T           VectorE multiplies while evacuating
//   down_proj  y = h @ W_down                       h^T is already the lhsT layout
// Computing the transposed intermediate keeps the weights in their natural
// layout as stationary operands and makes the down projection's operand
// ready-made.  Activations are feature-major in HBM (x^T), as the compiler
// keeps them.  Each phase's output goes through HBM; each phase picks its own
// matmul variant (or the workload's).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/model/lowering.h"
#include "common/model/matmul.h"

namespace nx::model {

class Scheduler;

struct MlpSpec {
    int64_t tokens = 0;  // batch * seq
    int64_t hidden = 0;
    int64_t intermediate = 0;
    DType dtype = DType::bf16;
    std::optional<MatmulVariant> variant;  // nullopt: auto per projection
};

// The three projections as matmul problems (without readiness times).
MatmulProblem mlp_gate_problem(const MlpSpec& spec);
MatmulProblem mlp_up_problem(const MlpSpec& spec);
MatmulProblem mlp_down_problem(const MlpSpec& spec);

struct MlpOutcome {
    Time end = 0;
    std::string variant;   // "gate=..,up=..,down=.."
    double sbuf_bytes = 0; // largest phase plan, per partition
    TileCounts tiles;      // the gate projection's
};

// Lowers lane `lane`'s part of the block (lowering.h; with one lane, all of
// it): each projection split over the lanes as shard_matmul splits a matmul;
// with two lanes the cores meet at a core barrier between the up and down
// projections, since every core's part of the down projection reads every
// core's part of h.  `spec` and `out` must outlive it.
Lowering lower_mlp(Scheduler& s, const MlpSpec& spec, int lane, MlpOutcome& out);
// Whether any projection splits over `lanes` cores.
bool mlp_shards(const MlpSpec& spec, int lanes);

}  // namespace nx::model
