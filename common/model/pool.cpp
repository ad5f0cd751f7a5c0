#include "common/model/pool.h"

#include <algorithm>
#include <array>
#include <string>

#include "common/model/kernel_emitter.h"
#include "common/model/scheduler.h"

namespace nx::model {

namespace {

// Two generations of the strips and output blocks: the next block's load
// overlaps this block's reduction and store.
constexpr int kGenerations = 2;

// Input rows `out_rows` output rows read.
int64_t strip_rows_for(const PoolSpec& spec, int64_t out_rows) { return (out_rows - 1) * spec.stride + spec.pool; }

}  // namespace

PoolGeometry pool_geometry(const PoolSpec& spec) {
    PoolGeometry g;
    if (spec.pool > spec.height || spec.pool > spec.width || spec.stride <= 0) return g;
    g.out_h = (spec.height - spec.pool) / spec.stride + 1;
    g.out_w = (spec.width - spec.pool) / spec.stride + 1;
    // Enough output rows that the strip reaches kPoolStripBytes per
    // partition, when the image has them.
    const int64_t row_bytes = spec.width * dtype_bytes(spec.dtype);
    const int64_t rows_needed = ceil_div(kPoolStripBytes, row_bytes);
    const int64_t out_rows = rows_needed <= spec.pool ? 1 : ceil_div(rows_needed - spec.pool, spec.stride) + 1;
    g.block_rows = std::min(out_rows, g.out_h);
    g.strip_rows = strip_rows_for(spec, g.block_rows);
    g.blocks = ceil_div(g.out_h, g.block_rows);
    g.c_tiles = ceil_div(spec.channels, kPartitions);
    // Per output row: the row pass reads two rows of the input per
    // instruction, the column pass two output-width rows; the reduction
    // reads each window's pool x pool elements.
    g.separable_cycles = 2 * (spec.pool - 1) * (spec.width + g.out_w);
    g.reduce_cycles = spec.pool * spec.pool * g.out_w;
    return g;
}

PoolVariant auto_pool_variant(const PoolSpec& spec) {
    const PoolGeometry g = pool_geometry(spec);
    return g.reduce_cycles <= g.separable_cycles ? PoolVariant::reduce : PoolVariant::separable;
}

double pool_sbuf_required(const PoolSpec& spec, const CostModel& cost, std::string& why) {
    why.clear();
    const PoolGeometry g = pool_geometry(spec);
    const double b = dtype_bytes(spec.dtype);
    const double strips = kGenerations * static_cast<double>(g.strip_rows * spec.width) * b;
    const double row_pass = spec.variant == PoolVariant::separable ? static_cast<double>(g.block_rows * spec.width) * b : 0;
    // An average is scaled into a buffer of its own.
    const int outputs = spec.reduce == PoolReduce::avg ? 2 * kGenerations : kGenerations;
    const double outs = outputs * static_cast<double>(g.block_rows * g.out_w) * b;
    const double need = strips + row_pass + outs;
    const double have = cost.target().sbuf_bytes_per_partition();
    if (need > have)
        why = "a block of " + std::to_string(g.block_rows) + " output row(s) needs " +
              std::to_string(static_cast<int64_t>(need / 1024)) + " KiB of SBUF per partition, " +
              std::to_string(static_cast<int64_t>(have / 1024)) + " KiB available";
    return need;
}

PoolOutcome lower_pool(Scheduler& s, const PoolSpec& spec) {
    KernelEmitter e(s, spec.dtype);
    e.hlo = s.stream().name(spec.reduce == PoolReduce::max ? "%max_pool2d" : "%avg_pool2d");
    const PoolGeometry g = pool_geometry(spec);
    const uint16_t x_name = s.stream().name("x"), out_name = s.stream().name("out");
    const int64_t P = spec.pool;
    const bool avg = spec.reduce == PoolReduce::avg;
    // The store is triggered by the engine that made the block.
    const int store_engine = avg ? kTrackScalar : kTrackVector;

    std::array<Time, kGenerations> strip_free{}, out_free{};
    int gen = 0;
    for (int64_t b = 0; b < spec.batch; ++b)
        for (int64_t ct = 0; ct < g.c_tiles; ++ct) {
            const int64_t parts = std::min(kPartitions, spec.channels - ct * kPartitions);
            for (int64_t blk = 0; blk < g.blocks; ++blk) {
                const int64_t rows = std::min(g.block_rows, g.out_h - blk * g.block_rows);
                const int64_t strip_rows = strip_rows_for(spec, rows);
                const int64_t out_n = rows * g.out_w;
                if (s.tracing())
                    e.layer = s.stream().layer("pool2d/b" + std::to_string(b) + "_c" + std::to_string(ct) + "_rows" +
                                               std::to_string(blk));
                s.set_floor(Floor(s).hold_all(strip_free, kTrackSync).hold_all(out_free, kTrackVector).value());
                const size_t slot = static_cast<size_t>(gen);
                // The strip: each channel's input rows are one range of its
                // plane (the planes are apart unless the strip is all of it).
                const Time strip = e.dma(DmaKind::hbm_read, x_name, parts, strip_rows * spec.width, strip_free[slot],
                                         b * g.blocks + blk, ct, kTrackSync, strip_rows < spec.height);
                const Op combine = Op::tensor_tensor;  // max or add, same cost
                Time v;
                Time strip_read;
                if (spec.variant == PoolVariant::separable) {
                    // Over the window's rows (into the row buffer), then
                    // over its columns (into the output block).
                    v = strip;
                    for (int64_t r = 1; r < P; ++r) v = e.vec(combine, parts, rows * spec.width, 2, v);
                    strip_read = v;
                    v = std::max(v, out_free[slot]);
                    for (int64_t c = 1; c < P; ++c) v = e.vec(combine, parts, out_n, 2, v);
                } else {
                    v = e.vec(Op::tensor_reduce, parts, out_n * P * P, 1, std::max(strip, out_free[slot]));
                    strip_read = v;
                }
                strip_free[slot] = strip_read;
                if (avg) v = e.act(Op::activation, parts, out_n, v);  // the sum x 1/(pool x pool)
                const Time st = e.dma(DmaKind::hbm_write, out_name, parts, out_n, v, b * g.blocks + blk, ct, store_engine,
                                      rows < g.out_h);
                out_free[slot] = st;
                gen = (gen + 1) % kGenerations;
            }
        }
    PoolOutcome o;
    std::string why;
    o.sbuf_bytes = pool_sbuf_required(spec, s.cost(), why);
    return o;
}

}  // namespace nx::model
