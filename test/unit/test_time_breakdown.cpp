// The time breakdown (common/profile/time_breakdown.h) of hand-made events,
// every figure worked out next to it: compute, collectives, their overlap,
// DMA that neither hides, idle, the timeline buckets, and the collective
// operations in start order.
#include <gtest/gtest.h>

#include "common/profile/profile_metrics.h"
#include "test/unit/test_support.h"

namespace {

using nx::Engine;
using nx::Event;
using nx::EventType;

Event collective(int64_t ts, int64_t dur, std::string_view name, int64_t bytes = -1) {
    Event e = nx_test::make_event(EventType::region, Engine::none, "collectives", ts, dur);
    e.name = name;
    e.bytes = bytes;
    return e;
}

nx::ProfileSummary summarise(const std::vector<Event>& events) {
    nx::ProfileMetrics m;
    for (const Event& e : events) m.add(e);
    nx::ProfileInfo info;
    return m.finish(info);
}

TEST(TimeBreakdown, ComputeCollectivesOverlapExposedDmaAndIdleAddUpToTheSpan) {
    // Compute C = [0,10) u [5,15) = [0,15): 15.  Collectives K = [12,30): 18.
    // C u K = [0,30): 30, so the overlap is 15 + 18 - 30 = 3 ([12,15)).
    // DMA [28,40) and [45,50): outside C u K are [30,40) and [45,50): 15.
    // Everything covers [0,40) u [45,50) = 45 of the span [0,50): idle 5.
    nx::ProfileSummary s = summarise({
        nx_test::make_event(EventType::instruction, Engine::tensor_matrix, "TensorMatrix", 0, 10, "MATMUL"),
        nx_test::make_event(EventType::instruction, Engine::vector, "Vector", 5, 10, "ADD"),
        collective(12, 18, "AllReduce", 1024),
        nx_test::make_event(EventType::dma, Engine::dma, "qSyncIO0", 28, 12),
        nx_test::make_event(EventType::dma, Engine::dma, "qSyncIO0", 45, 5),
    });
    ASSERT_TRUE(s.breakdown.has_value());
    const nx::TimeBreakdown& b = *s.breakdown;
    EXPECT_EQ(b.span_ns, 50);
    EXPECT_EQ(b.compute_ns, 15);
    EXPECT_EQ(b.collective_ns, 18);
    EXPECT_EQ(b.overlap_ns, 3);
    EXPECT_EQ(b.dma_exposed_ns, 15);
    EXPECT_EQ(b.idle_ns, 5);
    EXPECT_EQ(b.compute_ns + b.collective_ns - b.overlap_ns + b.dma_exposed_ns + b.idle_ns, b.span_ns);
    // 50 buckets of 1 ns: bucket 3 computes, 20 is in the collective, 40 neither.
    ASSERT_EQ(b.compute_percent.size(), 50u);
    EXPECT_DOUBLE_EQ(b.compute_percent[3], 100);
    EXPECT_DOUBLE_EQ(b.compute_percent[20], 0);
    EXPECT_DOUBLE_EQ(b.collective_percent[20], 100);
    EXPECT_DOUBLE_EQ(b.collective_percent[40], 0);
    ASSERT_EQ(s.collectives.size(), 1u);
    EXPECT_EQ(s.collectives[0].name, "AllReduce");
    EXPECT_EQ(s.collectives[0].bytes, 1024);
}

TEST(TimeBreakdown, SemaphoreWaitsAreNotComputeAndCollectivesComeInStartOrder) {
    // The wait [0,100) on Vector is not work; the ADD [100,110) is.
    nx::ProfileSummary s = summarise({
        nx_test::make_event(EventType::instruction, Engine::vector, "Vector", 0, 100, "EVENT_SEMAPHORE"),
        nx_test::make_event(EventType::instruction, Engine::vector, "Vector", 100, 10, "ADD"),
        collective(150, 10, "AllGather"),
        collective(120, 10, "AllReduce"),
    });
    ASSERT_TRUE(s.breakdown.has_value());
    EXPECT_EQ(s.breakdown->compute_ns, 10);
    EXPECT_EQ(s.breakdown->collective_ns, 20);
    EXPECT_EQ(s.breakdown->overlap_ns, 0);
    ASSERT_EQ(s.collectives.size(), 2u);
    EXPECT_EQ(s.collectives[0].name, "AllReduce");
    EXPECT_EQ(s.collectives[1].name, "AllGather");
}

TEST(TimeBreakdown, TheBucketsAddUpToTheTotalsWhereBucketEdgesFallBetweenNanoseconds) {
    // A span of 167 ns in 50 buckets: edges at fractions of a nanosecond,
    // rounded; a stretch that starts on one must still be cut and counted.
    std::vector<Event> events;
    for (int64_t t = 0; t < 160; t += 7) events.push_back(nx_test::make_event(EventType::instruction, Engine::vector, "Vector", t, 3, "ADD"));
    events.push_back(collective(100, 67, "AllReduce"));
    nx::ProfileSummary s = summarise(events);
    ASSERT_TRUE(s.breakdown.has_value());
    nx::TimeBuckets tb(s.start_ns, s.end_ns, 50);
    double compute = 0, coll = 0;
    for (int64_t b = 0; b < 50; ++b) {
        double width = static_cast<double>(tb.edge(b + 1) - tb.edge(b));
        compute += s.breakdown->compute_percent[static_cast<size_t>(b)] * width / 100;
        coll += s.breakdown->collective_percent[static_cast<size_t>(b)] * width / 100;
    }
    EXPECT_NEAR(compute, static_cast<double>(s.breakdown->compute_ns), 1e-6);
    EXPECT_NEAR(coll, static_cast<double>(s.breakdown->collective_ns), 1e-6);
    EXPECT_EQ(s.breakdown->collective_ns, 67);
    EXPECT_EQ(s.breakdown->compute_ns, 23 * 3);
}

TEST(TimeBreakdown, AProfileWithoutEnginesOrCollectivesHasNone) {
    nx::ProfileSummary s = summarise({nx_test::make_event(EventType::region, Engine::none, "main thread", 0, 10)});
    EXPECT_FALSE(s.breakdown.has_value());
    EXPECT_TRUE(s.collectives.empty());
}

}  // namespace

