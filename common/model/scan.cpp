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

namespace {

// One scan's lowering: the kernel's loops over batches, channel tiles,
// states and sequence tiles, its buffers rotating over kGenerations.
class ScanLowering {
public:
    ScanLowering(Scheduler& s, const ScanSpec& spec) : s_(s), spec_(spec), e_(s, spec.dtype), v1_(spec.version == 1) {
        e_.hlo = s.stream().name("%mamba_v" + std::to_string(spec.version));
        g_ = scan_geometry(spec, s.cost());
        auto name = [&](const char* n) { return s.stream().name(n); };
        delta_n_ = name("delta");
        u_n_ = name("u");
        a_n_ = name("A");
        b_n_ = name("B");
        c_n_ = name("C");
        out_n_ = name("output");
        spill_n_ = name("spill");
    }

    ScanOutcome run() {
        for (int64_t b = 0; b < spec_.batch; ++b) lower_batch(b);
        ScanOutcome o;
        o.end = end_;
        o.sbuf_bytes = g_.sbuf_bytes;
        return o;
    }

private:
    // One state of one channel tile: its step over every sequence tile.
    struct Step {
        int64_t c = 0, st = 0;
        int64_t cp = 0;  // the channel tile's partitions
        Time a = 0;      // its row of A loaded
    };

    void layer(const std::string& n) {
        if (s_.tracing()) e_.layer = s_.stream().layer("mamba/" + n);
    }

    // A [1, L] row broadcast over cp partitions: one TensorE pass against a
    // row of ones per PSUM bank of columns.
    Time broadcast(int64_t cp, int64_t L, Time ready) {
        Time done = ready;
        for (int64_t c0 = 0; c0 < L; c0 += kMovingMax) {
            done = std::max(done, e_.matmul(Op::partition_broadcast, ready, ready, bank_free_[static_cast<size_t>(gen_)],
                                             1, cp, std::min(kMovingMax, L - c0)));
        }
        return done;
    }

    // An intermediate that does not fit: stored after it is made, reloaded
    // before it is used.
    Time through_hbm(Time made, int producer, int64_t cp, int64_t L) {
        const Time w = e_.dma(DmaKind::hbm_write, spill_n_, cp, L, made, spill_id_, 0, producer);
        return e_.dma(DmaKind::hbm_read, spill_n_, cp, L, w, spill_id_++, 0, kTrackSync);
    }

    void lower_batch(int64_t b) {
        batch_ = b;
        // Per channel tile: its accumulator, its resident delta/u, and per
        // sequence tile the hoisted delta*u.
        acc_.assign(static_cast<size_t>(g_.channel_tiles * g_.seq_tiles), 0.0);
        resident_.assign(static_cast<size_t>(g_.channel_tiles), 0.0);
        delta_u_.assign(static_cast<size_t>(g_.channel_tiles * g_.seq_tiles), 0.0);
        if (v1_) {
            // v1: states outside channel tiles; every accumulator resident.
            for (int64_t st = 0; st < spec_.state; ++st)
                for (int64_t c = 0; c < g_.channel_tiles; ++c) lower_step(c, st);
            for (int64_t c = 0; c < g_.channel_tiles; ++c) store(c);
        } else {
            for (int64_t c = 0; c < g_.channel_tiles; ++c) {
                for (int64_t st = 0; st < spec_.state; ++st) lower_step(c, st);
                store(c);
            }
        }
    }

    int64_t partitions_of(int64_t c) const { return std::min(kPartitions, spec_.channels - c * kPartitions); }

    void lower_step(int64_t c, int64_t st) {
        const int64_t cp = partitions_of(c);
        layer("b" + std::to_string(batch_) + "_c" + std::to_string(c) + "_s" + std::to_string(st));
        s_.set_floor(Floor(s_)
                         .hold_all(in_free_, kTrackSync)
                         .hold_all(small_free_, kTrackSync)
                         .hold_all(res_free_, kTrackSync)
                         .hold(0, kTrackVector)
                         .hold(0, kTrackScalar)
                         .hold(0, kTrackTensor)
                         .hold(0, kTrackTensorMatrix)
                         .value());
        if (!v1_ && st == 0) {
            // v2/v3: delta and u once per tile, the whole sequence.
            const Time slot = res_free_[static_cast<size_t>(c % kGenerations)];
            const Time d = e_.dma(DmaKind::hbm_read, delta_n_, cp, spec_.seq, slot, c, batch_);
            const Time u = e_.dma(DmaKind::hbm_read, u_n_, cp, spec_.seq, slot, c, batch_);
            resident_[static_cast<size_t>(c)] = std::max(d, u);
        }
        const Step step{c, st, cp, e_.dma(DmaKind::hbm_read, a_n_, cp, 1, small_free_[static_cast<size_t>(gen_)], c, st)};
        Time carry = 0;  // the scan's last column, carried across sequence tiles
        Time last_read = 0;
        for (int64_t t = 0; t < g_.seq_tiles; ++t) last_read = std::max(last_read, lower_seq_tile(step, t, carry));
        small_free_[static_cast<size_t>(gen_)] = last_read;
        if (v1_) in_free_[static_cast<size_t>(gen_)] = last_read;
        gen_ = (gen_ + 1) % kGenerations;
    }

