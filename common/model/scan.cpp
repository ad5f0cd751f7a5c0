#include "common/model/scan.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "common/model/kernel_emitter.h"
#include "common/model/scheduler.h"

namespace nx::model {

namespace {

// The tutorial's v3 sequence tile ("decided through empirical profiling").
constexpr int64_t kSeqTile = 512;
// Per step: deltaA, deltaBu, the scan and scan*C live until the step's
// accumulation; these are what spill first (the resident inputs and the
// accumulator are reused by every state).
constexpr int64_t kStepIntermediates = 4;
// Buffers rotate over two generations so a step's loads and broadcasts
// overlap the previous step's VectorE chain.
constexpr int kGenerations = 2;

}  // namespace

ScanGeometry scan_geometry(const ScanSpec& spec, const CostModel& cost) {
    ScanGeometry g;
    g.channel_tiles = ceil_div(spec.channels, kPartitions);
    g.seq_tile = spec.version == 3 ? std::min(kSeqTile, spec.seq) : spec.seq;
    g.seq_tiles = ceil_div(spec.seq, g.seq_tile);
    g.steps = spec.batch * g.channel_tiles * spec.state * g.seq_tiles;
    // Per step deltaBu, the scan, scan*C and the accumulation; delta*u per
    // step in v1, per tile and sequence tile in v2/v3 (hoisted).
    const int64_t delta_u = spec.version == 1 ? g.steps : spec.batch * g.channel_tiles * g.seq_tiles;
    g.vector_instructions = 4 * g.steps + delta_u;
    const double b = dtype_bytes(spec.dtype);
    const double L = static_cast<double>(g.seq_tile), S = static_cast<double>(spec.seq);
    // Resident: v1 keeps every tile's accumulator and one step's delta, u
    // and delta*u; v2/v3 keep the tile's delta, u, delta*u and accumulator.
    const double resident = spec.version == 1 ? (static_cast<double>(g.channel_tiles) * S + 3 * L) * b : 4 * S * b;
    const double step = kStepIntermediates * L * b;
    const double have = cost.target().sbuf_bytes_per_partition();
    g.sbuf_bytes = resident + step;
    if (g.sbuf_bytes > have) {
        const double over = g.sbuf_bytes - have;
        g.spilled = std::min<int64_t>(static_cast<int64_t>(std::ceil(over / (L * b))), kStepIntermediates + 1);
    }
    return g;
}

ScanOutcome lower_scan(Scheduler& s, const ScanSpec& spec) {
    KernelEmitter e(s, spec.dtype);
    e.hlo = s.stream().name("%mamba_v" + std::to_string(spec.version));
    const ScanGeometry g = scan_geometry(spec, s.cost());
    auto name = [&](const char* n) { return s.stream().name(n); };
    const uint16_t delta_n = name("delta"), u_n = name("u"), a_n = name("A"), b_n = name("B"), c_n = name("C"),
                   out_n = name("output"), spill_n = name("spill");
    auto layer = [&](const std::string& n) {
        if (s.tracing()) e.layer = s.stream().layer("mamba/" + n);
    };
    const bool v1 = spec.version == 1;

    // A [1, L] row broadcast over cp partitions: one TensorE pass against a
    // row of ones per PSUM bank of columns.
    std::array<Time, kGenerations> bank_free{};
    auto broadcast = [&](int64_t cp, int64_t L, Time ready, int gen) {
        Time done = ready;
        for (int64_t c0 = 0; c0 < L; c0 += kMovingMax) {
            MatmulInstr mm;
            mm.op = Op::partition_broadcast;
            mm.stationary_ready = ready;
            mm.moving_ready = ready;
            mm.psum_ready = bank_free[static_cast<size_t>(gen)];
            mm.k_rows = 1;
            mm.m_cols = cp;
            mm.n_cols = std::min(kMovingMax, L - c0);
            mm.dtype = spec.dtype;
            mm.layer = e.layer;
            mm.hlo = e.hlo;
            done = std::max(done, s.matmul(mm));
        }
        return done;
    };
    // An intermediate that does not fit: stored after it is made, reloaded
    // before it is used.
    int64_t spill_id = 0;
    auto through_hbm = [&](Time made, int producer, int64_t cp, int64_t L) {
        const Time w = e.dma(DmaKind::hbm_write, spill_n, cp, L, made, spill_id, 0, producer);
        return e.dma(DmaKind::hbm_read, spill_n, cp, L, w, spill_id++, 0, kTrackSync);
    };

    std::array<Time, kGenerations> in_free{}, small_free{}, res_free{};
    int gen = 0;
    Time end = 0;
    for (int64_t b = 0; b < spec.batch; ++b) {
        // Per channel tile: its accumulator, its resident delta/u, and per
        // sequence tile the hoisted delta*u and the scan's carried column.
        std::vector<Time> acc(static_cast<size_t>(g.channel_tiles * g.seq_tiles), 0.0);
        std::vector<Time> resident(static_cast<size_t>(g.channel_tiles), 0.0);
        std::vector<Time> delta_u(static_cast<size_t>(g.channel_tiles * g.seq_tiles), 0.0);
        auto step = [&](int64_t c, int64_t st) {
            const int64_t cp = std::min(kPartitions, spec.channels - c * kPartitions);
            layer("b" + std::to_string(b) + "_c" + std::to_string(c) + "_s" + std::to_string(st));
            s.set_floor(Floor(s)
                            .hold_all(in_free, kTrackSync)
                            .hold_all(small_free, kTrackSync)
                            .hold_all(res_free, kTrackSync)
                            .hold(0, kTrackVector)
                            .hold(0, kTrackScalar)
                            .hold(0, kTrackTensor)
                            .hold(0, kTrackTensorMatrix)
                            .value());
            if (!v1 && st == 0) {
                // v2/v3: delta and u once per tile, the whole sequence.
                const Time slot = res_free[static_cast<size_t>(c % kGenerations)];
                const Time d = e.dma(DmaKind::hbm_read, delta_n, cp, spec.seq, slot, c, b);
                const Time u = e.dma(DmaKind::hbm_read, u_n, cp, spec.seq, slot, c, b);
                resident[static_cast<size_t>(c)] = std::max(d, u);
            }
            const Time a = e.dma(DmaKind::hbm_read, a_n, cp, 1, small_free[static_cast<size_t>(gen)], c, st);
            Time carry = 0;  // the scan's last column, carried across sequence tiles
            Time last_read = 0;
            for (int64_t t = 0; t < g.seq_tiles; ++t) {
                const int64_t L = std::min(g.seq_tile, spec.seq - t * g.seq_tile);
                const size_t ct = static_cast<size_t>(c * g.seq_tiles + t);
                Time du;
                Time inputs;
                if (v1) {
                    // v1: delta and u reloaded for every state.
                    const Time d = e.dma(DmaKind::hbm_read, delta_n, cp, L, in_free[static_cast<size_t>(gen)], c, b);
                    const Time u = e.dma(DmaKind::hbm_read, u_n, cp, L, in_free[static_cast<size_t>(gen)], c, b);
                    inputs = std::max(d, u);
                    du = e.vec(Op::tensor_tensor, cp, L, 2, inputs);
                } else {
                    inputs = resident[static_cast<size_t>(c)];
                    if (st == 0) delta_u[ct] = e.vec(Op::tensor_tensor, cp, L, 2, inputs);
                    du = delta_u[ct];
                }
                const Time bl = e.dma(DmaKind::hbm_read, b_n, 1, L, small_free[static_cast<size_t>(gen)], st, t);
                const Time cl = e.dma(DmaKind::hbm_read, c_n, 1, L, small_free[static_cast<size_t>(gen)], st, t);
                const Time bb = broadcast(cp, L, bl, gen);
                const Time cb = broadcast(cp, L, cl, gen);
                int64_t spills = g.spilled;
                auto kept = [&](Time made, int producer) {
                    return spills-- > 0 ? through_hbm(made, producer, cp, L) : made;
                };
                const Time da = kept(e.act(Op::activation, cp, L, std::max(inputs, a)), kTrackScalar);
                // deltaBu and scan*C read B and C straight from the broadcasts'
                // PSUM banks: N VectorE cycles, not 2N ([nki-tt]).
                const Time dbu =
                    kept(e.tensor_tensor(cp, L, TensorTensorInputs::one_in_psum, std::max(du, bb)), kTrackVector);
                const Time scan =
                    kept(e.vec(Op::tensor_tensor_scan, cp, L, 2, std::max({da, dbu, carry})), kTrackVector);
                carry = scan;
                const Time sc =
                    kept(e.tensor_tensor(cp, L, TensorTensorInputs::one_in_psum, std::max(scan, cb)), kTrackVector);
                bank_free[static_cast<size_t>(gen)] = std::max(bank_free[static_cast<size_t>(gen)], sc);
                acc[ct] = e.vec(Op::tensor_tensor, cp, L, 2, std::max(sc, acc[ct]));
                last_read = std::max(last_read, acc[ct]);
            }
            small_free[static_cast<size_t>(gen)] = last_read;
            if (v1) in_free[static_cast<size_t>(gen)] = last_read;
            gen = (gen + 1) % kGenerations;
        };
        auto store = [&](int64_t c) {
            const int64_t cp = std::min(kPartitions, spec.channels - c * kPartitions);
            Time ready = 0;
            for (int64_t t = 0; t < g.seq_tiles; ++t) ready = std::max(ready, acc[static_cast<size_t>(c * g.seq_tiles + t)]);
            const Time st = e.dma(DmaKind::hbm_write, out_n, cp, spec.seq, ready, c, b, kTrackVector);
            res_free[static_cast<size_t>(c % kGenerations)] = ready;
            end = std::max(end, st);
        };
        if (v1) {
            // v1: states outside channel tiles; every accumulator resident.
            for (int64_t st = 0; st < spec.state; ++st)
                for (int64_t c = 0; c < g.channel_tiles; ++c) step(c, st);
            for (int64_t c = 0; c < g.channel_tiles; ++c) store(c);
        } else {
            for (int64_t c = 0; c < g.channel_tiles; ++c) {
                for (int64_t st = 0; st < spec.state; ++st) step(c, st);
                store(c);
            }
        }
    }
    ScanOutcome o;
    o.end = end;
    o.sbuf_bytes = g.sbuf_bytes;
    return o;
}

}  // namespace nx::model
