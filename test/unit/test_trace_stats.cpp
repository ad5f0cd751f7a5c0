// compute_trace_stats (common/report/trace_stats.h): busy union per track,
// self time, idle gaps, GPU operation statistics.  Every expectation is
// worked out by hand in the comments; times are plain ns from 0.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/report/trace_stats.h"

namespace {

using nx::TraceSlices;
using nx::TraceStats;

const nx::NameStat* name_stat(const TraceStats& st, const std::string& name) {
    for (const nx::NameStat& s : st.names)
        if (s.name == name) return &s;
    return nullptr;
}

const nx::TrackActivity* track(const TraceStats& st, const std::string& name) {
    for (const nx::TrackActivity& t : st.tracks)
        if (t.name == name) return &t;
    return nullptr;
}

std::vector<std::pair<int64_t, int64_t>> gaps(const std::vector<nx::TraceGap>& v) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const nx::TraceGap& g : v) out.emplace_back(g.start_ns, g.length_ns);
    return out;
}

TEST(TraceStats, SelfTimeIsDurationMinusTheUnionOfDirectChildren) {
    // step [0,900) holds linear [10,310) and clamp [400,500); linear holds
    // t [20,70) and addmm [100,250); addmm holds launch [110,130).
    //   linear: 300 - (50 + 150) = 100      addmm: 150 - 20 = 130
    //   step:   900 - (300 + 100) = 500     clamp: 100, t: 50, launch: 20
    // Given out of order: the walk sorts by start.
    TraceSlices s;
    s.add("cpu", "cpu_op", "aten::addmm", 100, 150);
    s.add("cpu", "user_annotation", "step", 0, 900);
    s.add("cpu", "cuda_runtime", "launch", 110, 20);
    s.add("cpu", "cpu_op", "aten::linear", 10, 300);
    s.add("cpu", "cpu_op", "aten::t", 20, 50);
    s.add("cpu", "cpu_op", "aten::clamp", 400, 100);
    TraceStats st = nx::compute_trace_stats(s, 0, 1000);
    EXPECT_EQ(name_stat(st, "aten::linear")->self_ns, 100);
    EXPECT_EQ(name_stat(st, "aten::addmm")->self_ns, 130);
    EXPECT_EQ(name_stat(st, "step")->self_ns, 500);
    EXPECT_EQ(name_stat(st, "aten::clamp")->self_ns, 100);
    EXPECT_EQ(name_stat(st, "launch")->self_ns, 20);
    EXPECT_EQ(name_stat(st, "step")->total_ns, 900);
    EXPECT_EQ(st.improperly_nested, 0);
    // Nested slices count once: busy is the step's 900 ns of the 1000 ns span.
    EXPECT_EQ(track(st, "cpu")->busy_ns, 900);
    EXPECT_EQ(track(st, "cpu")->slices, 6);
    // Names by total time: step, linear, addmm, clamp, t, launch.
    ASSERT_EQ(st.names.size(), 6u);
    EXPECT_EQ(st.names[0].name, "step");
    EXPECT_EQ(st.names[1].name, "aten::linear");
}

TEST(TraceStats, AnEqualStartPutsTheLongerSliceOutside) {
    // parent [0,100) and child [0,40) start together: the longer one holds
    // the shorter, whichever came first.  parent self = 100 - 40 = 60.
    TraceSlices s;
    s.add("t", "cpu_op", "child", 0, 40);
    s.add("t", "cpu_op", "parent", 0, 100);
    TraceStats st = nx::compute_trace_stats(s, 0, 100);
    EXPECT_EQ(name_stat(st, "parent")->self_ns, 60);
    EXPECT_EQ(name_stat(st, "child")->self_ns, 40);
}

TEST(TraceStats, IdenticalSlicesNestAndCountTheirTimeOnce) {
    // Two [0,10) slices: the second is the first's child, so self times are
    // 0 + 10, and the track is busy 10 ns.
    TraceSlices s;
    s.add("t", "cpu_op", "a", 0, 10);
    s.add("t", "cpu_op", "a", 0, 10);
    TraceStats st = nx::compute_trace_stats(s, 0, 10);
    EXPECT_EQ(name_stat(st, "a")->count, 2);
    EXPECT_EQ(name_stat(st, "a")->total_ns, 20);
    EXPECT_EQ(name_stat(st, "a")->self_ns, 10);
    EXPECT_EQ(st.tracks[0].busy_ns, 10);
}

