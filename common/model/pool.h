// Pooling on its own (op pool2d): max or average over pool x pool windows at
// a stride, no padding, lowered the way an NKI kernel writes it: channels on
// the partitions, per image and 128-channel tile the input streamed
// HBM->SBUF in blocks of whole output rows (one DMA per block's strip of
// input rows), the windows reduced on VectorE, an average scaled by
// 1/(pool x pool) on ScalarE, and each block's output stored.
//
// Two ways to reduce a block's windows (the workload's variant):
//   separable  tensor_tensor over the window's rows (pool - 1 instructions
//              reading two tiles of block rows x width), then over its
//              columns (pool - 1 over block rows x output width), the
//              operands' access patterns stepping by the stride;
//   reduce     one tensor_reduce over a [rows, columns, pool, pool] access
//              pattern of the strip, reading every window's elements once.
// auto takes the one with fewer VectorE cycles for the shape: reduce for
// windows that do not overlap (pool 2 stride 2: 2 passes of the input against
// 3), separable for overlapping ones (pool 3 stride 1: 8 against 9).
#pragma once

#include <cstdint>
#include <string>

#include "common/model/cost_model.h"

namespace nx::model {

class Scheduler;

enum class PoolReduce { max, avg };
enum class PoolVariant { separable, reduce };

struct PoolSpec {
    int64_t batch = 1, channels = 0, height = 0, width = 0;
    int64_t pool = 2;    // pool x pool windows
    int64_t stride = 2;  // between windows, both ways
    PoolReduce reduce = PoolReduce::max;
    PoolVariant variant = PoolVariant::reduce;
    DType dtype = DType::bf16;
};

// The kernel's geometry: output size, output rows per block (enough that the
// block's strip is at least kPoolStripBytes per partition, the DMA guide's
// size that saturates a DMA engine), channel tiles, instruction counts.
inline constexpr int64_t kPoolStripBytes = 4096;
struct PoolGeometry {
    int64_t out_h = 0, out_w = 0;
    int64_t block_rows = 0;  // output rows per block
    int64_t strip_rows = 0;  // input rows a full block reads: (block_rows - 1) x stride + pool
    int64_t blocks = 0;      // per image and channel tile
    int64_t c_tiles = 0;     // channel tiles of 128
    // VectorE cycles per block row (static overhead aside) of each variant.
    int64_t separable_cycles = 0, reduce_cycles = 0;
};
PoolGeometry pool_geometry(const PoolSpec& spec);

// The variant auto picks for the shape.
PoolVariant auto_pool_variant(const PoolSpec& spec);

// SBUF bytes per partition (two strips, the row pass's result, two output
// blocks); `why` says what when it does not fit.
double pool_sbuf_required(const PoolSpec& spec, const CostModel& cost, std::string& why);

struct PoolOutcome {
    double sbuf_bytes = 0;
};

PoolOutcome lower_pool(Scheduler& s, const PoolSpec& spec);

}  // namespace nx::model
