// Matmul lowering: C[M,N] = A[M,K] @ B[K,N] as the instruction stream an NKI
// kernel issues, in the four strategies of the NKI matmul tutorial, plus the
// choice a good compiler makes (`auto`: the fastest strategy that fits SBUF).
//
// Layout (as in the tutorial): the left operand arrives transposed (lhsT
// [K, M]) so both operands have K on the SBUF partitions.  Tiles: K rows per
// pass (128, or 128 * k_pack for fp8 on NC-v3/v4), M <= 128 stationary
// columns, N <= 512 moving columns (one PSUM bank).  Partial tiles at the
// edges cost what a full pass costs on TensorE, so tiling cliffs show.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/model/cost_model.h"
#include "common/model/lowering.h"
#include "common/model/sbuf_plan.h"
#include "common/profile/event.h"
#include "common/target/targets.h"

namespace nx::model {

class Scheduler;

// The matmul study's tile columns: ceil(M/128), ceil(K/128), ceil(N/512).
struct TileCounts {
    int64_t M = 0, K = 0, N = 0, total = 0;
};
TileCounts matmul_tiles(int64_t M, int64_t K, int64_t N);

enum class MatmulVariant { naive, hoisted, blocked_free, blocked_mnk };
std::string_view to_string(MatmulVariant v);
// nullopt for "auto", "" and unknown names (callers check the name first).
std::optional<MatmulVariant> parse_matmul_variant(std::string_view s);
// "auto, naive, hoisted, blocked_free, blocked_mnk" for messages.
std::string_view matmul_variant_names();

// What happens to an output tile after accumulation (the MLP fuses its
// activation and gating multiply there).
enum class Epilogue { none, activation, multiply };

struct MatmulProblem {
    int64_t M = 0, K = 0, N = 0;
    DType dtype = DType::bf16;
    std::string layer_prefix = "matmul";
    std::string lhs = "lhsT";
    std::string rhs = "rhs";
    std::string out = "result";
    std::string epilogue_input = "act";  // multiply: the tensor the output is multiplied with
    std::string hlo = "%dot = dot(lhs, rhs)";
    DmaKind lhs_kind = DmaKind::hbm_read;
    DmaKind rhs_kind = DmaKind::weight_load;
    // Earliest time each input exists in HBM (a previous phase's output).
    Time lhs_ready = 0, rhs_ready = 0, epilogue_ready = 0;
    Epilogue epilogue = Epilogue::none;
    // A shard of a larger matmul (one physical core's part, sharding.h): its
    // first output tile row (M) and column (N) in the whole problem, and the
    // whole problem's M and N, the width of the operands' rows in HBM.  0:
    // the problem is whole.
    int64_t m_tile0 = 0, n_tile0 = 0;
    int64_t whole_M = 0, whole_N = 0;
};

// Tile geometry of a problem on a target.
struct MatmulGeometry {
    MatmulGeometry(const MatmulProblem& p, const CostModel& cost);
    int64_t M, K, N;
    int bits;        // input element bits
    int out_bytes;   // output element bytes (an MX matmul writes bf16)
    int pack;        // K rows per partition per pass
    int64_t k_tile;  // K rows per pass
    int64_t mt, kt, nt;
    bool mx;         // the operands carry block scales

    int64_t m_cols(int64_t m) const { return std::min(kStationaryMax, M - m * kStationaryMax); }
    int64_t n_cols(int64_t n) const { return std::min(kMovingMax, N - n * kMovingMax); }
    int64_t k_rows(int64_t k) const { return std::min(k_tile, K - k * k_tile); }
    int64_t k_parts(int64_t k) const { return (k_rows(k) + pack - 1) / pack; }
    // Bytes per partition of a K tile holding `cols` columns.
    int64_t row_bytes(int64_t cols) const { return cols * bits * pack / 8; }
    // An MX operand's block scales for K tile k: one byte per column for
    // every kMxBlockElements K rows, spread over the four SBUF quadrants
    // ([nki-v4]): partitions per quadrant, and bytes per partition.
    int64_t scale_rows(int64_t k) const { return ceil_div(ceil_div(k_rows(k), kMxBlockElements), kSbufQuadrants); }
    int64_t scale_bytes(int64_t cols) const { return cols * kMxScaleBits / 8; }
};

// A variant's SBUF plan and blocking for one problem.
struct MatmulPlan {
    MatmulVariant variant = MatmulVariant::naive;
    bool fits = false;
    std::string why_not;       // when !fits
    int64_t sbuf_bytes = 0;    // per partition, as planned
    double hbm_bytes = 0;      // bytes the variant moves to/from HBM
    // Blocking (tiles per block) for the blocked variants.
    int64_t tiles_m = 1, tiles_n = 1, tiles_k = 1;
    int64_t group_m = 0;       // blocked_mnk: output M tiles kept in SBUF at once
    // Generations of each buffer group (2 = double buffered).
    int gen_lhs = 1, gen_rhs = 1, gen_out = 1;
};

// The variant's plan with SBUF generations assigned greedily (double
// buffering the groups in a fixed order while they fit): enough to know
// whether it fits and what it moves.
MatmulPlan plan_matmul(const MatmulProblem& p, MatmulVariant v, const CostModel& cost);
// Every maximal assignment of buffer generations that fits, the greedy one first.
std::vector<MatmulPlan> matmul_plans(const MatmulProblem& p, MatmulVariant v, const CostModel& cost);
// The fastest of matmul_plans() (simulated without events when there is a
// choice), as a compiler allocating SBUF to minimise stalls would pick.
MatmulPlan best_matmul_plan(const MatmulProblem& p, MatmulVariant v, const CostModel& cost);

// Lowers the problem into the scheduler (lowering.h); its value is the
// completion time.  `p` and `plan` must outlive it.
Lowering lower_matmul(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan);

// The fastest variant that fits, as a compiler with this cost model would
// pick: each fitting variant is simulated (without events) unless its HBM
// traffic alone cannot beat the best one so far.  Ties keep the more blocked.
MatmulVariant choose_matmul_variant(const MatmulProblem& p, const CostModel& cost);

// The four kernels (matmul_kernels.cpp).
Lowering lower_matmul_naive(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan);
Lowering lower_matmul_hoisted(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan);
Lowering lower_matmul_blocked_free(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan);
Lowering lower_matmul_blocked_mnk(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan);

}  // namespace nx::model
