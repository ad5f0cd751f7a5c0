// conv2d lowered as im2col with input reuse (common/model/conv.*): its
// geometry, its instruction and transfer counts, the bytes it moves (the
// input crosses HBM once per block, not once per filter tap), the fused pool
// (as the measured kernel writes it, and slower than no pool as measured),
// and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>

#include "common/io/error.h"
#include "common/model/conv.h"
#include "test/unit/test_model_support.h"

namespace nx::model {
namespace {

using testing::Recorder;
using testing::run;

Workload conv(int64_t channels, int64_t out_channels, int64_t hw, int64_t pool = 1, const std::string& dtype = "bf16") {
    Workload w;
    w.name = "conv";
    w.op = "conv2d";
    w.channels = channels;
    w.out_channels = out_channels;
    w.height = w.width = hw;
    w.filter = 3;
    w.pool = pool;
    w.dtype = dtype;
    w.target = "trn1";
    return w;
}

Recorder record(const Workload& w, SimResult* result) {
    Recorder rec;
    *result = simulate(w, workload_target(w), &rec);
    return rec;
}

TEST(SimConv, GeometryOfTheCourseKernel) {
    // 256 -> 256 channels, 224x224, 3x3: two output rows of 222 per block
    // (444 moving columns), a strip of four input rows per input tile.
    ConvSpec s;
    s.channels = s.out_channels = 256;
    s.height = s.width = 224;
    ConvGeometry g = conv_geometry(s);
    EXPECT_EQ(g.out_h, 222);
    EXPECT_EQ(g.out_w, 222);
    EXPECT_EQ(g.block_rows, 2);
    EXPECT_EQ(g.strip_rows, 4);
    EXPECT_EQ(g.blocks, 111);
    EXPECT_EQ(g.k_tiles, 2);
    EXPECT_EQ(g.m_tiles, 2);
    EXPECT_EQ(g.matmuls, 111 * 2 * 9 * 2);
    EXPECT_EQ(g.input_loads, 111 * 2 * 4);
    // Pooled 2x2, a block keeps whole pool windows.
    s.width = s.height = 20;  // 18 columns: 28 rows would fit a bank, 28 is even
    s.pool = 2;
    g = conv_geometry(s);
    EXPECT_EQ(g.block_rows, 18);  // the whole 18-row output
    s.width = s.height = 100;     // 98 columns: 5 rows fit, 4 are whole windows
    EXPECT_EQ(conv_geometry(s).block_rows, 4);
}

TEST(SimConv, EventsAndBytesAreTheKernels) {
    // 200 -> 130 channels (two input tiles, two output tiles, both partial),
    // 34x34: 32x32 output, 16 rows of 32 per block, 2 blocks.
    Workload w = conv(200, 130, 34);
    SimResult r;
    Recorder rec = record(w, &r);
    ConvSpec s;
    s.channels = 200;
    s.out_channels = 130;
    s.height = s.width = 34;
    const ConvGeometry g = conv_geometry(s);
    ASSERT_EQ(g.blocks, 2);
    int mm = 0, copies = 0;
    for (const auto& e : rec.events) {
        if (e.track == "TensorMatrix") ++mm;
        if (e.track == "Scalar" && e.name == "TensorCopy") ++copies;
    }
    EXPECT_EQ(mm, g.matmuls);
    EXPECT_EQ(copies, g.blocks * g.k_tiles * 9);  // one window per tap and input tile
    const double b = 2;
    const double weights = 200.0 * 130 * 9 * b;
    // Each block reads its 18-row strip once: the input crosses HBM once
    // (plus the two rows blocks share), not nine times as an im2col matmul's.
    const double input = 2.0 * 18 * 34 * 200 * b;
    EXPECT_DOUBLE_EQ(r.hbm_read_bytes, weights + input);
    EXPECT_DOUBLE_EQ(r.hbm_write_bytes, 130.0 * 32 * 32 * b);
    EXPECT_DOUBLE_EQ(r.model_flops, 2.0 * 130 * 200 * 9 * 32 * 32);
    EXPECT_EQ(r.floor_clamps, 0);
    for (size_t i = 1; i < rec.events.size(); ++i) ASSERT_LE(rec.events[i - 1].ts, rec.events[i].ts);
}

TEST(SimConv, PoolStoresAQuarterAndWorksOnVectorE) {
    SimResult plain = run(conv(128, 128, 66)), pooled = run(conv(128, 128, 66, 2));
    EXPECT_DOUBLE_EQ(pooled.hbm_write_bytes, plain.hbm_write_bytes / 4);
    EXPECT_DOUBLE_EQ(pooled.model_flops, plain.model_flops);
    EXPECT_GT(pooled.vector_busy_ns, plain.vector_busy_ns);
}

TEST(SimConv, TheFusedPoolIsRowMaxColumnGathersAndColumnMax) {
    // 128 -> 128 channels, 66x66: 64x64 output, 8 rows of 64 per block, 8
    // blocks, one tile each way.  Pooled, every block adds a row max and a
    // column max on VectorE and two stride-2 column gathers on ScalarE (the
    // measured kernel's fused pool), each gather a quarter of the block.
    auto count = [](const Recorder& rec, const char* track, const char* name, int64_t* shortest = nullptr) {
        int c = 0;
        for (const auto& e : rec.events)
            if (e.track == track && e.name == name && e.type == EventType::instruction) {
                ++c;
                if (shortest) *shortest = std::min(*shortest, e.dur);
            }
        return c;
    };
    SimResult r;
    Recorder plain = record(conv(128, 128, 66), &r), pooled = record(conv(128, 128, 66, 2), &r);
    EXPECT_EQ(count(plain, "Vector", "TensorTensor"), 8);
    EXPECT_EQ(count(pooled, "Vector", "TensorTensor"), 8 * 3);
    EXPECT_EQ(count(plain, "Scalar", "TensorCopy"), 8 * 9);
    int64_t gather = INT64_MAX;
    EXPECT_EQ(count(pooled, "Scalar", "TensorCopy", &gather), 8 * (9 + 2));
    // A gather moves 4 pooled rows of 32: ScalarE's 189 ns issue floor.
    EXPECT_EQ(gather, 189);
}

TEST(SimConv, PoolingTheCourseKernelCostsTimeAsOnHardware) {
    // conv2d_trn1_*_pool are slower than their unpooled twins (3741 against
    // 3681 us in fp32, 1275 against 1060 in fp16): the gathers wait on
    // ScalarE for the row max, ahead of the next block's windows.
    for (const char* dtype : {"fp32", "fp16"}) {
        const double plain = run(conv(256, 256, 224, 1, dtype)).latency_ns;
        const double pooled = run(conv(256, 256, 224, 2, dtype)).latency_ns;
        EXPECT_GT(pooled, plain) << dtype;
    }
}

TEST(SimConv, AnOutputTileDoesNotWaitForTheOtherTilesStore) {
    // Two output tiles: the second is evacuated while the first is stored.
    SimResult r;
    Recorder rec = record(conv(128, 256, 34), &r);
    int64_t second_evacuation = -1, first_store_end = 0;
    int evacuations = 0;
    for (const auto& e : rec.events) {
        if (e.track == "Vector" && e.name == "TensorTensor" && ++evacuations == 2) second_evacuation = e.ts;
        if (e.tensor.rfind("out[0,0]", 0) == 0) first_store_end = std::max(first_store_end, e.ts + e.dur);
    }
    ASSERT_GT(first_store_end, 0);
    ASSERT_GE(second_evacuation, 0);
    EXPECT_LT(second_evacuation, first_store_end);
}

TEST(SimConv, ReusingTheInputBeatsTheIm2colMatmul) {
    // The same FLOPs as a matmul over the 9x-replicated input (the proxy the
    // calibration used before the model had conv2d): far fewer HBM bytes.
    SimResult c = run(conv(256, 256, 114, 1, "fp16"));
    Workload mm = testing::matmul_workload(256, 256 * 9, 112 * 112, "", "fp16");
    SimResult m = run(mm);
    EXPECT_DOUBLE_EQ(c.model_flops, m.model_flops);
    EXPECT_LT(c.hbm_read_bytes * 3, m.hbm_read_bytes);
    EXPECT_LT(c.latency_ns, m.latency_ns);
}

TEST(SimConv, BadInputIsRefusedWithTheWorkloadsName) {
    struct Case {
        Workload w;
        const char* message;
    };
    Workload small = conv(8, 8, 2), no_ch = conv(0, 8, 8), pool_big = conv(8, 8, 4, 3), variant = conv(8, 8, 8);
    variant.variant = "naive";
    const Case cases[] = {{small, "conv: filter 3 is larger than the 2x2 input"},
                          {no_ch, "conv: channels must be positive, got 0"},
                          {pool_big, "conv: pool 3 is larger than the 2x2 output"},
                          {variant, "conv: variant 'naive' does not apply to conv2d"}};
    for (const Case& c : cases) {
        try {
            run(c.w);
            ADD_FAILURE() << "accepted: " << c.message;
        } catch (const Error& e) {
            EXPECT_STREQ(e.what(), c.message);
        }
    }
}

}  // namespace
}  // namespace nx::model
