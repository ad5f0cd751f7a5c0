#include "common/model/elementwise.h"

#include <algorithm>
#include <vector>

#include "common/model/kernel_emitter.h"
#include "common/model/lowering.h"
#include "common/model/sbuf_plan.h"
#include "common/model/scheduler.h"
#include "common/model/store_pipeline.h"

namespace nx::model {

namespace {

// Free-axis chunk: 2048 elements is >= 4 KiB per partition for 2-byte types,
// the DMA size that saturates a queue [nki-perf].
constexpr int64_t kChunkElems = 2048;
// Triple buffering: load chunk t+1 while computing t and storing t-1.
constexpr int kBuffers = 3;
// bn_stats processes at most 512 elements per instruction
// (nl.tile_size.bn_stats_fmax, NKI LayerNorm tutorial) and emits 6 statistics.
constexpr int64_t kBnStatsFmax = 512;
constexpr int64_t kBnStatsOutputs = 6;
// Per-row scalars (mean, variance, 1/sqrt) are one element per partition.
constexpr int64_t kPerRowScalar = 1;

struct OpEntry {
    std::string_view name;
    ElementwiseKind kind;
};
constexpr OpEntry kOps[] = {
    {"add", ElementwiseKind::binary},        {"sub", ElementwiseKind::binary},
    {"mul", ElementwiseKind::binary},        {"max", ElementwiseKind::binary},
    {"min", ElementwiseKind::binary},        {"exp", ElementwiseKind::activation},
    {"relu", ElementwiseKind::activation},   {"gelu", ElementwiseKind::activation},
    {"silu", ElementwiseKind::activation},   {"tanh", ElementwiseKind::activation},
    {"sigmoid", ElementwiseKind::activation}, {"copy", ElementwiseKind::copy},
    {"reduce_sum", ElementwiseKind::reduce}, {"reduce_max", ElementwiseKind::reduce},
    {"layernorm", ElementwiseKind::layernorm},
};

class Slots {
public:
    explicit Slots(int n) : free_(static_cast<size_t>(std::max(n, 1)), 0.0) {}
    size_t take() {
        size_t s = next_;
        next_ = (next_ + 1) % free_.size();
        return s;
    }
    Time ready(size_t s) const { return free_[s]; }
    void release(size_t s, Time t) { free_[s] = t; }
    const std::vector<Time>& tokens() const { return free_; }

private:
    std::vector<Time> free_;
    size_t next_ = 0;
};

// Emits instructions for one kernel with its names and layer.
struct Emitter : KernelEmitter {
    Emitter(Scheduler& sched, const ElementwiseSpec& sp) : KernelEmitter(sched, sp.dtype), spec(sp) {
        hlo = s.stream().name("%" + spec.opname);
    }
    // Layers name the row tile of the whole tensor (and the core, when sharded).
    void set_layer(int64_t row_tile) {
        if (!s.tracing()) return;
        std::string name = "elementwise/" + spec.opname;
        if (spec.whole_cols > 0) name += "/pcore" + std::to_string(spec.lane);
        layer = s.stream().layer(name + "_r" + std::to_string(row_tile + spec.row0 / kPartitions));
    }
    // A tile's place in the whole tensor.
    int64_t row_tile(int64_t rt) const { return rt + spec.row0 / kPartitions; }
    int64_t chunk(int64_t ct) const { return ct + spec.col0 / kChunkElems; }
    int64_t whole_cols() const { return spec.whole_cols > 0 ? spec.whole_cols : spec.cols; }