TEST(TraceStats, ASliceThatOverlapsItsSiblingIsNotItsChild) {
    // parent [0,100); x [10,40); y [30,60) starts inside x and ends after it:
    // x is closed there (self 30), y is the parent's child too.  The parent's
    // children cover [10,60) = 50, so its self time is 50, not 100 - 30 - 30.
    TraceSlices s;
    s.add("t", "cpu_op", "parent", 0, 100);
    s.add("t", "cpu_op", "x", 10, 30);
    s.add("t", "cpu_op", "y", 30, 30);
    TraceStats st = nx::compute_trace_stats(s, 0, 100);
    EXPECT_EQ(st.improperly_nested, 1);
    EXPECT_EQ(name_stat(st, "parent")->self_ns, 50);
    EXPECT_EQ(name_stat(st, "x")->self_ns, 30);
    EXPECT_EQ(name_stat(st, "y")->self_ns, 30);
}

TEST(TraceStats, ChildrenAreOnTheSameTrackOnly) {
    // A kernel on a stream during a CPU op is not the op's child.
    TraceSlices s;
    s.add("cpu", "cpu_op", "op", 0, 100);
    s.add("stream", "kernel", "k", 10, 50);
    TraceStats st = nx::compute_trace_stats(s, 0, 100);
    EXPECT_EQ(name_stat(st, "op")->self_ns, 100);
}

TEST(TraceStats, GapsAreTheLargestBetweenMergedBusyIntervals) {
    // [0,10) [10,20) touch (no gap); [15,18) is nested; then [30,40) [100,110)
    // [115,120): gaps 20->30 (10), 40->100 (60), 110->115 (5).  The two
    // largest, largest first: (40, 60), (20, 10).  Time before the first
    // slice and after the last is not a gap.
    TraceSlices s;
    for (auto [ts, dur] : std::vector<std::pair<int64_t, int64_t>>{{0, 10}, {10, 10}, {15, 3}, {30, 10}, {100, 10}, {115, 5}})
        s.add("t", "cpu_op", "op", ts + 1000, dur);
    nx::TraceStatsOptions o;
    o.gaps_per_track = 2;
    TraceStats st = nx::compute_trace_stats(s, 0, 2000, o);
    EXPECT_EQ(gaps(st.tracks[0].gaps), (std::vector<std::pair<int64_t, int64_t>>{{1040, 60}, {1020, 10}}));
    EXPECT_EQ(st.tracks[0].busy_ns, 20 + 10 + 10 + 5);
}

TEST(TraceStats, EqualGapsKeepTheEarlierFirst) {
    TraceSlices s;
    s.add("t", "cpu_op", "op", 0, 10);
    s.add("t", "cpu_op", "op", 20, 10);
    s.add("t", "cpu_op", "op", 40, 10);
    nx::TraceStatsOptions o;
    o.gaps_per_track = 1;
    TraceStats st = nx::compute_trace_stats(s, 0, 50, o);
    EXPECT_EQ(gaps(st.tracks[0].gaps), (std::vector<std::pair<int64_t, int64_t>>{{10, 10}}));
}

TEST(TraceStats, GpuStreamsCountOnlyKernelsMemcpyAndMemsetAsWork) {
    // stream 7: memcpy [50,80), kernel [140,240), cuda_sync [470,480) (the
    // host waiting: not work).  stream 20: kernels [300,360), [600,690).
    // GPU work on stream 7 is 130 ns, its gap 80->140 (60); every stream
    // together 30 + 100 + 60 + 90 = 280 ns, from 50 to 690.
    TraceSlices s;
    s.add("s7", "gpu_memcpy", "Memcpy HtoD", 50, 30);
    s.add("s7", "kernel", "sgemm", 140, 100);
    s.add("s7", "cuda_sync", "Stream Sync", 470, 10);
    s.add("s20", "kernel", "sgemm", 300, 60);
    s.add("s20", "kernel", "sgemm", 600, 90);
    s.add("cpu", "cuda_runtime", "cudaLaunchKernel", 100, 5);
    TraceStats st = nx::compute_trace_stats(s, 0, 1000);
    ASSERT_EQ(st.gpu_streams.size(), 2u);
    EXPECT_EQ(st.gpu_streams[0].track, "s20");  // busiest first: 150 ns
    EXPECT_EQ(st.gpu_streams[0].busy_ns, 150);
    EXPECT_EQ(st.gpu_streams[1].track, "s7");
    EXPECT_EQ(st.gpu_streams[1].busy_ns, 130);
    EXPECT_EQ(st.gpu_streams[1].kernels, 1);
    EXPECT_EQ(st.gpu_streams[1].memcpys, 1);
    EXPECT_EQ(gaps(st.gpu_streams[1].gaps)[0], (std::pair<int64_t, int64_t>{80, 60}));
    EXPECT_EQ(track(st, "s7")->busy_ns, 140);  // the track itself: every slice
    EXPECT_EQ(st.gpu_busy_ns, 280);
    EXPECT_EQ(st.gpu_first_ns, 50);
    EXPECT_EQ(st.gpu_last_ns, 690);
}

