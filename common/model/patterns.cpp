#include "common/model/patterns.h"

#include <algorithm>

#include "common/model/kernel_emitter.h"
#include "common/model/scheduler.h"

namespace nx::model {

namespace {

// for_loop sizes: trip count = iterations x factor.
struct SizeFactor {
    std::string_view size;
    int64_t factor;
};
constexpr SizeFactor kSizes[] = {{"small", 1}, {"medium", 3}, {"large", 9}};

// relu(s) + 0.1 and carry + s are single ScalarE activations (bias operand);
// the per-row scalar they produce is one element.
constexpr int64_t kScalarElems = 1;
// Two partial sums (sum(x), sum(x @ x.T)) reduced across partitions at once.
constexpr int64_t kScanPartials = 2;
// Tiles a pattern graph keeps per partition row: the input, its transpose and
// the squares (or x @ x.T) -- what must fit in SBUF.
constexpr int64_t kResidentRowTiles = 3;

struct Graph : KernelEmitter {
    Graph(Scheduler& sched, const PatternSpec& sp) : KernelEmitter(sched, sp.dtype), spec(sp) {}

    void set_layer(const std::string& name) {
        if (s.tracing()) layer = s.stream().layer(spec.name + "/" + name);
    }
    uint16_t name(std::string_view n) { return s.stream().name(n); }

    Time mm(Op op, Time stat, Time mov, int64_t k_rows, int64_t m_cols, int64_t n_cols) {
        MatmulInstr m;
        m.op = op;
        m.stationary_ready = stat;
        m.moving_ready = mov;
        m.k_rows = k_rows;
        m.m_cols = m_cols;
        m.n_cols = n_cols;
        m.dtype = spec.dtype;
        m.layer = layer;
        m.hlo = hlo;
        return s.matmul(m);
    }

