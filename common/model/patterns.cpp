#include "common/model/patterns.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <utility>
#include <vector>

#include "common/model/kernel_emitter.h"
#include "common/model/scheduler.h"
#include "common/workload/for_loop_size.h"

namespace nx::model {

namespace {

// relu(s) + 0.1 and carry + s are single ScalarE activations (bias operand);
// the per-row scalar they produce is one element.
constexpr int64_t kScalarElems = 1;
// Two partial sums (sum(x), sum(x @ x.T)) reduced across partitions at once.
constexpr int64_t kScanPartials = 2;
// Tiles a pattern graph keeps per partition row: the input, its transpose and
// the squares (or x @ x.T) -- what must fit in SBUF.
constexpr int64_t kResidentRowTiles = 3;

// The engines that run a device loop's stream and branch at its back-edge.
constexpr int kLoopEngines[] = {kTrackTensor, kTrackVector, kTrackScalar, kTrackGpSimd, kTrackSync};

// The graphs as neuronx-cc lowers them (cost_model.h, "Compiler-lowered
// graphs"): inputs and outputs by DMA_DIRECT2D on GpSimdE, constants (the
// identity of TensorE transposes, ones and 1/F columns) by one static DMA,
// every transfer as its packets, an EVENT_SEMAPHORE wherever an engine waits
// for another engine's result, dynamic slices through an index register.
struct Graph : KernelEmitter {
    Graph(Scheduler& sched, const PatternSpec& sp) : KernelEmitter(sched, sp.dtype), spec(sp) {}

    void set_layer(const std::string& name) {
        if (s.tracing()) layer = s.stream().layer(spec.name + "/" + name);
    }
    uint16_t name(std::string_view n) { return s.stream().name(n); }

