// The four matmul kernels of the NKI matmul tutorial, as instruction streams:
//
//   naive        for m, n: for k: load lhsT[k,m] and rhs[k,n]; matmul into PSUM
//   hoisted      for m: load lhsT[:,m]; for n: load rhs[:,n]; for k: matmul
//   blocked_free for 2 m tiles: load lhsT; for 2 n tiles: load rhs; matmuls
//   blocked_mnk  for N blocks (1024): for K blocks (1024, sequential): load the
//                rhs block; for M blocks (2048): load the lhsT block; matmul
//                every tile pair, add PSUM into SBUF result tiles; store
//
// Buffers are tracked per tile slot: a load waits until the slot's previous
// occupant was last read (write-after-read), a consumer waits for its load
// (read-after-write), a matmul group waits for its PSUM bank to be evacuated.
// With two generations of a buffer (double buffering), the next block's loads
// overlap the current block's matmuls.  Where the Sync engine triggers the
// stores (StorePipeline), a tile's store goes after the loads that the input
// buffers' spare generations let run ahead; each lowering tells the pipeline
// when it has issued a group of loads (an operand block, a gating tile).
#include <string>
#include <vector>

#include "common/model/lowering.h"
#include "common/model/matmul.h"
#include "common/model/scheduler.h"
#include "common/model/store_pipeline.h"

namespace nx::model {

namespace {

// A ring of buffer slots, each remembering when its last reader finished.
class SlotRing {
public:
    explicit SlotRing(int64_t n) : free_(static_cast<size_t>(std::max<int64_t>(n, 1)), 0.0) {}
    int64_t take() {
        int64_t s = next_;
        next_ = (next_ + 1) % static_cast<int64_t>(free_.size());
        return s;
    }
    Time ready(int64_t slot) const { return free_[static_cast<size_t>(slot)]; }
    void release(int64_t slot, Time t) { free_[static_cast<size_t>(slot)] = t; }
    const std::vector<Time>& tokens() const { return free_; }

private:
    std::vector<Time> free_;
    int64_t next_ = 0;
};

// What every kernel needs: the scheduler, the problem and its geometry, and
// the names its events carry.
struct Kernel {
    Kernel(Scheduler& sched, const MatmulProblem& prob, const MatmulPlan& pl, int loads_ahead)
        : s(sched), p(prob), plan(pl), g(prob, sched.cost()), cost(sched.cost()),
          stores(sched, evac_unit(), loads_ahead) {
        EventStream& es = s.stream();
        lhs = es.name(p.lhs);
        rhs = es.name(p.rhs);
        out = es.name(p.out);
        epi = es.name(p.epilogue_input);
        hlo = es.name(p.hlo);
        if (g.mx) {
            lhs_scale = es.name(p.lhs + "_scale");
            rhs_scale = es.name(p.rhs + "_scale");
        }
        // A shard's tiles are named by their place in the whole problem, in
        // the units the variant indexes its loads by (blocked_mnk: blocks).
        const bool blocks = plan.variant == MatmulVariant::blocked_mnk;
        m0 = blocks ? p.m_tile0 / std::max<int64_t>(plan.tiles_m, 1) : p.m_tile0;
        n0 = blocks ? p.n_tile0 / std::max<int64_t>(plan.tiles_n, 1) : p.n_tile0;
        whole_M = p.whole_M > 0 ? p.whole_M : g.M;
        whole_N = p.whole_N > 0 ? p.whole_N : g.N;
    }

    uint32_t layer(const char* what, int64_t a, const char* what2 = nullptr, int64_t b = 0) {
        if (!s.tracing()) return kNoLayer;
        std::string name = p.layer_prefix;
        name += '/';
        name += what;
        name += std::to_string(a);
        if (what2) {
            name += what2;
            name += std::to_string(b);
        }
        return s.stream().layer(name);
    }

