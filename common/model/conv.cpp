#include "common/model/conv.h"

#include <algorithm>
#include <string>
#include <vector>

#include "common/model/kernel_emitter.h"
#include "common/model/scheduler.h"

namespace nx::model {

namespace {

// Two generations of the strips, windows and output blocks: the next block's
// loads and copies overlap this block's matmuls.
constexpr int kGenerations = 2;

// The fused max-pool as the measured kernel writes it (CS149 solution.md,
// "Fused MaxPool"): per pooled row, the max over the pool's rows on VectorE,
// then the even and odd columns (each of the pool's column phases) gathered
// by a stride-`pool` tensor assignment, and the max over those.  The gathers
// are SBUF-to-SBUF copies like the tap windows, which the kernel's author saw
// on ScalarE (tensor_copy is not a ScalarE instruction on NC-v2; NKI copies
// there through an activation), so they go where the window copies go.  In
// program order they come before the next block's window copies: ScalarE
// waits for this block's evacuation and row max before it can build the next
// windows, which costs where ScalarE is the busiest engine (fp16) and hides
// under TensorE where the matmuls are longer (fp32).
Time fused_max_pool(KernelEmitter& e, int64_t parts, int64_t pooled_rows, int64_t width, int64_t pool, Time ready) {
    const int64_t pooled = pooled_rows * (width / pool);
    Time v = ready;
    for (int64_t r = 1; r < pool; ++r) v = e.vec(Op::tensor_tensor, parts, pooled_rows * width, 2, v);
    Time gathered = v;
    for (int64_t c = 0; c < pool; ++c) gathered = std::max(gathered, e.act(Op::tensor_copy, parts, pooled, v));
    for (int64_t c = 1; c < pool; ++c) gathered = e.vec(Op::tensor_tensor, parts, pooled, 2, gathered);
    return gathered;
}

}  // namespace

ConvGeometry conv_geometry(const ConvSpec& spec) {
    ConvGeometry g;
    g.out_h = std::max<int64_t>(spec.height - spec.filter + 1, 0);
    g.out_w = std::max<int64_t>(spec.width - spec.filter + 1, 0);
    if (g.out_h == 0 || g.out_w == 0) return g;
    // Whole output rows in one PSUM bank's moving columns; a pooled block
    // holds whole pool windows (at least `pool` rows even past 512 columns).
    int64_t rows = std::max<int64_t>(kMovingMax / g.out_w, 1);
    rows = std::max(rows - rows % spec.pool, spec.pool);
    g.block_rows = std::min(rows, g.out_h);
    g.strip_rows = g.block_rows + spec.filter - 1;
    g.blocks = ceil_div(g.out_h, g.block_rows);
    g.k_tiles = ceil_div(spec.channels, kPartitions);
    g.m_tiles = ceil_div(spec.out_channels, kStationaryMax);
    // A block wider than one bank is split into bank-sized moving pieces.
    const int64_t pieces = ceil_div(g.block_rows * g.out_w, kMovingMax);
    g.matmuls = spec.batch * g.blocks * g.k_tiles * spec.filter * spec.filter * g.m_tiles * pieces;
    g.input_loads = spec.batch * g.blocks * g.k_tiles * g.strip_rows;
    return g;
}

double conv_sbuf_required(const ConvSpec& spec, const CostModel& cost, std::string& why) {
    why.clear();
    const ConvGeometry g = conv_geometry(spec);
    const double b = dtype_bytes(spec.dtype);
    const double weights = static_cast<double>(g.k_tiles * spec.filter * spec.filter * spec.out_channels) * b;
    const double strips = kGenerations * static_cast<double>(g.strip_rows * spec.width) * b;
    const double windows = kGenerations * static_cast<double>(g.block_rows * g.out_w) * b;
    const double outs = kGenerations * static_cast<double>(g.m_tiles * g.block_rows * g.out_w) * b;
    const double need = weights + strips + windows + outs;
    const double have = cost.target().sbuf_bytes_per_partition();
    if (need > have)
        why = "needs " + std::to_string(static_cast<int64_t>(need / 1024)) + " KiB of SBUF per partition (weights " +
              std::to_string(static_cast<int64_t>(weights / 1024)) + " KiB), " +
              std::to_string(static_cast<int64_t>(have / 1024)) + " KiB available";
    return need;
}

ConvOutcome lower_conv(Scheduler& s, const ConvSpec& spec) {
    KernelEmitter e(s, spec.dtype);
    e.hlo = s.stream().name("%conv2d");
    const ConvGeometry g = conv_geometry(spec);
    const uint16_t x_name = s.stream().name("x"), w_name = s.stream().name("w"), out_name = s.stream().name("out");
    const int64_t F = spec.filter, taps = F * F;
    auto layer = [&](const std::string& n) {
        if (s.tracing()) e.layer = s.stream().layer("conv2d/" + n);
    };
    auto k_parts = [&](int64_t k) { return std::min(kPartitions, spec.channels - k * kPartitions); };
    auto m_cols = [&](int64_t m) { return std::min(kStationaryMax, spec.out_channels - m * kStationaryMax); };

    // Weights, [in channel, out channel x tap] per input tile, loaded once.
    layer("weights");
    std::vector<Time> w(static_cast<size_t>(g.k_tiles));
    for (int64_t k = 0; k < g.k_tiles; ++k)
        w[static_cast<size_t>(k)] = e.dma(DmaKind::weight_load, w_name, k_parts(k), spec.out_channels * taps, 0, k, 0);

    std::vector<Time> strip_free(kGenerations, 0.0), window_free(kGenerations, 0.0);
    // Per output tile, when each generation's PSUM bank was last evacuated.
    std::vector<Time> bank_free(static_cast<size_t>(g.m_tiles * kGenerations), 0.0);
    // Per output tile, when each generation's output block was last stored
    // (the other tiles' stores of the same block do not hold it).
    std::vector<Time> out_free(static_cast<size_t>(g.m_tiles * kGenerations), 0.0);
    int strip_gen = 0, window_gen = 0, block_gen = 0;
    Time end = 0;
    for (int64_t b = 0; b < spec.batch; ++b)
        for (int64_t blk = 0; blk < g.blocks; ++blk) {
            const int64_t rows = std::min(g.block_rows, g.out_h - blk * g.block_rows);
            const int64_t n = rows * g.out_w;
            layer("b" + std::to_string(b) + "_rows" + std::to_string(blk));
            {
                Floor f(s);
                f.hold_all(strip_free, kTrackSync).hold_all(window_free, kTrackScalar).hold_all(w, kTrackTensor);
                f.hold_all(bank_free, kTrackTensorMatrix).hold_all(out_free, kTrackVector);
                s.set_floor(f.value());
            }
            std::vector<Time> acc(static_cast<size_t>(g.m_tiles), 0.0);
            for (int64_t k = 0; k < g.k_tiles; ++k) {
                const int64_t kp = k_parts(k);
                // The strip: one DMA per input row, each a row of every
                // channel of the tile (strided: the channel planes are apart).
                Time strip = 0;
                const Time slot = strip_free[static_cast<size_t>(strip_gen)];
                for (int64_t r = 0; r < rows + F - 1; ++r)
                    strip = std::max(strip, e.dma(DmaKind::hbm_read, x_name, kp, spec.width, slot,
                                                  blk * g.block_rows + r, k, kTrackSync, true));
                Time strip_read = strip;
                for (int64_t t = 0; t < taps; ++t) {
                    // The tap's shifted window: a copy out of the strip.
                    const Time wslot = window_free[static_cast<size_t>(window_gen)];
                    const Time window = e.act(Op::tensor_copy, kp, n, std::max(strip, wslot));
                    strip_read = std::max(strip_read, window);
                    Time last_read = window;
                    for (int64_t m = 0; m < g.m_tiles; ++m)
                        for (int64_t c = 0; c < n; c += kMovingMax) {
                            const Time done =
                                e.matmul(Op::multiply_moving, w[static_cast<size_t>(k)], window,
                                         bank_free[static_cast<size_t>(m * kGenerations + block_gen)], kp, m_cols(m),
                                         std::min(kMovingMax, n - c));
                            acc[static_cast<size_t>(m)] = std::max(acc[static_cast<size_t>(m)], done);
                            last_read = std::max(last_read, done);
                        }
                    window_free[static_cast<size_t>(window_gen)] = last_read;
                    window_gen = (window_gen + 1) % kGenerations;
                }
                strip_free[static_cast<size_t>(strip_gen)] = strip_read;
                strip_gen = (strip_gen + 1) % kGenerations;
            }
            // Evacuate each output tile (adding the bias), pool, store.  The
            // kernel copies PSUM to SBUF, then adds the bias: one VectorE
            // instruction of two passes stands for the pair.
            for (int64_t m = 0; m < g.m_tiles; ++m) {
                const int64_t mc = m_cols(m);
                const size_t slot = static_cast<size_t>(m * kGenerations + block_gen);
                Time v = e.vec(Op::tensor_tensor, mc, n, 2, std::max(acc[static_cast<size_t>(m)], out_free[slot]));
                bank_free[slot] = v;
                int64_t out_n = n;
                if (spec.pool > 1) {
                    out_n = (rows / spec.pool) * (g.out_w / spec.pool);
                    v = fused_max_pool(e, mc, rows / spec.pool, g.out_w, spec.pool, v);
                }
                const Time st = e.dma(DmaKind::hbm_write, out_name, mc, out_n, v, blk, m, kTrackVector, true);
                out_free[slot] = st;
                end = std::max(end, st);
            }
            block_gen = (block_gen + 1) % kGenerations;
        }
    ConvOutcome o;
    o.end = end;
    std::string why;
    o.sbuf_bytes = conv_sbuf_required(spec, s.cost(), why);
    return o;
}

}  // namespace nx::model