    const PatternSpec& spec;
};

// vmap: one graph over the stacked [iterations * batch, features] input.
Time lower_vmap(Graph& g) {
    const PatternSpec& sp = g.spec;
    const int64_t rows = sp.iterations * sp.batch, F = sp.features;
    uint16_t x = g.name("x"), y = g.name("y");
    g.hlo = g.name("%f = add(relu(reduce(multiply(x, x))), 0.1)");
    Time end = 0;
    for (int64_t rt = 0; rt * kPartitions < rows; ++rt) {
        // Nothing is carried between row tiles; the ones column is a constant.
        g.s.set_floor(Floor(g.s).hold(0, kTrackSync).hold(0, kTrackTensor).value());
        const int64_t r = std::min(kPartitions, rows - rt * kPartitions);
        g.set_layer("f_r" + std::to_string(rt));
        Time lx = g.dma(DmaKind::hbm_read, x, r, F, 0, rt);
        Time sq = g.vec(Op::tensor_tensor, r, F, 2, lx);
        // Sum over features on TensorE: transpose each 128-feature chunk, then
        // contract it against a ones column, accumulating in one PSUM bank.
        Time sum = 0;
        for (int64_t c = 0; c < F; c += kPartitions) {
            const int64_t fc = std::min(kPartitions, F - c);
            Time tp = g.mm(Op::transpose, sq, 0, r, fc, r);
            Time sqT = g.vec(Op::tensor_copy, fc, r, 1, tp);
            sum = g.mm(Op::multiply_moving, 0, sqT, fc, 1, r);
        }
        Time out = g.act(Op::activation, 1, r, sum);
        end = std::max(end, g.dma(DmaKind::hbm_write, y, 1, r, out, rt, 0, kTrackScalar));
    }
    return end;
}

// scan: a device loop with carried state.
Time lower_scan(Graph& g) {
    const PatternSpec& sp = g.spec;
    const int64_t B = sp.batch, F = sp.features;
    uint16_t xs = g.name("xs"), ys = g.name("ys"), carry_name = g.name("carry");
    g.hlo = g.name("%while = while(scan_body)");
    Time carry = 0, back_edge = 0, y = 0;
    for (int64_t i = 0; i < sp.iterations; ++i) {
        g.s.set_floor(Floor(g.s).hold(back_edge, kTrackSync).hold(carry, kTrackScalar).hold(0, kTrackTensor).value());
        g.set_layer("body_i" + std::to_string(i));
        Time lx = g.dma(DmaKind::hbm_read, xs, B, F, back_edge, i);
        // x^T by TensorE transposes (128 features at a time), then x @ x.T
        // accumulated over the feature chunks.
        Time xx = 0;
        for (int64_t c = 0; c < F; c += kPartitions) {
            const int64_t fc = std::min(kPartitions, F - c);
            Time tp = g.mm(Op::transpose, lx, 0, B, fc, B);
            Time xT = g.vec(Op::tensor_copy, fc, B, 1, tp);
            xx = g.mm(Op::multiply_moving, xT, xT, fc, B, B);
        }
        Time sum_xx = g.vec(Op::tensor_reduce, B, B, 1, xx);
        Time sum_x = g.vec(Op::tensor_reduce, B, F, 1, lx);
        // Across partitions: both partial sums against a ones column.
        Time tot = g.mm(Op::multiply_moving, 0, std::max(sum_xx, sum_x), B, 1, kScanPartials);
        carry = g.act(Op::activation, 1, kScalarElems, std::max(tot, carry));
        y = g.vec(Op::tensor_tensor, 1, kScalarElems, 2, std::max(carry, tot));
        back_edge = g.instr(kTrackSync, Op::loop_branch, g.cost.sync_ns(), std::max(y, carry), 1, kScalarElems);
    }
    g.set_layer("outputs");
    Time a = g.dma(DmaKind::hbm_write, ys, 1, sp.iterations, back_edge);
    Time b = g.dma(DmaKind::hbm_write, carry_name, 1, 1, back_edge);
    return std::max(a, b);
}

// One for-loop body on data resident in SBUF: move row i % batch to
// partition 0 on TensorE, sum it on VectorE, scale and accumulate on ScalarE.
Time loop_body(Graph& g, Time data, Time result) {
    const int64_t B = g.spec.batch, F = g.spec.features;
    Time sum = 0;
    for (int64_t c = 0; c < F; c += kMovingMax) {
        const int64_t fc = std::min(kMovingMax, F - c);
        Time row = g.mm(Op::partition_select, 0, data, B, 1, fc);
        sum = g.vec(Op::tensor_reduce, 1, fc, 1, std::max(row, sum));
    }
    return g.act(Op::activation, 1, kScalarElems, std::max(sum, result));
}

Time lower_for_loop(Graph& g) {
    const PatternSpec& sp = g.spec;
    uint16_t data = g.name("data"), out = g.name("result");
    g.hlo = g.name("%add = add(%result, mean(slice(data)))");
    g.set_layer("load");
    Time ld = g.dma(DmaKind::hbm_read, data, sp.batch, sp.features, 0);
    Time result = 0;
    for (int64_t i = 0; i < sp.trip_count(); ++i) {
        g.s.set_floor(Floor(g.s).hold(ld, kTrackTensorMatrix).hold(0, kTrackTensor).hold(result, kTrackScalar).value());
        g.set_layer("iter" + std::to_string(i));
        result = loop_body(g, ld, result);
    }
    g.set_layer("store");
    return g.dma(DmaKind::hbm_write, out, 1, 1, result, 0, 0, kTrackScalar);
}

// for_loop_launch: one graph launch per iteration.
Time lower_for_loop_launch(Graph& g, Time& device_ns) {
    const PatternSpec& sp = g.spec;
    uint16_t data = g.name("data"), out = g.name("result");
    g.hlo = g.name("%add = add(%result, mean(slice(data)))");
    Time t = 0;
    device_ns = 0;
    for (int64_t i = 0; i < sp.trip_count(); ++i) {
        g.s.set_floor(Floor(g.s).hold(t, kTrackHost).value());
        g.set_layer("launch" + std::to_string(i));
        Time launched = g.instr(kTrackHost, Op::nrt_execute, kHostDispatchNs, t, 0, 0, EventType::runtime);
        const Time body = g.s.begin_kernel(launched);
        Time row = g.dma(DmaKind::hbm_read, data, 1, sp.features, body, i % sp.batch);
        Time prev = g.dma(DmaKind::hbm_read, out, 1, 1, body);
        Time sum = g.vec(Op::tensor_reduce, 1, sp.features, 1, row);
        Time res = g.act(Op::activation, 1, kScalarElems, std::max(sum, prev));
        g.dma(DmaKind::hbm_write, out, 1, 1, res, 0, 0, kTrackScalar);
        t = g.s.end_kernel();
        device_ns += t - launched;
    }
    return t;
}

}  // namespace

int64_t pattern_sbuf_bytes(const PatternSpec& spec) {
    return kResidentRowTiles * spec.features * dtype_bytes(spec.dtype);
}

int64_t for_loop_size_factor(std::string_view size) {
    for (const SizeFactor& s : kSizes)
        if (s.size == size) return s.factor;
    return 0;
}

int64_t PatternSpec::trip_count() const {
    if (kind != PatternKind::for_loop && kind != PatternKind::for_loop_launch) return iterations;
    return iterations * std::max<int64_t>(for_loop_size_factor(size), 1);
}

bool parse_pattern_kind(std::string_view s, PatternKind& kind) {
    if (s == "vmap") kind = PatternKind::vmap;
    else if (s == "scan") kind = PatternKind::scan;
    else if (s == "for_loop") kind = PatternKind::for_loop;
    else if (s == "for_loop_launch") kind = PatternKind::for_loop_launch;
    else return false;
    return true;
}

PatternOutcome lower_pattern(Scheduler& s, const PatternSpec& spec) {
    Graph g(s, spec);
    PatternOutcome o;
    switch (spec.kind) {
        case PatternKind::vmap: o.end = lower_vmap(g); break;
        case PatternKind::scan: o.end = lower_scan(g); break;
        case PatternKind::for_loop: o.end = lower_for_loop(g); break;
        case PatternKind::for_loop_launch: o.end = lower_for_loop_launch(g, o.device_ns); break;
    }
    if (spec.kind != PatternKind::for_loop_launch) o.device_ns = o.end;
    o.sbuf_bytes = static_cast<double>(pattern_sbuf_bytes(spec));
    return o;
}

}  // namespace nx::model