    Time load_lhs(int64_t k, int64_t col, int64_t cols, Time ready, uint32_t lay) {
        return load(p.lhs_kind, lhs, lhs_scale, k, m0 + col, cols, whole_M, ready, lay);
    }
    Time load_rhs(int64_t k, int64_t col, int64_t cols, Time ready, uint32_t lay) {
        return load(p.rhs_kind, rhs, rhs_scale, k, n0 + col, cols, whole_N, ready, lay);
    }
    // A K tile of `cols` of an operand `width` columns wide, and in an MX
    // format its block scales, a tensor of their own loaded beside it: the
    // matmul waits for both.
    Time load(DmaKind kind, uint16_t tensor, uint16_t scale, int64_t k, int64_t col, int64_t cols, int64_t width,
              Time ready, uint32_t lay) {
        Transfer t;
        t.partitions = g.k_parts(k);
        t.row_bytes = g.row_bytes(cols);
        t.kind = kind;
        t.ready = ready;
        t.layer = lay;
        // Contiguous only when the tile spans whole rows of its operand.
        t.strided = cols < width;
        t.tensor = TensorRef{tensor, 0, static_cast<int32_t>(k), static_cast<int32_t>(col)};
        Time done = s.dma(t);
        if (!g.mx) return done;
        t.quadrant_rows = g.scale_rows(k);
        t.row_bytes = g.scale_bytes(cols);
        t.tensor.name = scale;
        return std::max(done, s.dma(t));
    }

    Time mm(Time stat, Time mov, Time bank, int64_t k, int64_t mc, int64_t nc, uint32_t lay) {
        return s.matmul(MatmulInstr{.stationary_ready = stat, .moving_ready = mov, .psum_ready = bank,
                                    .k_rows = g.k_rows(k), .m_cols = mc, .n_cols = nc, .dtype = p.dtype,
                                    .layer = lay, .hlo = hlo});
    }

    Time vector(Op op, int64_t elems, int inputs, Time ready, uint32_t lay, int64_t rows) {
        return vector_lasting(op, cost.vector_ns(elems, inputs), elems, ready, lay, rows);
    }
    Time vector_lasting(Op op, Time dur, int64_t elems, Time ready, uint32_t lay, int64_t rows) {
        return compute(kTrackVector, op, dur, ready, lay, rows * elems);
    }

    // A VectorE tensor_tensor priced by where its inputs live: a matmul
    // result read straight from PSUM beside an SBUF tile costs N cycles,
    // two SBUF tiles 2N ([nki-tt]).
    Time tensor_tensor(int64_t elems, TensorTensorInputs where, Time ready, uint32_t lay, int64_t rows) {
        return vector_lasting(Op::tensor_tensor, cost.tensor_tensor_ns(elems, where), elems, ready, lay, rows);
    }

    Time scalar(Op op, int64_t elems, Time ready, uint32_t lay, int64_t rows) {
        return compute(kTrackScalar, op, cost.scalar_ns(elems), ready, lay, rows * elems);
    }

    // One instruction on `unit` lasting dur that writes `written` output
    // elements to SBUF.
    Time compute(int unit, Op op, Time dur, Time ready, uint32_t lay, int64_t written) {
        return s.run(Instr{.unit = unit, .op = op, .dur = dur, .ready = ready, .layer = lay, .hlo = hlo,
                           .sbuf_write = written * g.out_bytes});
    }

    // Queues the store of an output tile; `stored` gets its completion.
    uint64_t store(int64_t rows, int64_t cols, Time ready, int64_t m, int64_t n, uint32_t lay,
                   std::function<void(Time)> stored) {
        Transfer t;
        t.partitions = rows;
        t.row_bytes = cols * g.out_bytes;
        t.kind = DmaKind::hbm_write;
        t.ready = ready;
        t.layer = lay;
        t.strided = cols < whole_N;
        t.tensor = TensorRef{out, 0, static_cast<int32_t>(m + p.m_tile0), static_cast<int32_t>(n + n0)};
        return stores.store(t, std::move(stored));
    }

    Time load_gating(int64_t rows, int64_t cols, Time ready, int64_t m, int64_t n, uint32_t lay) {
        Transfer t;
        t.partitions = rows;
        t.row_bytes = cols * g.out_bytes;
        t.kind = DmaKind::hbm_read;
        t.ready = std::max(ready, p.epilogue_ready);
        t.layer = lay;
        t.strided = cols < whole_N;
        t.tensor = TensorRef{epi, 0, static_cast<int32_t>(m + p.m_tile0), static_cast<int32_t>(n + n0)};
        const Time done = s.dma(t);
        stores.loads_issued();
        return done;
    }

    // The unit that evacuates PSUM (and triggers the store).
    int evac_unit() const { return p.epilogue == Epilogue::activation ? kTrackScalar : kTrackVector; }

