// Device streams (common/profile/device_streams.h) of hand-made Kineto
// events, every figure worked out next to it: HTA's kernel types by name,
// which work counts (the last step, launches missing), the device window and
// its split, each stream's idle gaps and launch queue, the launch statistics
// and each step's split.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/profile/device_streams.h"
#include "common/profile/profile_metrics.h"

namespace {

using nx::DeviceWork;
using nx::Event;
using nx::EventType;

// The strings an event views, kept alive with it.
struct Ev {
    EventType type;
    std::string name;
    int64_t ts, dur;
    std::string args;
};

std::string work_args(int64_t corr, int64_t stream) {
    return "{\"cat\":\"kernel\",\"stream\":" + std::to_string(stream) + ",\"correlation\":" + std::to_string(corr) + "}";
}
Ev kernel(const std::string& name, int64_t ts, int64_t dur, int64_t corr, int64_t stream = 7) {
    return {EventType::kernel, name, ts, dur, work_args(corr, stream)};
}
Ev launch(int64_t ts, int64_t dur, int64_t corr, const std::string& name = "cudaLaunchKernel") {
    return {EventType::runtime, name, ts, dur, "{\"cat\":\"cuda_runtime\",\"correlation\":" + std::to_string(corr) + "}"};
}
Ev step(int64_t n, int64_t ts, int64_t dur) { return {EventType::region, "ProfilerStep#" + std::to_string(n), ts, dur, ""}; }

nx::ProfileSummary summarise(const std::vector<Ev>& evs, bool keep_last = false) {
    nx::ProfileMetrics m;
    m.keep_last_step(keep_last);
    for (const Ev& v : evs) {
        Event e;
        e.type = v.type;
        e.name = v.name;
        e.ts_ns = v.ts;
        e.dur_ns = v.dur;
        e.args_json = v.args;
        e.track = v.type == EventType::runtime || v.type == EventType::region ? "thread 1" : "stream 7";
        m.add(e);
    }
    nx::ProfileInfo info;
    info.format = "chrome-json";
    return m.finish(info);
}

TEST(DeviceStreams, KernelTypesFollowHtasNamesAndNxAddsOneCcl) {
    EXPECT_EQ(nx::classify_device_work("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)"), DeviceWork::communication);
    EXPECT_EQ(nx::classify_device_work("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
              DeviceWork::communication);
    EXPECT_EQ(nx::classify_device_work("oneccl_allreduce_kernel"), DeviceWork::communication);
    EXPECT_EQ(nx::classify_device_work("CCL_reduce_scatter"), DeviceWork::communication);
    EXPECT_EQ(nx::classify_device_work("nccl_bookkeeping"), DeviceWork::computation);  // no "Kernel" after nccl
    EXPECT_EQ(nx::classify_device_work("Memcpy HtoD (Pinned -> Device)"), DeviceWork::memory);
    EXPECT_EQ(nx::classify_device_work("Memset (Device)"), DeviceWork::memory);
    EXPECT_EQ(nx::classify_device_work("dma_request"), DeviceWork::memory);
    EXPECT_EQ(nx::classify_device_work("Context Sync"), DeviceWork::other);
    EXPECT_EQ(nx::classify_device_work("void at::native::unrolled_copy_Memcpy_like"), DeviceWork::other);
    EXPECT_EQ(nx::classify_device_work("Stream Wait Event"), DeviceWork::computation);
    EXPECT_EQ(nx::classify_device_work("sm80_xmma_gemm_bf16bf16_f32"), DeviceWork::computation);
}

TEST(DeviceStreams, IntegerMembersAreReadFromFlatJsonText) {
    int64_t v = 0;
    EXPECT_TRUE(nx::json_int_member("{\"stream\": 7, \"correlation\":-12}", "correlation", v));
    EXPECT_EQ(v, -12);
    EXPECT_TRUE(nx::json_int_member("{\"stream\": 7, \"correlation\":-12}", "stream", v));
    EXPECT_EQ(v, 7);
    // A key inside another's name, a string value, a fraction: no integer.
    EXPECT_FALSE(nx::json_int_member("{\"my_stream\":3}", "stream", v));
    EXPECT_FALSE(nx::json_int_member("{\"stream\":\"7\"}", "stream", v));
    EXPECT_FALSE(nx::json_int_member("{\"stream\":7.5}", "stream", v));
    EXPECT_FALSE(nx::json_int_member("{\"stream\":99999999999999999999}", "stream", v));
    EXPECT_FALSE(nx::json_int_member("", "stream", v));
    EXPECT_FALSE(nx::json_int_member("{\"stream\":", "stream", v));
}

TEST(DeviceStreams, WindowIdleComputeAndNonComputeAreHtasTemporalBreakdown) {
    // One step: compute [100,200) and [250,300), an all-reduce [180,280),
    // a copy [300,320).  Window [100,320): 220.  Union [100,320) less
    // nothing... compute 150, busy = [100,320) = 220, idle 0; all-reduce
    // overlaps compute on [180,200) and [250,280): 50 of its 100.
    nx::ProfileSummary s = summarise({
        step(1, 0, 1000),
        launch(10, 5, 1), kernel("gemm", 100, 100, 1),
        launch(20, 5, 2), kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 180, 100, 2, 20),
        launch(30, 5, 3), kernel("gemm", 250, 50, 3),
        launch(40, 5, 4, "cudaMemcpyAsync"), {EventType::memcpy, "Memcpy DtoH (Device -> Pinned)", 300, 20, work_args(4, 7)},
    });
    ASSERT_TRUE(s.device.has_value());
    const nx::DeviceTimes& t = s.device->times;
    EXPECT_EQ(t.span_ns, 220);
    EXPECT_EQ(t.computation_ns, 150);
    EXPECT_EQ(t.communication_ns, 100);
    EXPECT_EQ(t.overlap_ns, 50);
    EXPECT_EQ(t.memory_ns, 20);
    EXPECT_EQ(t.idle_ns, 0);
    // nx's breakdown: compute + collectives - overlap + exposed + idle = span.
    ASSERT_TRUE(s.breakdown.has_value());
    EXPECT_EQ(s.breakdown->compute_ns + s.breakdown->collective_ns - s.breakdown->overlap_ns +
                  s.breakdown->dma_exposed_ns + s.breakdown->idle_ns,
              s.breakdown->span_ns);
    EXPECT_EQ(s.breakdown->dma_exposed_ns, 20);
    EXPECT_DOUBLE_EQ(s.value_or("comm_comp_overlap_percent", -1), 50.0);
    EXPECT_DOUBLE_EQ(s.value_or("device_compute_time_percent", -1), 100.0 * 150 / 220);
    EXPECT_DOUBLE_EQ(s.value_or("total_time", -1), 220e-9);
}

TEST(DeviceStreams, TheLastStepsWorkIsLeftOutUnlessKept) {
    std::vector<Ev> evs = {
        step(1, 0, 100), launch(10, 5, 1), kernel("gemm", 20, 50, 1),
        step(2, 100, 100), launch(110, 5, 2), kernel("gemm", 120, 60, 2),
        // The profiler's last step: launched in it, left out.
        step(3, 200, 30), launch(210, 5, 3), kernel("gemm", 215, 500, 3),
    };
    nx::ProfileSummary s = summarise(evs);
    EXPECT_EQ(s.device->left_step, 3);
    EXPECT_EQ(s.device->left_late, 1);
    EXPECT_EQ(s.device->times.span_ns, 160);  // [20,180)
    ASSERT_EQ(s.device->steps.size(), 2u);
    EXPECT_EQ(s.device->steps[1].step, 2);
    EXPECT_EQ(s.device->steps[1].times.span_ns, 60);
    bool said = false;
    for (const std::string& n : s.notes) said = said || n.find("ProfilerStep#3") != std::string::npos;
    EXPECT_TRUE(said);

    nx::ProfileSummary kept = summarise(evs, true);
    EXPECT_EQ(kept.device->left_step, -1);
    EXPECT_EQ(kept.device->times.span_ns, 695);  // [20,715)
}

TEST(DeviceStreams, WorkWithoutItsLaunchIsLeftOutWhenTheTraceHasLaunches) {
    nx::ProfileSummary s = summarise({launch(0, 5, 1), kernel("gemm", 10, 10, 1), kernel("gemm", 30, 10, 99)});
    EXPECT_EQ(s.device->counted, 1);
    EXPECT_EQ(s.device->left_unlaunched, 1);
    // A trace with no launch at all keeps its work.
    nx::ProfileSummary bare = summarise({kernel("gemm", 10, 10, 1), kernel("gemm", 30, 10, 2)});
    EXPECT_EQ(bare.device->counted, 2);
    EXPECT_EQ(bare.device->times.span_ns, 30);
    EXPECT_EQ(bare.device->times.idle_ns, 10);
}

TEST(DeviceStreams, IdleGapsOnAStreamAreHostWaitKernelWaitOrOther) {
    // Kernel 1 [0,10).  Kernel 2 launched at 50 (after 1 ended): host wait
    // 60 - 10 = 50.  Kernel 3 launched early, starts 20 us after 2 ends:
    // kernel wait 20000.  Kernel 4 launched early, starts 40 us later: other.
    nx::ProfileSummary s = summarise({
        launch(-10, 5, 1), kernel("k", 0, 10, 1),
        launch(50, 5, 2), kernel("k", 60, 10, 2),
        launch(55, 5, 3), kernel("k", 20070, 10, 3),
        launch(56, 5, 4), kernel("k", 60080, 10, 4),
    });
    ASSERT_EQ(s.device->streams.size(), 1u);
    const nx::DeviceStreamStat& st = s.device->streams[0];
    EXPECT_EQ(st.stream, 7);
    EXPECT_EQ(st.events, 4);
    EXPECT_EQ(st.busy_ns, 40);
    EXPECT_EQ(st.host_wait_ns, 50);
    EXPECT_EQ(st.kernel_wait_ns, 20000);
    EXPECT_EQ(st.other_wait_ns, 40000);
}

TEST(DeviceStreams, TheLaunchQueueRisesAtEachLaunchAndFallsAsItsWorkStarts) {
    // Launches at 0, 1, 2; kernels start at 10, 20, 30.  Lengths after each
    // change: 1 2 3 2 1 0 (six points); 3 is held from 2 to 10.
    nx::ProfileSummary s = summarise({
        launch(0, 1, 1), launch(1, 1, 2), launch(2, 1, 3),
        kernel("k", 10, 5, 1), kernel("k", 20, 5, 2), kernel("k", 30, 5, 3),
    });
    const nx::DeviceStreamStat& st = s.device->streams[0];
    EXPECT_EQ(st.queue_points, 6);
    EXPECT_DOUBLE_EQ(st.queue_mean, 1.5);
    EXPECT_NEAR(st.queue_std, 1.048809, 1e-6);  // sample standard deviation
    EXPECT_EQ(st.queue_min, 0);
    EXPECT_EQ(st.queue_max, 3);
    EXPECT_DOUBLE_EQ(st.queue_p25, 1.0);
    EXPECT_DOUBLE_EQ(st.queue_p50, 1.5);
    EXPECT_DOUBLE_EQ(st.queue_p75, 2.0);
    EXPECT_EQ(st.queue_at_max_ns, 8);
    EXPECT_EQ(st.queue_full_ns, 0);
    // Launch delay: a kernel's start less its call's end (10-1, 20-2, 30-3).
    EXPECT_EQ(s.device->launches.launches, 3);
    EXPECT_EQ(s.device->launches.delay_sum_ns, 9 + 18 + 27);
    EXPECT_EQ(s.device->launches.delay_max_ns, 27);
    EXPECT_EQ(s.device->launches.cpu_sum_ns, 3);
    EXPECT_EQ(s.device->launches.gpu_sum_ns, 15);
}

TEST(DeviceStreams, ASynchronisationOnNoStreamIsTheHostsNotTheDevices) {
    nx::ProfileSummary s = summarise({
        launch(0, 5, 1), kernel("k", 10, 10, 1),
        {EventType::device_sync, "Event Sync", 30, 100, "{\"cat\":\"cuda_sync\",\"stream\":-1,\"correlation\":2}"},
        {EventType::device_sync, "Context Sync", 30, 5, "{\"cat\":\"cuda_sync\",\"stream\":7,\"correlation\":1}"},
    });
    EXPECT_EQ(s.device->counted, 2);                // the kernel and the Context Sync of stream 7
    EXPECT_EQ(s.device->times.span_ns, 25);         // [10,35)
    EXPECT_EQ(s.device->times.other_ns, 5);         // "Sync": other work
}

TEST(DeviceStreams, KernelTypeBreakdownIsTheTimeOfEachSetOfKinds) {
    nx::ProfileSummary s = summarise({
        launch(0, 1, 1), kernel("gemm", 10, 100, 1),
        launch(1, 1, 2), kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 60, 100, 2, 20),
    });
    // computation alone [10,60): 50; both [60,110): 50; communication alone [110,160): 50.
    ASSERT_EQ(s.device->kernel_types.size(), 3u);
    for (const nx::DeviceKernelType& k : s.device->kernel_types) EXPECT_EQ(k.ns, 50) << k.type;
    EXPECT_EQ(s.device->kernel_types[2].type, "computation overlapping communication");
}

}  // namespace
