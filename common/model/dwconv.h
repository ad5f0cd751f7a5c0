// Depthwise conv1d (each channel convolved with its own filter of `filter`
// taps, zero-padded so the output is as wide as the input), lowered as the
// NKI kernels of the Autocomp study write it (charleshong3.github.io/blog/
// autocomp_trainium_conv1d.html; trn1): channels on the partitions, a row of
// the sequence on the free axis, the filters loaded once, the image and the
// output moved once per batch and 128-channel tile.  The work is on VectorE:
//   per_position  the AWS kernel (conv1d_depthwise_default): per output
//                 position a tensor_tensor of the filter and the window,
//                 then a sum; neuronx-cc reduces four positions' products
//                 in one tensor_reduce (the blog's profile: ~65536
//                 tensor_tensor, ~16384 tensor_reduce for 8x512x2048)
//   windowed      one tensor_tensor over a window of 128 positions' taps
//                 (an access pattern with overlapping windows) and one
//                 tensor_reduce over the taps (the optimised kernel's 512
//                 of each for the same shape)
#pragma once

#include <cstdint>

#include "common/model/cost_model.h"

namespace nx::model {

class Scheduler;

enum class DwConvVariant { per_position, windowed };

struct DwConvSpec {
    int64_t batch = 1, channels = 0, width = 0, filter = 3;
    DwConvVariant variant = DwConvVariant::windowed;
    DType dtype = DType::fp32;
};

// Positions one tensor_reduce sums in the per-position kernel, and one
// window of the windowed kernel.
inline constexpr int64_t kDwReducePositions = 4;
inline constexpr int64_t kDwWindow = 128;

struct DwConvCounts {
    int64_t tiles = 0;           // (batch, channel tile) pairs
    int64_t tensor_tensor = 0;   // multiplies
    int64_t tensor_reduce = 0;   // sums
};
DwConvCounts dwconv_counts(const DwConvSpec& spec);

// SBUF bytes per partition: filters, two generations of padded input rows
// and output rows.
double dwconv_sbuf_required(const DwConvSpec& spec);

struct DwConvOutcome {
    Time end = 0;
    double sbuf_bytes = 0;
};

DwConvOutcome lower_dwconv(Scheduler& s, const DwConvSpec& spec);

}  // namespace nx::model