    // Dependencies every kernel holds across iterations: the output staging
    // slots, the stores not yet issued and the problem's input readiness (the
    // scheduler holds PSUM's).
    Floor floor(const SlotRing& stage) const {
        Floor f(s);
        f.hold_all(stage.tokens(), evac_unit());
        f.hold(p.lhs_ready, kTrackSync).hold(p.rhs_ready, kTrackSync).hold(p.epilogue_ready, kTrackSync);
        stores.hold(f);
        return f;
    }

    // Evacuates a finished PSUM tile to SBUF (fusing the epilogue: ScalarE
    // applies the activation on the way; VectorE multiplies by the gating
    // input) and stores it.
    void finish_tile(int64_t m, int64_t n, int64_t mc, int64_t nc, Time mm_end, int64_t bank, SlotRing& stage, uint32_t lay) {
        // The slot's previous tile must have been stored.
        stores.keep_at_most(static_cast<size_t>(plan.gen_out - 1));
        int64_t slot = stage.take();
        Time slot_ready = stage.ready(slot);
        Time evac;
        switch (p.epilogue) {
            case Epilogue::activation:
                evac = scalar(Op::activation, nc, std::max(mm_end, slot_ready), lay, mc);
                break;
            case Epilogue::multiply: {
                Time in = load_gating(mc, nc, slot_ready, m, n, lay);
                // The product reads the matmul's PSUM result beside the gate.
                evac = tensor_tensor(nc, TensorTensorInputs::one_in_psum, std::max(mm_end, in), lay, mc);
                break;
            }
            case Epilogue::none:
            default:
                evac = vector(Op::tensor_copy, nc, 1, std::max(mm_end, slot_ready), lay, mc);
                break;
        }
        s.psum_release(bank, evac);
        store(mc, nc, evac, m, n, lay, [&stage, slot](Time st) { stage.release(slot, st); });
    }

