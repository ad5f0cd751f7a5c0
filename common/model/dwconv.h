// Depthwise conv1d (each channel convolved with its own filter of `filter`
// taps, zero-padded so the output is as wide as the input), lowered as the
// NKI kernels of the Autocomp study write it (charleshong3.github.io/blog/
// autocomp_trainium_conv1d.html; trn1): channels on the partitions, a row of
// the sequence on the free axis, the image and the output moved once per
// batch and 128-channel tile.  The work is on VectorE:
//   per_position  the AWS kernel (conv1d_depthwise_default, nki-samples
//                 neuron-team-kernels/conv.py): the filters loaded once into
//                 SBUF, loops batch -> channel tile; per output position a
//                 tensor_tensor of the filter and the window (both in SBUF:
//                 2N cycles), then a sum; neuronx-cc reduces four positions'
//                 products in one tensor_reduce (the blog's profile: ~65536
//                 tensor_tensor, ~16384 tensor_reduce for 8x512x2048)
//   windowed      Autocomp's final kernel (ucb-bar/autocomp examples/
//                 trn-advanced/4_conv1d_opt.py): loops channel tile -> batch,
//                 the channel tile's filters loaded and copied once into PSUM
//                 by VectorE (its step 5, reused across the batch), so every
//                 tensor_tensor reads one input from PSUM (N cycles, the
//                 tensor_tensor cost table); one tensor_tensor over a window
//                 of 128 positions' taps (an access pattern with overlapping
//                 windows) and one tensor_reduce over the taps (the blog's
//                 512 of each for the same shape, after its step 6)
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
    int64_t psum_copies = 0;     // filter tiles copied from SBUF into PSUM (windowed)
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