    const ElementwiseSpec& spec;
};

struct LayernormPlan {
    SbufPlan sbuf;
    int x = -1, out = -1;
    explicit LayernormPlan(const ElementwiseSpec& spec, const CostModel& cost) : sbuf(cost.target().sbuf_bytes_per_partition()) {
        const int64_t row = spec.cols * dtype_bytes(spec.dtype);
        x = sbuf.add("input row", row, 1, 2);
        out = sbuf.add("output row", row, 1, 2);
        sbuf.add("gamma", row, 1, 1);
        sbuf.add("beta", row, 1, 1);
        // v1 keeps the squared input and the shifted input as separate tiles.
        if (spec.layernorm_version == 1) sbuf.add("temporaries", 2 * row, 1, 1);
        else sbuf.add("temporary", row, 1, 1);
        sbuf.settle();
    }
};

Lowering lower_layernorm(Scheduler& s, const ElementwiseSpec& spec, ElementwiseOutcome& o) {
    Emitter e(s, spec);
    LayernormPlan plan(spec, s.cost());
    const int64_t N = spec.cols;
    uint16_t x_name = s.stream().name("x"), out_name = s.stream().name("y");
    uint16_t gamma_name = s.stream().name("gamma"), beta_name = s.stream().name("beta");
    e.set_layer(0);
    // gamma and beta are broadcast to every partition once and reused.
    Time gamma = e.dma(DmaKind::weight_load, gamma_name, kPartitions, N, 0, 0, 0);
    Time beta = e.dma(DmaKind::weight_load, beta_name, kPartitions, N, 0, 0, 0);
    const int x_generations = plan.sbuf.generations(plan.x);
    const int64_t tiles = ceil_div(spec.rows, kPartitions);
    auto rows_of = [&](int64_t rt) { return std::min(kPartitions, spec.rows - rt * kPartitions); };
    // Each x buffer is loaded again as soon as its tile's last reader is
    // done, before that tile's output is scaled and stored: the Sync engine
    // triggers loads and stores in one stream (StorePipeline), and a load
    // behind a store would wait for the store's data though its buffer was
    // free.  Per buffer: when its load completes, when its last reader ends.
    std::vector<Time> x_loaded(static_cast<size_t>(x_generations), 0.0), x_free(x_loaded);
    auto load_x = [&](int64_t rt) {
        const size_t slot = static_cast<size_t>(rt % x_generations);
        e.set_layer(rt);
        x_loaded[slot] = e.dma(DmaKind::hbm_read, x_name, rows_of(rt), N, x_free[slot], e.row_tile(rt), 0);
    };
    Slots outs(plan.sbuf.generations(plan.out));
    StorePipeline stores(s, kTrackVector, 0);
    for (int64_t rt = 0; rt < std::min<int64_t>(tiles, x_generations); ++rt) load_x(rt);
    for (int64_t rt = 0; rt < tiles; ++rt) {
        const size_t xslot = static_cast<size_t>(rt % x_generations);
        co_await s.floor(Floor(s)
                        .hold_all(x_free, kTrackSync)
                        .hold_all(x_loaded, kTrackVector)
                        .hold_all(x_loaded, kTrackScalar)
                        .hold_all(outs.tokens(), kTrackVector)
                        .hold(gamma, kTrackVector)
                        .hold(beta, kTrackVector)
                        .value());
        const int64_t r = rows_of(rt);
        e.set_layer(rt);
        const Time x = x_loaded[xslot];
        Time normalized, x_last_read;
        if (spec.layernorm_version == 1) {
            // nl.mean, nl.square on ScalarE, mean of squares, var = E[x^2] - E[x]^2.
            Time mean = e.vec(Op::tensor_reduce, r, N, 1, x);
            Time sq = e.act(Op::activation, r, N, x);
            Time msq = e.vec(Op::tensor_reduce, r, N, 1, sq);
            Time m2 = e.vec(Op::tensor_tensor, r, kPerRowScalar, 2, mean);
            Time var = e.vec(Op::tensor_tensor, r, kPerRowScalar, 2, std::max(msq, m2));
            Time eps = e.vec(Op::tensor_scalar, r, kPerRowScalar, 1, var);
            Time rstd = e.act(Op::activation, r, kPerRowScalar, eps);
            Time shifted = e.vec(Op::tensor_scalar, r, N, 1, std::max(x, mean));
            normalized = e.vec(Op::tensor_scalar, r, N, 1, std::max(shifted, rstd));
            x_last_read = shifted;
        } else {
            // bn_stats per 512 columns, bn_aggr, rsqrt, one tensor_scalar
            // doing (x - mean) * rstd.
            Time stats = x;
            int64_t chunks = 0;
            for (int64_t c = 0; c < N; c += kBnStatsFmax, ++chunks)
                stats = e.vec(Op::bn_stats, r, std::min(kBnStatsFmax, N - c), 1, std::max(stats, x));
            Time aggr = e.vec(Op::bn_aggr, r, kBnStatsOutputs * chunks, 1, stats);
            Time rstd = e.act(Op::activation, r, kPerRowScalar, aggr);
            normalized = e.vec(Op::tensor_scalar, r, N, 1, std::max({x, aggr, rstd}));
            x_last_read = normalized;
        }
        x_free[xslot] = x_last_read;
        if (rt + x_generations < tiles) load_x(rt + x_generations);
        e.set_layer(rt);
        size_t oslot = outs.take();
        Time scaled = e.vec(Op::tensor_tensor, r, N, 2, std::max({normalized, gamma, outs.ready(oslot)}));
        Time shifted = e.vec(Op::tensor_tensor, r, N, 2, std::max(scaled, beta));
        stores.store(e.transfer(DmaKind::hbm_write, out_name, r, N, shifted, e.row_tile(rt), 0),
                     [&outs, oslot](Time st) { outs.release(oslot, st); });
    }
    const Time end = stores.finish();
    o.end = end;
    o.sbuf_bytes = static_cast<double>(plan.sbuf.used());
    o.variant = spec.layernorm_version == 1 ? "v1" : "v2";
    co_return end;
}

}  // namespace

bool elementwise_kind(std::string_view opname, ElementwiseKind& kind) {
    for (const OpEntry& e : kOps)
        if (e.name == opname) {
            kind = e.kind;
            return true;
        }
    return false;
}

std::string_view elementwise_op_names() {
    return "add, sub, mul, max, min, exp, relu, gelu, silu, tanh, sigmoid, copy, reduce_sum, reduce_max, layernorm";
}

double elementwise_sbuf_required(const ElementwiseSpec& spec, const CostModel& cost, std::string& why) {
    why.clear();
    if (spec.kind == ElementwiseKind::layernorm) {
        LayernormPlan plan(spec, cost);
        if (!plan.sbuf.fits()) why = plan.sbuf.shortfall();
        return static_cast<double>(plan.sbuf.required());
    }
    // Chunks keep every op within SBUF whatever the shape.
    const int inputs = spec.kind == ElementwiseKind::binary ? 2 : 1;
    const int64_t chunk = std::min(spec.cols, kChunkElems);
    const int64_t out = spec.kind == ElementwiseKind::reduce ? 1 : chunk;
    return static_cast<double>(kBuffers * (inputs * chunk + out) * dtype_bytes(spec.dtype));
}

Lowering lower_elementwise(Scheduler& s, const ElementwiseSpec& spec, ElementwiseOutcome& o) {
    if (spec.kind == ElementwiseKind::layernorm) co_return co_await lower_layernorm(s, spec, o);
    Emitter e(s, spec);
    const bool binary = spec.kind == ElementwiseKind::binary;
    // Two SBUF tiles, contiguous in the free dimension: bf16 add, sub and
    // mul run at N VectorE cycles, everything else at 2N ([nki-tt]).
    const bool bf16_arith = spec.dtype == DType::bf16 && (spec.opname == "add" || spec.opname == "sub" ||
                                                          spec.opname == "mul");
    const TensorTensorInputs binary_inputs = bf16_arith ? TensorTensorInputs::bf16_arith : TensorTensorInputs::both_sbuf;
    const bool reduce = spec.kind == ElementwiseKind::reduce;
    uint16_t x_name = s.stream().name("x"), y_name = s.stream().name("y"), out_name = s.stream().name("out");
    Slots in(kBuffers), outs(kBuffers);
    Time end = 0;
    const int unit = spec.kind == ElementwiseKind::activation ? kTrackScalar
                     : spec.kind == ElementwiseKind::copy     ? kTrackGpSimd
                                                              : kTrackVector;
    // A chunk's store goes after the loads of the next kBuffers - 1 chunks.
    StorePipeline stores(s, unit, kBuffers - 1);
    for (int64_t rt = 0; rt * kPartitions < spec.rows; ++rt) {
        Floor tile_floor = Floor(s).hold_all(in.tokens(), kTrackSync).hold_all(outs.tokens(), unit);
        stores.hold(tile_floor);
        co_await s.floor(tile_floor.value());
        const int64_t r = std::min(kPartitions, spec.rows - rt * kPartitions);
        e.set_layer(rt);
        Time partial = 0;
        for (int64_t ct = 0; ct * kChunkElems < spec.cols; ++ct) {
            const int64_t c = std::min(kChunkElems, spec.cols - ct * kChunkElems);
            size_t slot = in.take();
            const bool strided = c < e.whole_cols();
            const int64_t tr = e.row_tile(rt), tc = e.chunk(ct);
            Time a = e.dma(DmaKind::hbm_read, x_name, r, c, in.ready(slot), tr, tc, kTrackSync, strided);
            Time bb = binary ? e.dma(DmaKind::hbm_read, y_name, r, c, in.ready(slot), tr, tc, kTrackSync, strided) : a;
            stores.loads_issued();
            if (!reduce) stores.keep_at_most(kBuffers - 1);
            size_t oslot = outs.take();
            Time ready = std::max({a, bb, reduce ? 0.0 : outs.ready(oslot)});
            Time done = 0;
            switch (spec.kind) {
                case ElementwiseKind::binary: done = e.tensor_tensor(r, c, binary_inputs, ready); break;
                case ElementwiseKind::activation: done = e.act(Op::activation, r, c, ready); break;
                case ElementwiseKind::copy: done = e.pool(Op::tensor_copy, r, c, 1, ready); break;
                case ElementwiseKind::reduce: {
                    Time red = e.vec(Op::tensor_reduce, r, c, 1, ready);
                    done = red;
                    partial = ct == 0 ? red : e.vec(Op::tensor_tensor, r, kPerRowScalar, 2, std::max(red, partial));
                    break;
                }
                case ElementwiseKind::layernorm: break;
            }
            in.release(slot, done);
            if (!reduce) {
                stores.store(e.transfer(DmaKind::hbm_write, out_name, r, c, done, tr, tc, unit, strided),
                             [&outs, oslot](Time t) { outs.release(oslot, t); });
            }
        }
        if (reduce && spec.combine) {
            // The two cores' partial sums of the same rows: one
            // sendrecv_compute, where each core's DMA engine adds the other's
            // [rows, 1] to its own once both are ready; the first core stores.
            Time both = co_await s.core_barrier(partial);
            partial = e.dma(DmaKind::on_chip, out_name, r, 1, both, e.row_tile(rt), 0, kTrackSync);
            if (spec.lane != 0) {
                end = std::max(end, partial);
                continue;
            }
        }
        if (reduce) stores.store(e.transfer(DmaKind::hbm_write, out_name, r, 1, partial, e.row_tile(rt), 0));
    }
    end = std::max(end, stores.finish());
    o.end = end;
    std::string why;
    o.sbuf_bytes = elementwise_sbuf_required(spec, s.cost(), why);
    co_return end;
}

}  // namespace nx::model
