#include "common/model/mlp.h"

#include <stdexcept>

#include "common/model/scheduler.h"
#include "common/model/sharding.h"

namespace nx::model {

MatmulProblem mlp_gate_problem(const MlpSpec& spec) {
    MatmulProblem p;
    p.M = spec.intermediate;
    p.K = spec.hidden;
    p.N = spec.tokens;
    p.dtype = spec.dtype;
    p.layer_prefix = "mlp/gate_proj";
    p.lhs = "w_gate";
    p.rhs = "xT";
    p.out = "actT";
    p.hlo = "%gate = dot(x, w_gate)";
    p.lhs_kind = DmaKind::weight_load;
    p.rhs_kind = DmaKind::hbm_read;
    p.epilogue = Epilogue::activation;
    return p;
}

MatmulProblem mlp_up_problem(const MlpSpec& spec) {
    MatmulProblem p = mlp_gate_problem(spec);
    p.layer_prefix = "mlp/up_proj";
    p.lhs = "w_up";
    p.out = "hT";
    p.epilogue_input = "actT";
    p.hlo = "%up = multiply(%act, dot(x, w_up))";
    p.epilogue = Epilogue::multiply;
    return p;
}

MatmulProblem mlp_down_problem(const MlpSpec& spec) {
    MatmulProblem p;
    p.M = spec.tokens;
    p.K = spec.intermediate;
    p.N = spec.hidden;
    p.dtype = spec.dtype;
    p.layer_prefix = "mlp/down_proj";
    p.lhs = "hT";
    p.rhs = "w_down";
    p.out = "y";
    p.hlo = "%down = dot(%up, w_down)";
    p.lhs_kind = DmaKind::hbm_read;
    p.rhs_kind = DmaKind::weight_load;
    return p;
}

bool mlp_shards(const MlpSpec& spec, int lanes) {
    for (const MatmulProblem& p : {mlp_gate_problem(spec), mlp_up_problem(spec), mlp_down_problem(spec)})
        if (shard_matmul(p, lanes).size() > 1) return true;
    return false;
}

Lowering lower_mlp(Scheduler& s, const MlpSpec& spec, int lane, MlpOutcome& out) {
    const int lanes = s.lanes();
    const MatmulProblem whole[3] = {mlp_gate_problem(spec), mlp_up_problem(spec), mlp_down_problem(spec)};
    static constexpr const char* kNames[3] = {"gate", "up", "down"};
    Time prev_end = 0, gate_end = 0;
    for (int i = 0; i < 3; ++i) {
        // This lane's part of the projection, if it has one.
        std::vector<MatmulProblem> parts = shard_matmul(whole[i], lanes);
        if (i == 2 && lanes > 1) prev_end = co_await s.core_barrier(prev_end);
        if (static_cast<size_t>(lane) >= parts.size()) continue;
        MatmulProblem p = parts[static_cast<size_t>(lane)];
        // The up projection's gating input is the gate phase's output; the
        // down projection reads the up phase's output (all of it: after the
        // barrier when the lanes made it in parts).
        if (i == 1) p.epilogue_ready = gate_end;
        if (i == 2) p.lhs_ready = prev_end;
        MatmulVariant v = spec.variant ? *spec.variant : choose_matmul_variant(p, s.cost());
        MatmulPlan plan = best_matmul_plan(p, v, s.cost());
        if (!plan.fits) throw std::logic_error("model: mlp phase plan does not fit (validated before)");
        Time end = co_await lower_matmul(s, p, plan);
        if (i == 0) gate_end = end;
        prev_end = std::max(prev_end, end);
        if (!out.variant.empty()) out.variant += ',';
        out.variant += kNames[i];
        out.variant += '=';
        out.variant += to_string(v);
        out.sbuf_bytes = std::max(out.sbuf_bytes, static_cast<double>(plan.sbuf_bytes));
    }
    out.end = prev_end;
    out.tiles = matmul_tiles(spec.tokens, spec.hidden, spec.intermediate);
    co_return prev_end;
}

}  // namespace nx::model