    Scheduler& s;
    const MatmulProblem& p;
    const MatmulPlan& plan;
    MatmulGeometry g;
    const CostModel& cost;
    uint16_t lhs = 0, rhs = 0, out = 0, epi = 0, hlo = 0, lhs_scale = 0, rhs_scale = 0;
    int64_t m0 = 0, n0 = 0, whole_M = 0, whole_N = 0;
    StorePipeline stores;
};

}  // namespace

Lowering lower_matmul_naive(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan) {
    Kernel c(s, p, plan, plan.gen_lhs - 1);
    SlotRing tiles(plan.gen_lhs);
    SlotRing stage(plan.gen_out);
    for (int64_t m = 0; m < c.g.mt; ++m) {
        for (int64_t n = 0; n < c.g.nt; ++n) {
            co_await s.floor(c.floor(stage).hold_all(tiles.tokens(), kTrackSync).value());
            const int64_t mc = c.g.m_cols(m), nc = c.g.n_cols(n);
            uint32_t lay = c.layer("block_m", m, "_n", n);
            int64_t bank = s.psum_take();
            Time mm_end = 0;
            for (int64_t k = 0; k < c.g.kt; ++k) {
                int64_t slot = tiles.take();
                Time lhs = c.load_lhs( k, m, mc, std::max(tiles.ready(slot), p.lhs_ready), lay);
                Time rhs = c.load_rhs( k, n, nc, std::max(tiles.ready(slot), p.rhs_ready), lay);
                mm_end = c.mm(lhs, rhs, k == 0 ? s.psum_ready(bank) : 0, k, mc, nc, lay);
                tiles.release(slot, mm_end);
            }
            c.stores.loads_issued();
            c.finish_tile(m, n, mc, nc, mm_end, bank, stage, lay);
        }
    }
    co_return c.stores.finish();
}

Lowering lower_matmul_hoisted(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan) {
    Kernel c(s, p, plan, plan.gen_lhs - 1 + plan.gen_rhs - 1);
    const int64_t kt = c.g.kt;
    std::vector<Time> lhs_free(static_cast<size_t>(plan.gen_lhs * kt), 0.0), rhs_free(static_cast<size_t>(plan.gen_rhs * kt), 0.0);
    std::vector<Time> lhs_done(static_cast<size_t>(kt)), lhs_last(static_cast<size_t>(kt)), rhs_done(static_cast<size_t>(kt));
    SlotRing stage(plan.gen_out);
    int64_t rhs_gen = 0;
    for (int64_t m = 0; m < c.g.mt; ++m) {
        co_await s.floor(c.floor(stage).hold_all(lhs_free, kTrackSync).hold_all(rhs_free, kTrackSync).value());
        const int64_t mc = c.g.m_cols(m);
        const size_t gl = static_cast<size_t>((m % plan.gen_lhs) * kt);
        uint32_t lay = c.layer("block_m", m);
        for (int64_t k = 0; k < kt; ++k) {
            size_t i = static_cast<size_t>(k);
            lhs_done[i] = c.load_lhs( k, m, mc, std::max(lhs_free[gl + i], p.lhs_ready), lay);
            lhs_last[i] = 0;
        }
        c.stores.loads_issued();
        for (int64_t n = 0; n < c.g.nt; ++n) {
            co_await s.floor(c.floor(stage)
                            .hold_all(lhs_free, kTrackSync)
                            .hold_all(rhs_free, kTrackSync)
                            .hold_all(lhs_done, kTrackTensor)
                            .hold_all(lhs_last, kTrackSync)
                            .value());
            const int64_t nc = c.g.n_cols(n);
            const size_t gr = static_cast<size_t>((rhs_gen++ % plan.gen_rhs) * kt);
            lay = c.layer("block_m", m, "_n", n);
            for (int64_t k = 0; k < kt; ++k) {
                size_t i = static_cast<size_t>(k);
                rhs_done[i] = c.load_rhs( k, n, nc, std::max(rhs_free[gr + i], p.rhs_ready), lay);
            }
            c.stores.loads_issued();
            int64_t bank = s.psum_take();
            Time mm_end = 0;
            for (int64_t k = 0; k < kt; ++k) {
                size_t i = static_cast<size_t>(k);
                mm_end = c.mm(lhs_done[i], rhs_done[i], k == 0 ? s.psum_ready(bank) : 0, k, mc, nc, lay);
                rhs_free[gr + i] = mm_end;
                lhs_last[i] = mm_end;
            }
            c.finish_tile(m, n, mc, nc, mm_end, bank, stage, lay);
        }
        for (int64_t k = 0; k < kt; ++k) lhs_free[gl + static_cast<size_t>(k)] = lhs_last[static_cast<size_t>(k)];
    }
    co_return c.stores.finish();
}

Lowering lower_matmul_blocked_free(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan) {
    Kernel c(s, p, plan, plan.gen_lhs - 1 + plan.gen_rhs - 1);
    const int64_t kt = c.g.kt, TM = plan.tiles_m, TN = plan.tiles_n;
    auto idx = [kt](int64_t gen, int64_t tiles, int64_t t, int64_t k) { return static_cast<size_t>((gen * tiles + t) * kt + k); };
    std::vector<Time> lhs_free(static_cast<size_t>(plan.gen_lhs * TM * kt), 0.0);
    std::vector<Time> rhs_free(static_cast<size_t>(plan.gen_rhs * TN * kt), 0.0);
    std::vector<Time> lhs_done(static_cast<size_t>(TM * kt)), lhs_last(static_cast<size_t>(TM * kt));
    std::vector<Time> rhs_done(static_cast<size_t>(TN * kt));
    SlotRing stage(plan.gen_out);
    int64_t rhs_gen = 0;
    auto floor = [&]() {
        return c.floor(stage)
            .hold_all(lhs_free, kTrackSync)
            .hold_all(rhs_free, kTrackSync)
            .hold_all(lhs_done, kTrackTensor)
            .hold_all(lhs_last, kTrackSync)
            .value();
    };
    for (int64_t mb = 0; mb * TM < c.g.mt; ++mb) {
        co_await s.floor(floor());
        const int64_t tm = std::min(TM, c.g.mt - mb * TM);
        const int64_t gl = mb % plan.gen_lhs;
        uint32_t lay = c.layer("block_m", mb);
        for (int64_t bm = 0; bm < tm; ++bm) {
            int64_t m = mb * TM + bm;
            for (int64_t k = 0; k < kt; ++k) {
                lhs_done[idx(0, TM, bm, k)] =
                    c.load_lhs( k, m, c.g.m_cols(m), std::max(lhs_free[idx(gl, TM, bm, k)], p.lhs_ready), lay);
                lhs_last[idx(0, TM, bm, k)] = 0;
            }
        }
        c.stores.loads_issued();
        for (int64_t nb = 0; nb * TN < c.g.nt; ++nb) {
            co_await s.floor(floor());
            const int64_t tn = std::min(TN, c.g.nt - nb * TN);
            const int64_t gr = rhs_gen++ % plan.gen_rhs;
            lay = c.layer("block_m", mb, "_n", nb);
            for (int64_t bn = 0; bn < tn; ++bn) {
                int64_t n = nb * TN + bn;
                for (int64_t k = 0; k < kt; ++k)
                    rhs_done[idx(0, TN, bn, k)] =
                        c.load_rhs( k, n, c.g.n_cols(n), std::max(rhs_free[idx(gr, TN, bn, k)], p.rhs_ready), lay);
            }
            c.stores.loads_issued();
            for (int64_t bm = 0; bm < tm; ++bm) {
                for (int64_t bn = 0; bn < tn; ++bn) {
                    const int64_t m = mb * TM + bm, n = nb * TN + bn;
                    const int64_t mc = c.g.m_cols(m), nc = c.g.n_cols(n);
                    int64_t bank = s.psum_take();
                    Time mm_end = 0;
                    for (int64_t k = 0; k < kt; ++k) {
                        mm_end = c.mm(lhs_done[idx(0, TM, bm, k)], rhs_done[idx(0, TN, bn, k)],
                                      k == 0 ? s.psum_ready(bank) : 0, k, mc, nc, lay);
                        rhs_free[idx(gr, TN, bn, k)] = mm_end;
                        lhs_last[idx(0, TM, bm, k)] = mm_end;
                    }
                    c.finish_tile(m, n, mc, nc, mm_end, bank, stage, lay);
                }
            }
        }
        for (int64_t bm = 0; bm < tm; ++bm)
            for (int64_t k = 0; k < kt; ++k) lhs_free[idx(gl, TM, bm, k)] = lhs_last[idx(0, TM, bm, k)];
    }
    co_return c.stores.finish();
}

Lowering lower_matmul_blocked_mnk(Scheduler& s, const MatmulProblem& p, const MatmulPlan& plan) {
    Kernel c(s, p, plan, plan.gen_lhs - 1 + plan.gen_rhs - 1);
    const MatmulGeometry& g = c.g;
    const int64_t TM = plan.tiles_m, TN = plan.tiles_n, TK = plan.tiles_k, group = plan.group_m;
    std::vector<Time> lhs_free(static_cast<size_t>(plan.gen_lhs * TK), 0.0), rhs_free(static_cast<size_t>(plan.gen_rhs * TK), 0.0);
    std::vector<Time> lhs_done(static_cast<size_t>(TK)), rhs_done(static_cast<size_t>(TK));
    std::vector<Time> lhs_last(static_cast<size_t>(TK)), rhs_last(static_cast<size_t>(TK));
    // Result tiles of the current M group: when each slot was last stored
    // (write-after-read) and when each (tile, n tile) was last accumulated.
    std::vector<Time> res_free(static_cast<size_t>(group), 0.0), res_ready(static_cast<size_t>(group * TN), 0.0);
    // The store that frees each result tile, while it may not be issued yet.
    std::vector<uint64_t> res_store(static_cast<size_t>(group), 0);
    SlotRing stage(plan.gen_out);
    int64_t lhs_gen = 0, rhs_gen = 0;
    auto floor = [&]() {
        return c.floor(stage)
            .hold_all(lhs_free, kTrackSync)
            .hold_all(rhs_free, kTrackSync)
            .hold_all(res_free, kTrackVector)
            .hold_all(res_ready, kTrackVector)
            .hold_all(res_ready, c.evac_unit())
            .value();
    };
    for (int64_t nb = 0; nb * TN < g.nt; ++nb) {
        const int64_t tn = std::min(TN, g.nt - nb * TN);
        const int64_t block_n = std::min(g.N - nb * TN * kMovingMax, TN * kMovingMax);
        for (int64_t gm = 0; gm < g.mt; gm += group) {
            co_await s.floor(floor());
            const int64_t gt = std::min(group, g.mt - gm);
            // Result tiles are zeroed just before their first accumulation (the
            // tutorial splits them per M tile so memset, matmul, add and store
            // pipeline), each once its previous contents were stored.
            std::vector<bool> zeroed(static_cast<size_t>(gt), false);
            for (int64_t kb = 0; kb * TK < g.kt; ++kb) {
                co_await s.floor(floor());
                const int64_t tk = std::min(TK, g.kt - kb * TK);
                const size_t gr = static_cast<size_t>((rhs_gen++ % plan.gen_rhs) * TK);
                uint32_t lay = c.layer("block_k", kb, "_n", nb);
                for (int64_t t = 0; t < tk; ++t) {
                    const int64_t k = kb * TK + t;
                    rhs_done[static_cast<size_t>(t)] =
                        c.load_rhs( k, nb, block_n, std::max(rhs_free[gr + static_cast<size_t>(t)], p.rhs_ready), lay);
                }
                c.stores.loads_issued();
                for (int64_t m0 = gm; m0 < gm + gt; m0 += TM) {
                    const int64_t tm = std::min(TM, gm + gt - m0);
                    const int64_t mb = m0 / TM;
                    const int64_t block_m = std::min(g.M - m0 * kStationaryMax, tm * kStationaryMax);
                    const size_t gl = static_cast<size_t>((lhs_gen++ % plan.gen_lhs) * TK);
                    lay = c.layer("block_m", mb, "_n", nb);
                    for (int64_t t = 0; t < tk; ++t) {
                        const int64_t k = kb * TK + t;
                        lhs_done[static_cast<size_t>(t)] =
                            c.load_lhs( k, mb, block_m, std::max(lhs_free[gl + static_cast<size_t>(t)], p.lhs_ready), lay);
                    }
                    c.stores.loads_issued();
                    for (int64_t bn = 0; bn < tn; ++bn) {
                        const int64_t nc = g.n_cols(nb * TN + bn);
                        for (int64_t bm = 0; bm < tm; ++bm) {
                            const int64_t m = m0 + bm, mc = g.m_cols(m);
                            const size_t ri = static_cast<size_t>((m - gm) * TN + bn);
                            int64_t bank = s.psum_take();
                            Time mm_end = 0;
                            for (int64_t t = 0; t < tk; ++t) {
                                mm_end = c.mm(lhs_done[static_cast<size_t>(t)], rhs_done[static_cast<size_t>(t)],
                                              t == 0 ? s.psum_ready(bank) : 0, kb * TK + t, mc, nc, lay);
                                lhs_last[static_cast<size_t>(t)] = mm_end;
                                rhs_last[static_cast<size_t>(t)] = mm_end;
                            }
                            if (!zeroed[static_cast<size_t>(m - gm)]) {
                                zeroed[static_cast<size_t>(m - gm)] = true;
                                c.stores.issue_through(res_store[static_cast<size_t>(m - gm)]);
                                Time zero = c.vector(Op::memset, block_n, 0, res_free[static_cast<size_t>(m - gm)], lay, mc);
                                for (int64_t b2 = 0; b2 < tn; ++b2) res_ready[static_cast<size_t>((m - gm) * TN + b2)] = zero;
                            }
                            // Accumulate the PSUM partial sum into the SBUF result tile.
                            Time add = c.tensor_tensor(nc, TensorTensorInputs::one_in_psum,
                                                       std::max(mm_end, res_ready[ri]), lay, mc);
                            s.psum_release(bank, add);
                            res_ready[ri] = add;
                        }
                    }
                    for (int64_t t = 0; t < tk; ++t) lhs_free[gl + static_cast<size_t>(t)] = lhs_last[static_cast<size_t>(t)];
                }
                for (int64_t t = 0; t < tk; ++t) rhs_free[gr + static_cast<size_t>(t)] = rhs_last[static_cast<size_t>(t)];
            }
            // Epilogue and store, one M tile's N block at a time.
            for (int64_t i = 0; i < gt; ++i) {
                const int64_t m = gm + i, mc = g.m_cols(m);
                uint32_t lay = c.layer("block_m", m / TM, "_n", nb);
                Time ready = 0;
                for (int64_t bn = 0; bn < tn; ++bn) ready = std::max(ready, res_ready[static_cast<size_t>(i * TN + bn)]);
                if (p.epilogue == Epilogue::activation) {
                    ready = c.scalar(Op::activation, block_n, ready, lay, mc);
                } else if (p.epilogue == Epilogue::multiply) {
                    int64_t slot = stage.take();
                    Time in = c.load_gating(mc, block_n, stage.ready(slot), m, nb, lay);
                    ready = c.vector(Op::tensor_tensor, block_n, 2, std::max(ready, in), lay, mc);
                    stage.release(slot, ready);
                }
                Time& freed = res_free[static_cast<size_t>(i)];
                res_store[static_cast<size_t>(i)] = c.store(mc, block_n, ready, m, nb, lay, [&freed](Time st) { freed = st; });
            }
        }
    }
    co_return c.stores.finish();
}

}  // namespace nx::model
