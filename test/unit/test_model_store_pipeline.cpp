// Stores on the Sync engine's stream (StorePipeline): where they wait for
// the loads the buffers let run ahead, and where they go out at once.
#include <gtest/gtest.h>

#include "common/model/scheduler.h"
#include "common/model/store_pipeline.h"

namespace nx::model {
namespace {

Transfer tile(DmaKind kind, Time ready) {
    Transfer t;
    t.kind = kind;
    t.partitions = 128;
    t.row_bytes = 1024;
    t.ready = ready;
    t.strided = false;
    return t;
}

constexpr Time kResultReady = 50000;  // long after the load could start

TEST(ModelStorePipeline, OnTrn2ALoadTheBuffersAllowGoesBeforeTheStoreWaitingForItsData) {
    CostModel cost(*find_target("trn2"));
    Scheduler s(cost, nullptr);
    StorePipeline stores(s, kTrackVector, 1);
    bool stored = false;
    stores.store(tile(DmaKind::hbm_write, kResultReady), [&](Time) { stored = true; });
    EXPECT_FALSE(stored);
    const Time loaded = s.dma(tile(DmaKind::hbm_read, 0));
    stores.loads_issued();
    EXPECT_TRUE(stored);
    EXPECT_LT(loaded, kResultReady);
}

TEST(ModelStorePipeline, OnTrn1VectorETriggersItsStoreAtOnce) {
    CostModel cost(*find_target("trn1"));
    Scheduler s(cost, nullptr);
    StorePipeline stores(s, kTrackVector, 1);
    bool stored = false;
    stores.store(tile(DmaKind::hbm_write, kResultReady), [&](Time) { stored = true; });
    EXPECT_TRUE(stored);
}

TEST(ModelStorePipeline, OnTrn2ScalarETriggersItsStoreAtOnce) {
    CostModel cost(*find_target("trn2"));
    Scheduler s(cost, nullptr);
    StorePipeline stores(s, kTrackScalar, 1);
    EXPECT_FALSE(stores.deferred());
}

TEST(ModelStorePipeline, AStoreWhoseBufferIsReusedGoesOutBeforeItsLag) {
    CostModel cost(*find_target("trn2"));
    Scheduler s(cost, nullptr);
    StorePipeline stores(s, kTrackVector, 2);
    Time freed = 0;
    stores.store(tile(DmaKind::hbm_write, kResultReady), [&](Time t) { freed = t; });
    stores.keep_at_most(0);
    EXPECT_GT(freed, kResultReady);
}

TEST(ModelStorePipeline, FinishIssuesEveryWaitingStoreAndReturnsTheLastCompletion) {
    CostModel cost(*find_target("trn2"));
    Scheduler s(cost, nullptr);
    StorePipeline stores(s, kTrackVector, 2);
    Time first = 0, second = 0;
    stores.store(tile(DmaKind::hbm_write, kResultReady), [&](Time t) { first = t; });
    stores.store(tile(DmaKind::hbm_write, kResultReady), [&](Time t) { second = t; });
    const Time end = stores.finish();
    EXPECT_GT(second, first);
    EXPECT_EQ(end, second);
}

}  // namespace
}  // namespace nx::model
