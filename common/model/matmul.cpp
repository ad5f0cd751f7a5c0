#include "common/model/matmul.h"

#include <cmath>

#include "common/model/scheduler.h"

namespace nx::model {

namespace {

// The blocking of the NKI tutorial's kernels.
constexpr int64_t kFreeBlockTilesM = 2;  // blocked_free: TILES_IN_BLOCK_M
constexpr int64_t kFreeBlockTilesN = 2;  // blocked_free: TILES_IN_BLOCK_N
constexpr int64_t kMnkBlockTilesM = 16;  // blocked_mnk: TILES_IN_BLOCK_M (BLOCK_M = 2048)
constexpr int64_t kMnkBlockTilesN = 2;   // blocked_mnk: TILES_IN_BLOCK_N (BLOCK_N = 1024)
constexpr int64_t kMnkBlockTilesK = 8;   // blocked_mnk: TILES_IN_BLOCK_K (BLOCK_K = 1024)
// Double buffering: a second generation of a buffer lets the next block's
// loads run while the current block computes.
constexpr int kDoubleBuffer = 2;

struct VariantName {
    MatmulVariant v;
    std::string_view name;
};
constexpr VariantName kVariants[] = {
    {MatmulVariant::naive, "naive"},
    {MatmulVariant::hoisted, "hoisted"},
    {MatmulVariant::blocked_free, "blocked_free"},
    {MatmulVariant::blocked_mnk, "blocked_mnk"},
};

}  // namespace

TileCounts matmul_tiles(int64_t M, int64_t K, int64_t N) {
    TileCounts t;
    t.M = ceil_div(M, kStationaryMax);
    t.K = ceil_div(K, kPartitions);
    t.N = ceil_div(N, kMovingMax);
    t.total = t.M * t.K * t.N;
    return t;
}

std::string_view to_string(MatmulVariant v) {
    for (const VariantName& n : kVariants)
        if (n.v == v) return n.name;
    return "naive";
}

std::optional<MatmulVariant> parse_matmul_variant(std::string_view s) {
    for (const VariantName& n : kVariants)
        if (n.name == s) return n.v;
    return std::nullopt;
}

std::string_view matmul_variant_names() { return "auto, naive, hoisted, blocked_free, blocked_mnk"; }

MatmulGeometry::MatmulGeometry(const MatmulProblem& p, const CostModel& cost)
    : M(p.M), K(p.K), N(p.N), bits(dtype_bits(p.dtype)), out_bytes(is_mx(p.dtype) ? dtype_bytes(DType::bf16) : dtype_bytes(p.dtype)),
      pack(cost.k_pack(p.dtype)), k_tile(cost.k_tile(p.dtype)), mt(ceil_div(p.M, kStationaryMax)),
      kt(ceil_div(p.K, cost.k_tile(p.dtype))), nt(ceil_div(p.N, kMovingMax)), mx(is_mx(p.dtype)) {}

MatmulPlan plan_matmul(const MatmulProblem& p, MatmulVariant v, const CostModel& cost) {
    return matmul_plans(p, v, cost).front();
}

std::vector<MatmulPlan> matmul_plans(const MatmulProblem& p, MatmulVariant v, const CostModel& cost) {
    MatmulGeometry g(p, cost);
    MatmulPlan plan;
    plan.variant = v;
    SbufPlan sbuf(cost.target().sbuf_bytes_per_partition());
    // An operand of K rows: its elements and, in an MX format, one scale
    // byte per column for every 32 rows.
    auto operand_bytes = [&](int64_t cols) {
        double scales = g.mx ? static_cast<double>(ceil_div(p.K, kMxBlockElements)) * static_cast<double>(cols) : 0;
        return static_cast<double>(p.K) * static_cast<double>(cols) * g.bits / 8 + scales;
    };
    // A K tile of `cols` columns per partition in SBUF, with its scales.
    auto tile_bytes = [&](int64_t cols) { return g.row_bytes(cols) + (g.mx ? g.scale_bytes(cols) : 0); };
    const double lhs_bytes = operand_bytes(p.M);
    const double rhs_bytes = operand_bytes(p.N);
    const double out_bytes = static_cast<double>(p.M) * static_cast<double>(p.N) * g.out_bytes;
    const double epi_bytes = p.epilogue == Epilogue::multiply ? out_bytes : 0;
    const int64_t mcol = std::min(p.M, kStationaryMax);
    const int64_t ncol = std::min(p.N, kMovingMax);
    // Output staging: the evacuated tile (and the gating input) before the store.
    const int64_t stage = ncol * g.out_bytes * (p.epilogue == Epilogue::multiply ? 2 : 1);

    int lhs_id = -1, rhs_id = -1, out_id = -1;
    switch (v) {
        case MatmulVariant::naive:
            // Both input tiles are loaded for every pass.
            lhs_id = sbuf.add("input tiles", tile_bytes(mcol) + tile_bytes(ncol), 1, kDoubleBuffer);
            out_id = sbuf.add("output tile", stage, 1, kDoubleBuffer);
            plan.hbm_bytes = static_cast<double>(g.nt) * lhs_bytes + static_cast<double>(g.mt) * rhs_bytes + out_bytes + epi_bytes;
            break;
        case MatmulVariant::hoisted:
            // A whole lhsT column (K x 128) per output row; a whole rhs column per output tile.
            lhs_id = sbuf.add("lhsT column", g.kt * tile_bytes(mcol), 1, kDoubleBuffer);
            rhs_id = sbuf.add("rhs column", g.kt * tile_bytes(ncol), 1, kDoubleBuffer);
            out_id = sbuf.add("output tile", stage, 1, kDoubleBuffer);
            plan.hbm_bytes = lhs_bytes + static_cast<double>(g.mt) * rhs_bytes + out_bytes + epi_bytes;
            break;
        case MatmulVariant::blocked_free:
            plan.tiles_m = std::min(kFreeBlockTilesM, g.mt);
            plan.tiles_n = std::min(kFreeBlockTilesN, g.nt);
            rhs_id = sbuf.add("rhs block", plan.tiles_n * g.kt * tile_bytes(ncol), 1, kDoubleBuffer);
            lhs_id = sbuf.add("lhsT block", plan.tiles_m * g.kt * tile_bytes(mcol), 1, kDoubleBuffer);
            out_id = sbuf.add("output tile", stage, 1, kDoubleBuffer);
            plan.hbm_bytes = lhs_bytes + static_cast<double>(ceil_div(g.mt, plan.tiles_m)) * rhs_bytes + out_bytes + epi_bytes;
            break;
        case MatmulVariant::blocked_mnk: {
            plan.tiles_m = std::min(kMnkBlockTilesM, g.mt);
            plan.tiles_n = std::min(kMnkBlockTilesN, g.nt);
            plan.tiles_k = std::min(kMnkBlockTilesK, g.kt);
            const int64_t block_m = std::min(p.M, plan.tiles_m * kStationaryMax);
            const int64_t block_n = std::min(p.N, plan.tiles_n * kMovingMax);
            const int64_t lhs_block = plan.tiles_k * tile_bytes(block_m);
            const int64_t rhs_block = plan.tiles_k * tile_bytes(block_n);
            const int64_t result_tile = block_n * g.out_bytes;  // one M tile's N block, accumulated in SBUF
            const int64_t stage_mnk = p.epilogue == Epilogue::multiply ? block_n * g.out_bytes : 0;
            // Keep all M tiles' results resident (the tutorial's layout) when
            // they fit; otherwise process M in groups of whole blocks that do.
            const double room = cost.target().sbuf_bytes_per_partition() - static_cast<double>(lhs_block + rhs_block) -
                                static_cast<double>(kDoubleBuffer * stage_mnk);
            int64_t group = g.mt;
            if (static_cast<double>(group * result_tile) > room) {
                int64_t blocks = static_cast<int64_t>(std::floor(room / static_cast<double>(plan.tiles_m * result_tile)));
                group = std::max<int64_t>(blocks, 1) * plan.tiles_m;
            }
            plan.group_m = std::min(group, g.mt);
            sbuf.add("result tiles", plan.group_m * result_tile, 1, 1);
            lhs_id = sbuf.add("lhsT block", lhs_block, 1, kDoubleBuffer);
            rhs_id = sbuf.add("rhs block", rhs_block, 1, kDoubleBuffer);
            if (stage_mnk > 0) out_id = sbuf.add("gating input", stage_mnk, 1, kDoubleBuffer);
            const double n_blocks = static_cast<double>(ceil_div(g.nt, plan.tiles_n));
            const double m_groups = static_cast<double>(ceil_div(g.mt, plan.group_m));
            plan.hbm_bytes = n_blocks * lhs_bytes + m_groups * rhs_bytes + out_bytes + epi_bytes;
            break;
        }
    }
    plan.fits = sbuf.settle();
    if (!plan.fits) {
        plan.why_not = sbuf.shortfall();
        plan.sbuf_bytes = sbuf.required();
        return {plan};
    }
    std::vector<MatmulPlan> plans;
    for (const std::vector<int>& gens : sbuf.maximal_assignments()) {
        MatmulPlan alt = plan;
        alt.sbuf_bytes = sbuf.bytes(gens);
        if (lhs_id >= 0) alt.gen_lhs = gens[static_cast<size_t>(lhs_id)];
        if (rhs_id >= 0) alt.gen_rhs = gens[static_cast<size_t>(rhs_id)];
        if (out_id >= 0) alt.gen_out = gens[static_cast<size_t>(out_id)];
        plans.push_back(alt);
    }
    return plans;
}

namespace {

// The problem on its own, starting at time 0: what a choice is judged on.
MatmulProblem standalone(const MatmulProblem& p) {
    MatmulProblem q = p;
    q.lhs_ready = q.rhs_ready = q.epilogue_ready = 0;
    return q;
}

}  // namespace

MatmulPlan best_matmul_plan(const MatmulProblem& problem, MatmulVariant v, const CostModel& cost) {
    const MatmulProblem p = standalone(problem);
    std::vector<MatmulPlan> plans = matmul_plans(p, v, cost);
    if (plans.size() == 1) return plans.front();
    size_t best = 0;
    Time best_time = INFINITY;
    for (size_t i = 0; i < plans.size(); ++i) {
        Scheduler sched(cost, nullptr);
        Time t = run_lowering(sched, lower_matmul(sched, p, plans[i]));
        if (t < best_time) {
            best_time = t;
            best = i;
        }
    }
    return plans[best];
}

Lowering lower_matmul(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan) {
    switch (plan.variant) {
        case MatmulVariant::naive: return lower_matmul_naive(s, p, plan);
        case MatmulVariant::hoisted: return lower_matmul_hoisted(s, p, plan);
        case MatmulVariant::blocked_free: return lower_matmul_blocked_free(s, p, plan);
        case MatmulVariant::blocked_mnk: break;
    }
    return lower_matmul_blocked_mnk(s, p, plan);
}

MatmulVariant choose_matmul_variant(const MatmulProblem& problem, const CostModel& cost) {
    const MatmulProblem p = standalone(problem);
    static constexpr MatmulVariant kPreference[] = {MatmulVariant::blocked_mnk, MatmulVariant::blocked_free,
                                                    MatmulVariant::hoisted, MatmulVariant::naive};
    MatmulVariant best = MatmulVariant::naive;
    Time best_time = INFINITY;
    for (MatmulVariant v : kPreference) {
        MatmulPlan plan = plan_matmul(p, v, cost);
        if (!plan.fits) continue;
        // HBM traffic at the sustained rate is a lower bound on the latency.
        if (plan.hbm_bytes / std::max(cost.hbm_bytes_per_ns(true), cost.hbm_bytes_per_ns(false)) >= best_time) continue;
        plan = best_matmul_plan(p, v, cost);
        Scheduler sched(cost, nullptr);
        Time t = run_lowering(sched, lower_matmul(sched, p, plan));
        if (t < best_time) {
            best_time = t;
            best = v;
        }
    }
    return best;
}

}  // namespace nx::model