TEST(TraceStats, KernelTableHasCountTotalMeanMedianMinMax) {
    // sgemm: 100, 60, 90 -> total 250, mean 83.33, median 90, min 60, max 100.
    // relu: 20 and 30 (an even count: the median is their mean, 25).
    // Older PyTorch writes "Kernel" and "Memcpy".
    TraceSlices s;
    s.add("s", "kernel", "sgemm", 0, 100);
    s.add("s", "kernel", "sgemm", 200, 60);
    s.add("s", "Kernel", "sgemm", 400, 90);
    s.add("s", "kernel", "relu", 600, 20);
    s.add("s", "kernel", "relu", 700, 30);
    s.add("s", "Memcpy", "Memcpy DtoH", 800, 7);
    s.add("s", "gpu_memset", "Memset (Device)", 900, 3);
    TraceStats st = nx::compute_trace_stats(s, 0, 1000);
    ASSERT_EQ(st.kernels.size(), 2u);
    const nx::GpuOpStat& k = st.kernels[0];
    EXPECT_EQ(k.name, "sgemm");
    EXPECT_EQ(k.count, 3);
    EXPECT_EQ(k.total_ns, 250);
    EXPECT_NEAR(k.mean_ns, 250.0 / 3, 1e-9);
    EXPECT_EQ(k.median_ns, 90);
    EXPECT_EQ(k.min_ns, 60);
    EXPECT_EQ(k.max_ns, 100);
    EXPECT_EQ(st.kernels[1].median_ns, 25);
    ASSERT_EQ(st.memcpys.size(), 1u);
    EXPECT_EQ(st.memcpys[0].total_ns, 7);
    ASSERT_EQ(st.memsets.size(), 1u);
    EXPECT_EQ(st.memsets[0].name, "Memset (Device)");
}

TEST(TraceStats, InstantsAreCountedNotSlicedAndTheSpanCoversEverySlice) {
    // The given span [100, 200) is widened to the slice at [50, 250).
    TraceSlices s;
    s.add("t", "cpu_op", "op", 50, 200);
    s.add("t", "cpu_op", "mark", 120, 0);
    TraceStats st = nx::compute_trace_stats(s, 100, 200);
    EXPECT_EQ(st.instants, 1);
    EXPECT_EQ(st.slices, 1);
    EXPECT_EQ(st.start_ns, 50);
    EXPECT_EQ(st.end_ns, 250);
    EXPECT_EQ(st.tracks[0].slices, 1);
}

TEST(TraceStats, TimelineIsBusyPercentPerBucket) {
    // [0,100) in 4 buckets of 25 ns; busy [0,25) and [60,70): 100%, 0%, 40%, 0%.
    TraceSlices s;
    s.add("t", "cpu_op", "a", 0, 25);
    s.add("t", "cpu_op", "b", 60, 10);
    nx::TraceStatsOptions o;
    o.timeline_buckets = 4;
    TraceStats st = nx::compute_trace_stats(s, 0, 100, o);
    EXPECT_EQ(st.tracks[0].timeline, (std::vector<double>{100, 0, 40, 0}));
}

TEST(TraceStats, ASpanBeyondWhatNanosecondsHoldIsAnErrorNotAnOverflow) {
    TraceSlices s;
    s.add("t", "cpu_op", "early", -4'000'000'000'000'000'000, 10);
    s.add("t", "cpu_op", "late", 6'000'000'000'000'000'000, 10);
    EXPECT_THROW(nx::compute_trace_stats(s, 0, 1), nx::Error);
}

}  // namespace