    // Sequence tile t of a step: deltaA, deltaBu, the scan (carrying its
    // last column from the previous tile), scan*C and the accumulation,
    // each through HBM while the step's intermediates spill.  Returns when
    // the accumulation is done.
    Time lower_seq_tile(const Step& step, int64_t t, Time& carry) {
        const int64_t cp = step.cp, c = step.c, st = step.st;
        const int64_t L = std::min(g_.seq_tile, spec_.seq - t * g_.seq_tile);
        const size_t ct = static_cast<size_t>(c * g_.seq_tiles + t);
        const size_t gen = static_cast<size_t>(gen_);
        Time du;
        Time inputs;
        if (v1_) {
            // v1: delta and u reloaded for every state.
            const Time d = e_.dma(DmaKind::hbm_read, delta_n_, cp, L, in_free_[gen], c, batch_);
            const Time u = e_.dma(DmaKind::hbm_read, u_n_, cp, L, in_free_[gen], c, batch_);
            inputs = std::max(d, u);
            du = e_.vec(Op::tensor_tensor, cp, L, 2, inputs);
        } else {
            inputs = resident_[static_cast<size_t>(c)];
            if (st == 0) delta_u_[ct] = e_.vec(Op::tensor_tensor, cp, L, 2, inputs);
            du = delta_u_[ct];
        }
        const Time bl = e_.dma(DmaKind::hbm_read, b_n_, 1, L, small_free_[gen], st, t);
        const Time cl = e_.dma(DmaKind::hbm_read, c_n_, 1, L, small_free_[gen], st, t);
        const Time bb = broadcast(cp, L, bl);
        const Time cb = broadcast(cp, L, cl);
        int64_t spills = g_.spilled;
        auto kept = [&](Time made, int producer) { return spills-- > 0 ? through_hbm(made, producer, cp, L) : made; };
        const Time da = kept(e_.act(Op::activation, cp, L, std::max(inputs, step.a)), kTrackScalar);
        // deltaBu and scan*C read B and C straight from the broadcasts'
        // PSUM banks: N VectorE cycles, not 2N ([nki-tt]).
        const Time dbu = kept(e_.tensor_tensor(cp, L, TensorTensorInputs::one_in_psum, std::max(du, bb)), kTrackVector);
        const Time scan = kept(e_.vec(Op::tensor_tensor_scan, cp, L, 2, std::max({da, dbu, carry})), kTrackVector);
        carry = scan;
        const Time sc = kept(e_.tensor_tensor(cp, L, TensorTensorInputs::one_in_psum, std::max(scan, cb)), kTrackVector);
        bank_free_[gen] = std::max(bank_free_[gen], sc);
        acc_[ct] = e_.vec(Op::tensor_tensor, cp, L, 2, std::max(sc, acc_[ct]));
        return acc_[ct];
    }

    // A channel tile's output written once every state is accumulated.
    void store(int64_t c) {
        const int64_t cp = partitions_of(c);
        Time ready = 0;
        for (int64_t t = 0; t < g_.seq_tiles; ++t) ready = std::max(ready, acc_[static_cast<size_t>(c * g_.seq_tiles + t)]);
        const Time st = e_.dma(DmaKind::hbm_write, out_n_, cp, spec_.seq, ready, c, batch_, kTrackVector);
        res_free_[static_cast<size_t>(c % kGenerations)] = ready;
        end_ = std::max(end_, st);
    }

    Scheduler& s_;
    const ScanSpec& spec_;
    KernelEmitter e_;
    const bool v1_;
    ScanGeometry g_;
    uint16_t delta_n_ = 0, u_n_ = 0, a_n_ = 0, b_n_ = 0, c_n_ = 0, out_n_ = 0, spill_n_ = 0;
    std::array<Time, kGenerations> bank_free_{}, in_free_{}, small_free_{}, res_free_{};
    int gen_ = 0;
    int64_t spill_id_ = 0;
    int64_t batch_ = 0;
    std::vector<Time> acc_, resident_, delta_u_;
    Time end_ = 0;
};

}  // namespace

ScanOutcome lower_scan(Scheduler& s, const ScanSpec& spec) { return ScanLowering(s, spec).run(); }

}  // namespace nx::model
