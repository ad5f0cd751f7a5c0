// pool2d lowered as an NKI kernel (common/model/pool.*): its geometry, the
// variant auto picks, its instruction counts and durations, the bytes it
// moves, average pooling's ScalarE scale, and bad input.
#include <gtest/gtest.h>

#include <cmath>

#include "common/model/pool.h"
#include "test/unit/test_model_support.h"

namespace nx::model {
namespace {

using testing::Recorder;
using testing::run;

Workload pool2d(int64_t channels, int64_t hw, int64_t pool, int64_t stride, const std::string& opname = "max",
                const std::string& variant = "", const std::string& dtype = "fp32") {
    Workload w;
    w.name = "p";
    w.op = "pool2d";
    w.channels = channels;
    w.height = w.width = hw;
    w.pool = pool;
    w.stride = stride;
    w.opname = opname;
    w.variant = variant;
    w.dtype = dtype;
    w.target = "trn1";
    return w;
}

int count(const Recorder& rec, const char* track, const char* name) {
    int n = 0;
    for (const auto& e : rec.events)
        if (e.track == track && e.name == name && e.type == EventType::instruction) ++n;
    return n;
}

TEST(SimPool, GeometryStreamsBlocksOfAtLeastFourKiB) {
    // 112x112 bf16: 224-byte rows, so 19 rows make 4 KiB; 2x2 stride 2 reads
    // 20 rows for 10 output rows.
    PoolSpec s;
    s.channels = 256;
    s.height = s.width = 112;
    s.dtype = DType::bf16;
    PoolGeometry g = pool_geometry(s);
    EXPECT_EQ(g.out_h, 56);
    EXPECT_EQ(g.out_w, 56);
    EXPECT_EQ(g.block_rows, 10);
    EXPECT_EQ(g.strip_rows, 20);
    EXPECT_EQ(g.blocks, 6);
    EXPECT_EQ(g.c_tiles, 2);
    // Per output row: separable 2 x (112 + 56), reduce 4 x 56.
    EXPECT_EQ(g.separable_cycles, 336);
    EXPECT_EQ(g.reduce_cycles, 224);
    EXPECT_EQ(auto_pool_variant(s), PoolVariant::reduce);
    // 3x3 windows at stride 1 overlap: the separable passes are cheaper
    // (2 x 2 x (34 + 32) against 9 x 32).
    s.height = s.width = 34;
    s.pool = 3;
    s.stride = 1;
    g = pool_geometry(s);
    EXPECT_EQ(g.out_h, 32);
    EXPECT_EQ(g.separable_cycles, 264);
    EXPECT_EQ(g.reduce_cycles, 288);
    EXPECT_EQ(auto_pool_variant(s), PoolVariant::separable);
    // Rows wider than 4 KiB: one output row per block.
    s.height = s.width = 2000;
    EXPECT_EQ(pool_geometry(s).block_rows, 1);
}

TEST(SimPool, InstructionsAndBytesAreTheKernels) {
    // 200 channels (tiles of 128 and 72), 34x34 fp32, 2x2 stride 2: 17x17
    // output, 136-byte rows, blocks of 16 output rows (32 input rows) and 1.
    SimResult r;
    Recorder sep, red;
    r = simulate(pool2d(200, 34, 2, 2, "max", "separable"), workload_target(pool2d(200, 34, 2, 2)), &sep);
    const int blocks = 2 * 2;  // channel tiles x blocks
    EXPECT_EQ(count(sep, "Vector", "TensorTensor"), blocks * 2);  // a row pass and a column pass
    EXPECT_EQ(count(sep, "Vector", "TensorReduce"), 0);
    // Windows that do not overlap: the input crosses HBM exactly once.
    EXPECT_DOUBLE_EQ(r.hbm_read_bytes, 200.0 * 34 * 34 * 4);
    EXPECT_DOUBLE_EQ(r.hbm_write_bytes, 200.0 * 17 * 17 * 4);
    EXPECT_DOUBLE_EQ(r.model_flops, 0);
    EXPECT_EQ(r.floor_clamps, 0);
    r = simulate(pool2d(200, 34, 2, 2, "max", "reduce"), workload_target(pool2d(200, 34, 2, 2)), &red);
    EXPECT_EQ(count(red, "Vector", "TensorTensor"), 0);
    EXPECT_EQ(count(red, "Vector", "TensorReduce"), blocks);
    // The first block's reduction reads its 16 x 17 windows of 4: N + 100
    // cycles at VectorE's 1.12 GHz.
    const CostModel cost(workload_target(pool2d(200, 34, 2, 2)));
    for (const auto& e : red.events)
        if (e.name == "TensorReduce") {
            EXPECT_EQ(e.dur, std::llround(cost.vector_ns(16 * 17 * 4, 1)));
            break;
        }
    for (size_t i = 1; i < red.events.size(); ++i) ASSERT_LE(red.events[i - 1].ts, red.events[i].ts);
}

TEST(SimPool, OverlappingWindowsRereadTheRowsBlocksShare) {
    // 3x3 stride 1 on 66x66 fp32 (264-byte rows: 16 rows make 4 KiB, so
    // blocks of 14 output rows read 16): 64 output rows in 5 blocks, each
    // reading 2 rows more than it advances.
    SimResult r = run(pool2d(128, 66, 3, 1));
    const double rows_read = 64 + 5 * 2;
    EXPECT_DOUBLE_EQ(r.hbm_read_bytes, 128.0 * rows_read * 66 * 4);
    EXPECT_DOUBLE_EQ(r.hbm_write_bytes, 128.0 * 64 * 64 * 4);
}

TEST(SimPool, AverageIsScaledOnScalarEWhichStoresIt) {
    Recorder mx, av;
    SimResult rm = simulate(pool2d(128, 34, 2, 2, "max"), workload_target(pool2d(128, 34, 2, 2)), &mx);
    SimResult ra = simulate(pool2d(128, 34, 2, 2, "avg"), workload_target(pool2d(128, 34, 2, 2)), &av);
    const int blocks = 2;
    EXPECT_EQ(count(mx, "Scalar", "Activation"), 0);
    EXPECT_EQ(count(av, "Scalar", "Activation"), blocks);
    EXPECT_EQ(count(mx, "Vector", "DmaTrigger"), blocks);
    EXPECT_EQ(count(av, "Scalar", "DmaTrigger"), blocks);
    EXPECT_EQ(count(av, "Vector", "DmaTrigger"), 0);
    EXPECT_GT(ra.scalar_busy_ns, rm.scalar_busy_ns);
    EXPECT_EQ(count(av, "Vector", "TensorReduce"), count(mx, "Vector", "TensorReduce"));
    EXPECT_DOUBLE_EQ(ra.hbm_write_bytes, rm.hbm_write_bytes);
}

TEST(SimPool, AutoTakesTheVariantWithLessVectorEWork) {
    for (const Workload& w : {pool2d(256, 112, 2, 2), pool2d(256, 66, 3, 1)}) {
        Workload sep = w, red = w;
        sep.variant = "separable";
        red.variant = "reduce";
        const double s = run(sep).vector_busy_ns, r = run(red).vector_busy_ns;
        EXPECT_DOUBLE_EQ(run(w).vector_busy_ns, std::min(s, r)) << w.pool;
        EXPECT_NE(s, r);
    }
}

TEST(SimPool, BadInputIsRefusedWithTheWorkloadsName) {
    Workload wide = pool2d(1, 2, 2, 2);
    wide.width = 200000;
    Workload conv;
    conv.name = "c";
    conv.op = "conv2d";
    conv.channels = conv.out_channels = 8;
    conv.height = conv.width = 8;
    conv.stride = 2;
    testing::expect_refused({
        {pool2d(0, 8, 2, 2), "p: channels must be positive, got 0"},
        {pool2d(8, 4, 5, 1), "p: pool 5 is larger than the 4x4 input"},
        {pool2d(8, 8, 1, 1), "p: pool must be at least 2 for pool2d (a 1x1 window is a copy), got 1"},
        {pool2d(8, 8, 2, -1), "p: stride must be positive, got -1"},
        {pool2d(8, 8, 2, 2, "min"), "p: unknown opname 'min' for pool2d (known: max, avg)"},
        {pool2d(8, 8, 2, 2, "max", "fast"), "p: unknown variant 'fast' for pool2d (known: auto, separable, reduce)"},
        {wide, "p: pool2d does not fit: a block of 1 output row(s) needs 3906 KiB of SBUF per partition, 192 KiB available"},
        {conv, "c: stride 2 does not apply to conv2d (stride 1 only)"},
    });
}

}  // namespace
}  // namespace nx::model