    // `unit` waits on the semaphore of a producer on another engine.
    void sem(int unit, Time ready) { s.wait(unit, ready, layer); }
    Time vec_on(Op op, int64_t rows, int64_t elems, int inputs, Time ready) {
        sem(kTrackVector, ready);
        return vec(op, rows, elems, inputs, ready);
    }
    Time act_on(Op op, int64_t rows, int64_t elems, Time ready) {
        sem(kTrackScalar, ready);
        return act(op, rows, elems, ready);
    }
    Time mm(Op op, Time stat, Time mov, int64_t k_rows, int64_t m_cols, int64_t n_cols) {
        sem(kTrackTensor, std::max(stat, mov));
        return matmul(op, stat, mov, 0, k_rows, m_cols, n_cols);
    }
    Time transfer(int trigger, Op trigger_op, DmaKind kind, uint16_t tensor, int64_t rows, int64_t cols, Time ready,
                  int64_t r, int64_t c) {
        Transfer t = tile(kind, tensor, rows, cols, ready, r, c);
        t.trigger = trigger;
        t.trigger_op = trigger_op;
        t.packets = trigger == kTrackGpSimd ? Packets::per_row : Packets::static_chunks;
        // A DMA_DIRECT2D writes its descriptors at run time (untimed on the
        // engine's row, as in the capture); a static DMA's were built at
        // compile time, its trigger one queue WRITE.
        t.trigger_cost = trigger_op == Op::dma_direct2d ? Transfer::TriggerCost::untimed
                                                         : Transfer::TriggerCost::prebuilt;
        t.strided = false;
        return s.dma(t);
    }
    // The graph's constants, one static DMA on the Sync engine's queue,
    // triggered by a WRITE to the queue (as the capture's "-trig" WRITE).
    Time constants(int64_t rows, int64_t cols) {
        return transfer(kTrackSync, Op::write, DmaKind::weight_load, name("const"), rows, cols, 0, 0, 0);
    }
    // An input or output moved by a DMA_DIRECT2D on GpSimdE.
    Time direct(DmaKind kind, uint16_t tensor, int64_t rows, int64_t cols, Time ready, int64_t r = 0, int64_t c = 0) {
        sem(kTrackGpSimd, ready);
        return transfer(kTrackGpSimd, Op::dma_direct2d, kind, tensor, rows, cols, ready, r, c);
    }
    // A dynamic slice's address: GpSimdE loads the index into a register and
    // scales it by the row stride.
    Time dynamic_index(Time ready) {
        sem(kTrackGpSimd, ready);
        Time idx = instr(kTrackGpSimd, Op::tensor_load, kRegisterLoadNs, ready, 0, 0);
        return instr(kTrackGpSimd, Op::register_alu, alu_ns(kTrackGpSimd), idx, 0, 0);
    }
    Time alu_ns(int unit) const { return static_cast<double>(kRegisterAluCycles) / kAccessStaticCycles * s.trigger_ns(unit); }
    // A device loop's back-edge: every engine waits for the iteration's last
    // result, increments its copy of the loop counter and branches; returns
    // when the next iteration may start.
    Time back_edge(Time ready) {
        Time t = ready;
        for (int u : kLoopEngines) {
            sem(u, ready);
            Time inc = instr(u, Op::register_alu, alu_ns(u), ready, 0, 0);
            t = std::max(t, instr(u, Op::loop_branch, s.trigger_ns(u), inc, 0, 0));
        }
        return t;
    }
    // A Python float other than 0 and +-1 in the traced code (the 0.1 of
    // relu(s) + 0.1, a loop body's 0.9 or 1e-8, 0.01 * (i + 1)) is not a
    // constant of the graph: torch-xla routes only those "special" scalars
    // to constants (IsSpecialScalar) and every other one to device data,
    // cached by value (GetDeviceData), so each distinct value is one more
    // graph input.  The engines need it on every partition they work on, so
    // it is loaded once, when first used, as a DMA_DIRECT2D that repeats its
    // 4 bytes on each of `partitions` rows.
    // Returns when the value is in SBUF (0 for a special scalar: a constant).
    // Values are compared as fp32, the study's dtype (at bf16, fp16 or fp8
    // torch-xla would merge values equal in that type: not modelled); the
    // first use decides the partitions.
    Time scalar_input(double value, int64_t partitions) {
        if (value == 0 || std::fabs(value) == 1) return 0;
        const float v = static_cast<float>(value);
        for (const auto& in : scalar_inputs)
            if (in.first == v) return in.second;
        std::ostringstream label;
        label << "scalar " << std::setprecision(9) << value;
        const Time t = direct(DmaKind::hbm_read, name(label.str()), partitions, 1, 0);
        scalar_inputs.emplace_back(v, t);
        return t;
    }
    Floor hold_engines(Time t) {
        Floor f(s);
        for (int u : kLoopEngines) f.hold(t, u);
        return f;
    }