TEST(TimeBreakdown, AnExplorerCollectiveSaysWhichEngineTriggeredItAndTheDelayToItsStart) {
    // CcOp's other columns come as the event's args.
    std::vector<std::string> args = {
        R"({"trigger_engine":"Pool","cc_trigger_start_delay":400,"op_id":0})",  // gpsimd, in nx's names
        R"({"trigger_engine":"Act","cc_trigger_start_delay":0})",               // scalar; a delay of 0 is one
        R"({"trigger_engine":"NewEngine9"})",                                   // not known: as given
        R"({"trigger_engine":7,"cc_trigger_start_delay":"400"})",               // wrong types: not said
        R"({"trigger_engine":"Pool","cc_trigger_start_delay":-5})",              // a negative delay: not one
        R"({"trigger_engine":)",                                                 // cut off: nothing
        "",                                                                      // no args (PyTorch, JSON)
    };
    std::vector<Event> events;
    for (size_t i = 0; i < args.size(); ++i) {
        events.push_back(collective(static_cast<int64_t>(i) * 100, 10, "AllReduce"));
        events.back().args_json = args[i];
    }
    nx::ProfileSummary s = summarise(events);
    ASSERT_EQ(s.collectives.size(), args.size());
    EXPECT_EQ(s.collectives[0].engine, "gpsimd");
    EXPECT_EQ(s.collectives[0].trigger_delay_ns, 400);
    EXPECT_EQ(s.collectives[1].engine, "scalar");
    EXPECT_EQ(s.collectives[1].trigger_delay_ns, 0);
    EXPECT_EQ(s.collectives[2].engine, "NewEngine9");
    EXPECT_EQ(s.collectives[2].trigger_delay_ns, -1);
    for (size_t i = 3; i < args.size(); ++i) {
        EXPECT_EQ(s.collectives[i].engine, i == 4 ? "gpsimd" : "") << i;
        EXPECT_EQ(s.collectives[i].trigger_delay_ns, -1) << i;
    }
}
