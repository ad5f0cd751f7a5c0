// Convolution: conv2d (stride 1, no padding) with an optional fused 2x2
// max-pool, lowered as im2col with input reuse, the way an NKI kernel writes it
// (the CS149 fused_conv2d_maxpool kernels): weights preloaded into SBUF once;
// per block of output rows and per 128-channel input tile, the strip of input
// rows the block's taps need is loaded once (one DMA per row) and every filter
// tap builds its shifted window from that strip by an SBUF copy on ScalarE;
// each tap is one matmul per 128-channel output tile, accumulated in PSUM over
// taps and input tiles, evacuated by VectorE (bias add), max-pooled there when
// asked, and stored.  Unlike an im2col matmul, the input crosses HBM once, not
// filter x filter times.
#pragma once

#include <cstdint>

#include "common/model/cost_model.h"

namespace nx::model {

class Scheduler;

struct ConvSpec {
    int64_t batch = 1, channels = 0, out_channels = 0, height = 0, width = 0;
    int64_t filter = 3;  // square filter, filter x filter taps
    int64_t pool = 1;    // pool x pool max-pool after the convolution (1: none)
    DType dtype = DType::bf16;
};

// The kernel's geometry: output size, rows per block (as many whole output
// rows as one PSUM bank's 512 moving columns hold, a multiple of pool),
// channel tiles.
struct ConvGeometry {
    int64_t out_h = 0, out_w = 0;
    int64_t block_rows = 0;   // output rows per block
    int64_t strip_rows = 0;   // input rows a block reads: block_rows + filter - 1
    int64_t blocks = 0;       // per image
    int64_t k_tiles = 0;      // input-channel tiles of 128
    int64_t m_tiles = 0;      // output-channel tiles of 128
    int64_t matmuls = 0;      // MultiplyMoving instructions in all
    int64_t input_loads = 0;  // strip-row DMAs in all
};
ConvGeometry conv_geometry(const ConvSpec& spec);

// SBUF bytes per partition the kernel needs (weights resident, two strips,
// two windows, two output blocks); `why` says what when it does not fit.
double conv_sbuf_required(const ConvSpec& spec, const CostModel& cost, std::string& why);

struct ConvOutcome {
    Time end = 0;
    double sbuf_bytes = 0;
};

ConvOutcome lower_conv(Scheduler& s, const ConvSpec& spec);

}  // namespace nx::model
