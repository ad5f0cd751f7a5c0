// Depthwise conv1d (common/model/dwconv.*): the two kernels' instruction
// counts (the Autocomp blog's), the bytes they move (each once), their order,
// and bad input.
#include <gtest/gtest.h>

#include "common/model/dwconv.h"
#include "test/unit/test_model_support.h"

namespace nx::model {
namespace {

using testing::Recorder;
using testing::run;

Workload dwconv(int64_t batch, int64_t channels, int64_t width, const std::string& variant) {
    Workload w;
    w.name = "dw";
    w.op = "dwconv1d";
    w.batch = batch;
    w.channels = channels;
    w.width = width;
    w.filter = 3;
    w.variant = variant;
    w.dtype = "fp32";
    w.target = "trn1";
    return w;
}

TEST(SimDwConv, CountsAreTheBlogs) {
    // 8 x 512 x 2048, 3 taps: 65536 multiplies and 16384 sums as written,
    // 512 of each windowed.
    DwConvSpec s;
    s.batch = 8;
    s.channels = 512;
    s.width = 2048;
    s.variant = DwConvVariant::per_position;
    DwConvCounts n = dwconv_counts(s);
    EXPECT_EQ(n.tensor_tensor, 65536);
    EXPECT_EQ(n.tensor_reduce, 16384);
    s.variant = DwConvVariant::windowed;
    n = dwconv_counts(s);
    EXPECT_EQ(n.tensor_tensor, 512);
    EXPECT_EQ(n.tensor_reduce, 512);
}

TEST(SimDwConv, EventsAndBytes) {
    // 2 x 200 channels (a full and a partial tile), 130 wide.
    for (const char* v : {"per_position", "windowed"}) {
        Workload w = dwconv(2, 200, 130, v);
        Recorder rec;
        SimResult r = simulate(w, workload_target(w), &rec);
        DwConvSpec s;
        s.batch = 2;
        s.channels = 200;
        s.width = 130;
        s.variant = std::string(v) == "windowed" ? DwConvVariant::windowed : DwConvVariant::per_position;
        const DwConvCounts n = dwconv_counts(s);
        int tt = 0, red = 0;
        for (const auto& e : rec.events) {
            if (e.track == "Vector" && e.name == "TensorTensor") ++tt;
            if (e.track == "Vector" && e.name == "TensorReduce") ++red;
        }
        EXPECT_EQ(tt, n.tensor_tensor) << v;
        EXPECT_EQ(red, n.tensor_reduce) << v;
        EXPECT_DOUBLE_EQ(r.hbm_read_bytes, (200.0 * 3 + 2 * 200.0 * 130) * 4) << v;
        EXPECT_DOUBLE_EQ(r.hbm_write_bytes, 2 * 200.0 * 130 * 4) << v;
        for (size_t i = 1; i < rec.events.size(); ++i) ASSERT_LE(rec.events[i - 1].ts, rec.events[i].ts);
    }
    EXPECT_LT(run(dwconv(2, 256, 1024, "windowed")).latency_ns, run(dwconv(2, 256, 1024, "per_position")).latency_ns);
}

TEST(SimDwConv, BadInputIsRefusedWithTheWorkloadsName) {
    Workload narrow = dwconv(1, 128, 2, ""), variant = dwconv(1, 128, 64, "im2col");
    testing::expect_refused({
        {narrow, "dw: filter 3 is wider than the input (2)"},
        {variant, "dw: unknown variant 'im2col' for dwconv1d (known: auto, per_position, windowed)"}});
}

}  // namespace
}  // namespace nx::model
