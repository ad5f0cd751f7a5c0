// The timeline: concurrency, program order, dependencies, TensorE's two
// rows, the NC-v2 SBUF port, DMA sharing and the streamed event order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "common/model/scheduler.h"
#include "test/unit/test_model_support.h"

namespace nx::model {
namespace {

using testing::Recorder;

Instr instr(int unit, Time dur, Time ready = 0) {
    Instr in;
    in.unit = unit;
    in.op = Op::tensor_copy;
    in.dur = dur;
    in.ready = ready;
    return in;
}

TEST(ModelScheduler, TwoEnginesRunConcurrentlyAndTheirIntervalsOverlap) {
    CostModel cost(*find_target("trn1"));
    Recorder rec;
    Scheduler s(cost, &rec);
    Time v = s.run(instr(kTrackVector, 500));
    Time a = s.run(instr(kTrackScalar, 300));
    s.finish();
    EXPECT_DOUBLE_EQ(v, 500);
    EXPECT_DOUBLE_EQ(a, 300);
    EXPECT_DOUBLE_EQ(s.stats().end, 500);  // the union, not the sum
    ASSERT_EQ(rec.events.size(), 2u);
    EXPECT_EQ(rec.events[0].ts, 0);
    EXPECT_EQ(rec.events[1].ts, 0);
}

TEST(ModelScheduler, InstructionsOnOneEngineRunInProgramOrder) {
    CostModel cost(*find_target("trn1"));
    Scheduler s(cost, nullptr);
    s.run(instr(kTrackVector, 500));
    EXPECT_DOUBLE_EQ(s.run(instr(kTrackVector, 100)), 600);
}

TEST(ModelScheduler, ADependencyDelaysItsConsumer) {
    CostModel cost(*find_target("trn1"));
    Scheduler s(cost, nullptr);
    Time v = s.run(instr(kTrackVector, 500));
    EXPECT_DOUBLE_EQ(s.run(instr(kTrackScalar, 100, v)), 600);
}

TEST(ModelScheduler, VectorAndGpSimdShareTheSbufPortOnNeuronCoreV2Only) {
    for (const char* name : {"trn1", "trn2"}) {
        CostModel cost(*find_target(name));
        Scheduler s(cost, nullptr);
        s.run(instr(kTrackVector, 500));
        Time g = s.run(instr(kTrackGpSimd, 100));
        EXPECT_DOUBLE_EQ(g, std::string(name) == "trn1" ? 600 : 100) << name;
    }
}

TEST(ModelScheduler, LoadStationaryRunsInTheBackgroundOfThePreviousMultiplyMoving) {
    CostModel cost(*find_target("trn1"));
    Recorder rec;
    Scheduler s(cost, &rec);
    MatmulInstr mm;
    mm.k_rows = 128;
    mm.m_cols = 128;
    mm.n_cols = 512;
    Time first = s.matmul(mm);
    Time second = s.matmul(mm);
    s.finish();
    const double ls = 32 / 2.8, pass = 512 / 2.8;
    EXPECT_NEAR(first, ls + pass, 1e-9);
    // The second stationary loads while the first pass streams: back to back.
    EXPECT_NEAR(second, ls + 2 * pass, 1e-9);
    std::vector<int64_t> ls_starts;
    for (const auto& e : rec.events)
        if (e.name == "LoadStationary") ls_starts.push_back(e.ts);
    ASSERT_EQ(ls_starts.size(), 2u);
    EXPECT_EQ(ls_starts[1], static_cast<int64_t>(std::llround(ls)));  // when the first MultiplyMoving starts
}

TEST(ModelScheduler, TheSyncEngineShowsItsWaitForABufferAsASemaphoreWait) {
    CostModel cost(*find_target("trn1"));
    Recorder rec;
    Scheduler s(cost, &rec);
    Transfer t;
    t.partitions = 128;
    t.row_bytes = 1024;
    t.ready = 5000;  // the slot it overwrites is read until then
    s.dma(t);
    s.finish();
    bool found = false;
    for (const auto& e : rec.events)
        if (e.type == EventType::semaphore) {
            found = true;
            EXPECT_EQ(e.track, "Sync");
            EXPECT_EQ(e.ts, 0);
            EXPECT_EQ(e.dur, 5000);
        }
    EXPECT_TRUE(found);
}

TEST(ModelScheduler, PrefetchesShareTheSustainedHbmBandwidth) {
    CostModel cost(*find_target("trn1"));
    Scheduler s(cost, nullptr);
    Transfer t;
    t.partitions = 128;
    t.row_bytes = 8192;  // 1 MiB, HBM-bound
    Time first = s.dma(t);
    Time second = s.dma(t);
    const double one = 128.0 * 8192 / cost.hbm_bytes_per_ns();
    EXPECT_NEAR(second - first, one, 1.0);
}

TEST(ModelScheduler, AStoreDoesNotWaitBehindThePrefetchBacklogButDelaysIt) {
    CostModel cost(*find_target("trn1"));
    Scheduler alone(cost, nullptr), mixed(cost, nullptr);
    Transfer load;
    load.partitions = 128;
    load.row_bytes = 8192;
    Transfer store = load;
    store.kind = DmaKind::hbm_write;
    store.trigger = kTrackVector;
    Time backlog_alone = 0, backlog_mixed = 0;
    for (int i = 0; i < 8; ++i) backlog_alone = alone.dma(load);
    for (int i = 0; i < 4; ++i) mixed.dma(load);
    Time stored = mixed.dma(store);
    for (int i = 0; i < 4; ++i) backlog_mixed = mixed.dma(load);
    const double one = 128.0 * 8192 / cost.hbm_bytes_per_ns();
    // Sharing HBM with the backlog, the store takes at most twice its own time...
    EXPECT_LE(stored, 60 / 1.12 + cost.dma_issue_ns() + 1300 + 2 * one + 1);
    // ...and the backlog finishes later by the store's duration.
    EXPECT_NEAR(backlog_mixed - backlog_alone, one, 1.0);
}

// What a DMA's trigger costs its engine (Transfer::TriggerCost): the fitted
// issue as busy time (hand-written kernels); a 4-byte queue WRITE when the
// descriptors were built at compile time (a graph's static DMA, the
// capture's "-trig" WRITE); or the issue as occupancy shown as a 0 ns
// instant, no busy time (the capture's DMA_DIRECT2Ds).
TEST(ModelScheduler, ATriggerCostsWhatItsKindOfDescriptorsCosts) {
    using Cost = Transfer::TriggerCost;
    struct Case {
        Cost cost;
        Op op;
        int unit;
    };
    for (const Case& c : {Case{Cost::issue, Op::dma_trigger, kTrackSync}, Case{Cost::prebuilt, Op::write, kTrackSync},
                          Case{Cost::untimed, Op::dma_direct2d, kTrackGpSimd}}) {
        CostModel cost(*find_target("trn1"));
        Recorder rec;
        Scheduler s(cost, &rec);
        Transfer t;
        t.partitions = 128;
        t.row_bytes = 4;
        t.trigger = c.unit;
        t.trigger_op = c.op;
        t.trigger_cost = c.cost;
        t.packets = Packets::per_row;
        s.dma(t);
        const double occupied = c.cost == Cost::prebuilt ? kWriteNs : s.trigger_ns(c.unit) + cost.dma_issue_ns();
        EXPECT_DOUBLE_EQ(s.unit_free(c.unit), occupied) << static_cast<int>(c.cost);
        EXPECT_DOUBLE_EQ(s.stats().unit_busy_ns[static_cast<size_t>(c.unit)], c.cost == Cost::untimed ? 0 : occupied);
        // The engine's next instruction waits for the issue either way.
        EXPECT_DOUBLE_EQ(s.run(instr(c.unit, 10)), occupied + 10);
        s.finish();
        const auto trig = std::find_if(rec.events.begin(), rec.events.end(),
                                       [&](const auto& e) { return e.type == EventType::instruction; });
        ASSERT_NE(trig, rec.events.end());
        EXPECT_EQ(trig->dur, c.cost == Cost::untimed ? 0 : std::llround(occupied)) << trig->name;
    }
}

TEST(ModelScheduler, EventsAreStreamedInTimestampOrder) {
    testing::Recorder rec;
    Workload w = testing::matmul_workload(512, 1024, 2048, "blocked_mnk");
    SimResult r = simulate(w, workload_target(w), &rec);
    ASSERT_FALSE(rec.events.empty());
    for (size_t i = 1; i < rec.events.size(); ++i) ASSERT_LE(rec.events[i - 1].ts, rec.events[i].ts) << i;
    EXPECT_EQ(r.floor_clamps, 0);
}

TEST(ModelScheduler, TheReorderBufferDoesNotGrowWithTheProgram) {
    testing::Recorder small_rec, large_rec;
    Workload small = testing::matmul_workload(512, 2048, 2048, "naive");
    Workload large = testing::matmul_workload(4096, 2048, 2048, "naive");
    SimResult s = simulate(small, workload_target(small), &small_rec);
    SimResult l = simulate(large, workload_target(large), &large_rec);
    // The kernel's preamble and drain are the same fixed instructions in both.
    // Preamble: 10 per engine (two barrier rounds of 4, the launch wait, the
    // ordering mode) + the PE row's WRITE and NOP, GpSimdE's TENSOR_LOAD and
    // ScalarE's table load; drain: 12 per engine + GpSimdE's 5-instruction
    // run-state check + the Sync engine's 2 WRITEs.
    const int64_t fixed = (5 * 10 + 4) + (5 * 12 + 5 + 2);
    EXPECT_EQ(l.instructions - fixed, 8 * (s.instructions - fixed));
    EXPECT_LE(l.peak_buffered_events, s.peak_buffered_events + s.peak_buffered_events / 4);
}

}  // namespace
}  // namespace nx::model