    const PatternSpec& spec;
    // The graph's scalar inputs loaded so far (value as the graph's fp32).
    std::vector<std::pair<float, Time>> scalar_inputs;
};

// vmap: one graph over the stacked [iterations * batch, features] input, rows
// on the partitions.  The sum over features runs on TensorE, so the compiler
// inserts a TensorE transpose (features onto the partitions, against the
// identity); VectorE squares while it evacuates PSUM, TensorE contracts the
// squares against a ones column, ScalarE applies relu + 0.1.
Time lower_vmap(Graph& g) {
    const PatternSpec& sp = g.spec;
    const int64_t rows = sp.iterations * sp.batch, F = sp.features;
    uint16_t x = g.name("x"), y = g.name("y");
    g.hlo = g.name("%f = add(relu(reduce(multiply(x, x))), 0.1)");
    g.set_layer("const");
    // The identity (up to 128 x 128) and the ones column.
    const Time cst = g.constants(kPartitions, std::min(kPartitions, rows) + 1);
    Time end = 0;
    for (int64_t rt = 0; rt * kPartitions < rows; ++rt) {
        // Nothing is carried between row tiles.
        g.s.set_floor(g.hold_engines(cst).hold(cst, kTrackTensorMatrix).value());
        const int64_t r = std::min(kPartitions, rows - rt * kPartitions);
        g.set_layer("f_r" + std::to_string(rt));
        Time lx = g.direct(DmaKind::hbm_read, x, r, F, 0, rt);
        Time sum = 0;
        for (int64_t c = 0; c < F; c += kPartitions) {
            const int64_t fc = std::min(kPartitions, F - c);
            Time tp = g.mm(Op::transpose, lx, cst, r, fc, r);
            Time sqT = g.vec_on(Op::tensor_tensor, fc, r, 2, tp);
            sum = g.mm(Op::multiply_moving, cst, sqT, fc, 1, r);
        }
        // The sums are one partition row: the bias 0.1 is needed there only.
        Time out = g.act_on(Op::activation, 1, r, std::max(sum, g.scalar_input(0.1, 1)));
        end = std::max(end, g.direct(DmaKind::hbm_write, y, 1, r, out, rt));
    }
    return end;
}

// scan: a device loop with carried state.  Each iteration slices xs[i]
// through the loop counter, transposes it on TensorE, multiplies x @ x.T,
// reduces on VectorE, sums across partitions on TensorE, updates the carry
// on ScalarE, writes ys[i]; every engine branches back after the iteration.
Time lower_scan(Graph& g) {
    const PatternSpec& sp = g.spec;
    const int64_t B = sp.batch, F = sp.features;
    uint16_t xs = g.name("xs"), ys = g.name("ys"), carry_name = g.name("carry");
    g.hlo = g.name("%while = while(scan_body)");
    g.set_layer("const");
    // The identity (B x B) and the ones column.
    const Time cst = g.constants(B, B + 1);
    Time carry = 0, next = 0;
    for (int64_t i = 0; i < sp.iterations; ++i) {
        g.s.set_floor(g.hold_engines(std::max(next, cst)).hold(carry, kTrackScalar).hold(cst, kTrackTensorMatrix).value());
        g.set_layer("body_i" + std::to_string(i));
        Time idx = g.dynamic_index(next);
        Time lx = g.direct(DmaKind::hbm_read, xs, B, F, idx, i);
        // x^T by TensorE transposes (128 features at a time), then x @ x.T
        // accumulated over the feature chunks.
        Time xx = 0;
        for (int64_t c = 0; c < F; c += kPartitions) {
            const int64_t fc = std::min(kPartitions, F - c);
            Time tp = g.mm(Op::transpose, lx, cst, B, fc, B);
            Time xT = g.vec_on(Op::tensor_copy, fc, B, 1, tp);
            xx = g.mm(Op::multiply_moving, xT, xT, fc, B, B);
        }
        Time sum_xx = g.vec_on(Op::tensor_reduce, B, B, 1, xx);
        Time sum_x = g.vec_on(Op::tensor_reduce, B, F, 1, lx);
        // Across partitions: both partial sums against the ones column.
        Time tot = g.mm(Op::multiply_moving, cst, std::max(sum_xx, sum_x), B, 1, kScanPartials);
        carry = g.act_on(Op::activation, 1, kScalarElems, std::max(tot, carry));
        Time y = g.vec_on(Op::tensor_tensor, 1, kScalarElems, 2, std::max(carry, tot));
        // ys[i] at the same index.
        Time at = g.instr(kTrackGpSimd, Op::register_alu, g.alu_ns(kTrackGpSimd), idx, 0, 0);
        Time stored = g.direct(DmaKind::hbm_write, ys, 1, kScalarElems, std::max(y, at), 0, i);
        next = g.back_edge(std::max({y, carry, stored}));
    }
    g.set_layer("outputs");
    return g.direct(DmaKind::hbm_write, carry_name, 1, 1, std::max(next, carry));
}

// The for-loop's vectors ([features]: result, data[i], the state of the
// medium and large bodies) are 1-D: their elements go on the partitions,
// min(F, 128) of them with ceil(F / 128) elements each.  A mean or sum over
// the vector is a TensorE matmul against a constant [P x P] matrix (1/F or
// ones), which also broadcasts the scalar to every partition as the
// element-wise ops that use it need (expand_as, and adding a scalar to a
// [features] vector); more than one element per partition adds a
// TensorReduce.  Each HLO element-wise op is one instruction (no fusion).
struct LoopVector {
    int64_t partitions, elems;
};
LoopVector loop_vector(const PatternSpec& sp) {
    return {std::min(kPartitions, sp.features), (sp.features + kPartitions - 1) / kPartitions};
}

// A scalar reduction of v broadcast to every partition: mean (the 1/F
// matrix) or sum (ones), the constant being ready at `cst`.
Time reduce_broadcast(Graph& g, Time cst, Time v) {
    const LoopVector lv = loop_vector(g.spec);
    Time m = g.mm(Op::multiply_moving, cst, v, lv.partitions, lv.partitions, lv.elems);
    return lv.elems > 1 ? g.vec_on(Op::tensor_reduce, lv.partitions, lv.elems, 1, m) : m;
}
// Element-wise ops on a loop vector: VectorE with `inputs` operands
// (tensor_tensor 2, tensor_scalar 1), ScalarE for activations.
Time elementwise(Graph& g, Op op, int inputs, Time ready) {
    const LoopVector lv = loop_vector(g.spec);
    return g.vec_on(op, lv.partitions, lv.elems, inputs, ready);
}
Time activation(Graph& g, Time ready) {
    const LoopVector lv = loop_vector(g.spec);
    return g.act_on(Op::activation, lv.partitions, lv.elems, ready);
}

// The state a for-loop carries from one unrolled iteration to the next.
struct LoopState {
    Time result = 0;
    Time intermediate = 0;  // medium
    Time temp = 0, accumulator = 0;  // large
};

// One unrolled iteration of the study's loop body at its size
// (for_loop_size.h):
//   small   result = result + mean(data[i % B])
//   medium  p = mean(x * x); intermediate = relu(intermediate + p);
//           result = result + intermediate * 0.1
//   large   squared = x * x; reduced = sum(squared).expand_as(result);
//           activated = tanh(reduced);
//           normalized = activated / (norm(activated) + 1e-8);
//           temp = temp * 0.9 + normalized * 0.1; accumulator += temp;
//           result = result + accumulator * (0.01 * (i + 1))
// x = data[i % B] is a static slice: i is a Python int, and torch-xla's
// select lowers to xla::SliceInDim with a constant start
// (pytorch/xla torch_xla/csrc/ops/select.cpp), so each unrolled trip reads
// its row at an offset fixed at compile time -- no index register, unlike
// scan's xs[i].  The row still moves by a DMA_DIRECT2D on GpSimdE: data is a
// graph input, whose address the runtime supplies, and the capture moves
// every graph input that way (its static "copy" DMAs are constants).
void loop_body(Graph& g, uint16_t data, int64_t i, Time cst, Time ready, LoopState& st) {
    const PatternSpec& sp = g.spec;
    const LoopVector lv = loop_vector(sp);
    Time x = g.direct(DmaKind::hbm_read, data, lv.partitions, lv.elems, ready, i % sp.batch, 0);
    if (sp.size == "medium") {
        Time sq = elementwise(g, Op::tensor_tensor, 2, x);
        Time p = reduce_broadcast(g, cst, sq);
        Time sum = elementwise(g, Op::tensor_tensor, 2, std::max(p, st.intermediate));
        st.intermediate = activation(g, sum);  // relu
        Time scaled = elementwise(g, Op::tensor_scalar, 1, std::max(st.intermediate, g.scalar_input(0.1, lv.partitions)));
        st.result = elementwise(g, Op::tensor_tensor, 2, std::max(scaled, st.result));
    } else if (sp.size == "large") {
        Time sq = elementwise(g, Op::tensor_tensor, 2, x);
        Time reduced = reduce_broadcast(g, cst, sq);
        Time activated = activation(g, reduced);  // tanh
        Time sq2 = elementwise(g, Op::tensor_tensor, 2, activated);
        Time norm = activation(g, reduce_broadcast(g, cst, sq2));  // sqrt
        Time denom = elementwise(g, Op::tensor_scalar, 1, std::max(norm, g.scalar_input(1e-8, lv.partitions)));
        Time normalized = elementwise(g, Op::tensor_tensor, 2, std::max(activated, denom));
        Time decayed = elementwise(g, Op::tensor_scalar, 1, std::max(st.temp, g.scalar_input(0.9, lv.partitions)));
        Time weighted = elementwise(g, Op::tensor_scalar, 1, std::max(normalized, g.scalar_input(0.1, lv.partitions)));
        st.temp = elementwise(g, Op::tensor_tensor, 2, std::max(decayed, weighted));
        st.accumulator = elementwise(g, Op::tensor_tensor, 2, std::max(st.accumulator, st.temp));
        // 0.01 * (i + 1) is computed in Python: a new value, a new input, each trip.
        const Time factor = g.scalar_input(0.01 * static_cast<double>(i + 1), lv.partitions);
        Time step = elementwise(g, Op::tensor_scalar, 1, std::max(st.accumulator, factor));
        st.result = elementwise(g, Op::tensor_tensor, 2, std::max(step, st.result));
    } else {
        Time mean = reduce_broadcast(g, cst, x);
        st.result = elementwise(g, Op::tensor_tensor, 2, std::max(mean, st.result));
    }
}

// The reduction constant of a for-loop body: one [P x P] matrix (1/F for a
// mean, ones for a sum).
Time loop_constants(Graph& g) {
    const LoopVector lv = loop_vector(g.spec);
    return g.constants(lv.partitions, lv.partitions);
}

Time lower_for_loop(Graph& g) {
    const PatternSpec& sp = g.spec;
    uint16_t data = g.name("data"), out = g.name("result");
    g.hlo = g.name("%result = add(%result, loop_body(dynamic-slice(data)))");
    g.set_layer("const");
    const Time cst = loop_constants(g);
    LoopState st;
    for (int64_t i = 0; i < sp.trip_count(); ++i) {
        g.s.set_floor(g.hold_engines(0)
                          .hold(cst, kTrackTensorMatrix)
                          .hold(std::min({st.result, st.intermediate, st.temp, st.accumulator}), kTrackVector)
                          .value());
        g.set_layer("iter" + std::to_string(i));
        loop_body(g, data, i, cst, 0, st);
    }
    g.set_layer("store");
    const LoopVector lv = loop_vector(sp);
    return g.direct(DmaKind::hbm_write, out, lv.partitions, lv.elems, st.result);
}

// for_loop_launch: one graph launch per iteration; each graph reloads the
// running result and stores it back (the small body).
Time lower_for_loop_launch(Graph& g, Time& device_ns) {
    const PatternSpec& sp = g.spec;
    const LoopVector lv = loop_vector(sp);
    uint16_t data = g.name("data"), out = g.name("result");
    g.hlo = g.name("%result = add(%result, mean(dynamic-slice(data)))");
    Time t = 0;
    device_ns = 0;
    for (int64_t i = 0; i < sp.trip_count(); ++i) {
        g.s.set_floor(Floor(g.s).hold(t, kTrackHost).value());
        g.set_layer("launch" + std::to_string(i));
        Time launched = g.instr(kTrackHost, Op::nrt_execute, kHostDispatchNs, t, 0, 0, EventType::runtime);
        const Time body = g.s.begin_kernel(launched);
        g.scalar_inputs.clear();  // a graph of its own: its own inputs
        Time cst = loop_constants(g);
        LoopState st;
        st.result = g.direct(DmaKind::hbm_read, out, lv.partitions, lv.elems, body);
        loop_body(g, data, i, cst, body, st);
        g.direct(DmaKind::hbm_write, out, lv.partitions, lv.elems, st.result);
        t = g.s.end_kernel();
        device_ns += t - launched;
    }
    return t;
}

}  // namespace

int64_t pattern_sbuf_bytes(const PatternSpec& spec) {
    return kResidentRowTiles * spec.features * dtype_bytes(spec.dtype);
}


int64_t PatternSpec::trip_count() const {
    if (kind != PatternKind::for_loop && kind != PatternKind::for_loop_launch) return iterations;
    return std::max<int64_t>(for_loop_trips(size, iterations), 1);
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
