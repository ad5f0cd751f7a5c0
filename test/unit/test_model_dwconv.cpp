// Depthwise conv1d (common/model/dwconv.*): the two kernels' instruction
// counts (the Autocomp blog's), the filters' copy into PSUM and what it does
// to the multiplies' cost, the bytes they move (each once), their order, and
// bad input.
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
    EXPECT_EQ(n.psum_copies, 0);
    s.variant = DwConvVariant::windowed;
    n = dwconv_counts(s);
    EXPECT_EQ(n.tensor_tensor, 512);
    EXPECT_EQ(n.tensor_reduce, 512);
    // One filter tile per 128 channels, copied into PSUM once for the batch.
    EXPECT_EQ(n.psum_copies, 4);
}

TEST(SimDwConv, WindowedMultipliesReadTheFiltersFromPsum) {
    // 1 x 128 channels x 256 wide: two windows of 128 positions x 3 taps.
    // VectorE's work, instruction by instruction: the pads' memset, per window
    // a tensor_tensor with the filters in PSUM (N cycles, not the 2N of two
    // SBUF inputs) and a tensor_reduce, and the filters' copy into PSUM.
    Workload w = dwconv(1, 128, 256, "windowed");
    const CostModel cost(workload_target(w));
    const double windowed = cost.vector_ns(2, 0) + 2 * cost.tensor_tensor_ns(128 * 3, TensorTensorInputs::one_in_psum) +
                            2 * cost.vector_ns(128 * 3, 1) + cost.vector_ns(3, 1);
    // The per-position kernel keeps its filters in SBUF: 2N per multiply,
    // one sum per four positions.
    const double per_position = cost.vector_ns(2, 0) + 256 * cost.tensor_tensor_ns(3, TensorTensorInputs::both_sbuf) +
                                64 * cost.vector_ns(4 * 3, 1);
    // Besides: VectorE's part of the kernel's launch frame (its semaphore
    // waits are not busy time): two barrier rounds of two DRAINs and
    // SET_ORDERING_MODE before the kernel; after it a DRAIN, the semaphore
    // range clear, one barrier round, NOTIFY, COMPARE_BRANCH and two
    // SET_ORDERING_MODEs.  And the output row's store, which VectorE triggers.
    const double frame = 4 * kDrainInstrNs + kSetOrderingModeNs + 3 * kDrainInstrNs + kSemaphoreRangeClearNs +
                         kNotifyNs + kCompareBranchNs + 2 * kSetOrderingModeNs;
    const double fixed = frame + kAccessStaticCycles / workload_target(w).vector_clock_ghz + cost.dma_issue_ns();
    EXPECT_NEAR(run(w).vector_busy_ns, windowed + fixed, 1e-6);
    EXPECT_NEAR(run(dwconv(1, 128, 256, "per_position")).vector_busy_ns, per_position + fixed, 1e-6);
}

TEST(SimDwConv, WindowedLoopsChannelTilesOutsideTheBatch) {
    // The loads the Sync engine triggers, in order: the AWS kernel loads
    // every filter tile first, then batch -> channel tile; Autocomp's loads a
    // channel tile's filters, then that tile's row of every batch element.
    auto loads = [](const char* variant) {
        Recorder rec;
        Workload w = dwconv(2, 256, 256, variant);
        simulate(w, workload_target(w), &rec);
        std::vector<std::string> order;
        for (const auto& e : rec.events)
            if (e.track == "Sync" && e.name == "DmaTrigger") order.push_back(e.layer.substr(e.layer.rfind('/') + 1));
        return order;
    };
    EXPECT_EQ(loads("windowed"), (std::vector<std::string>{"filters_c0", "n0_c0", "n1_c0", "filters_c1", "n0_c1", "n1_c1"}));
    EXPECT_EQ(loads("per_position"),
              (std::vector<std::string>{"filters_c0", "filters_c1", "n0_c0", "n0_c1", "n1_c0", "n1_c1"}));
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
        int tt = 0, red = 0, copies = 0;
        for (const auto& e : rec.events) {
            if (e.track == "Vector" && e.name == "TensorTensor") ++tt;
            if (e.track == "Vector" && e.name == "TensorReduce") ++red;
            if (e.track == "Vector" && e.name == "TensorCopy") ++copies;
        }
        EXPECT_EQ(tt, n.tensor_tensor) << v;
        EXPECT_EQ(red, n.tensor_reduce) << v;
        EXPECT_EQ(copies, n.psum_copies) << v;
        EXPECT_EQ(r.floor_clamps, 0) << v;
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
