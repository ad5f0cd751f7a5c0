// Software pipelining of stores on the Sync engine's stream (store_pipeline.h).
#include "common/model/store_pipeline.h"

#include <algorithm>

namespace nx::model {

StorePipeline::StorePipeline(Scheduler& s, int producer, int lag)
    : s_(s), trigger_(producer), lag_(s.dma_trigger(producer) == kTrackSync ? std::max(lag, 0) : 0) {}

uint64_t StorePipeline::store(Transfer t, std::function<void(Time)> stored) {
    t.trigger = trigger_;
    waiting_.push_back({t, std::move(stored), ++tickets_, groups_});
    if (lag_ == 0) issue_oldest();
    return tickets_;
}

void StorePipeline::loads_issued() {
    ++groups_;
    while (!waiting_.empty() && groups_ - waiting_.front().group >= lag_) issue_oldest();
}

void StorePipeline::keep_at_most(size_t n) {
    while (waiting_.size() > n) issue_oldest();
}

void StorePipeline::issue_through(uint64_t ticket) {
    while (!waiting_.empty() && waiting_.front().ticket <= ticket) issue_oldest();
}

Time StorePipeline::finish() {
    keep_at_most(0);
    return end_;
}

void StorePipeline::hold(Floor& f) const {
    for (const Waiting& w : waiting_) f.hold(w.t.ready, kTrackSync);
}

void StorePipeline::issue_oldest() {
    Waiting w = std::move(waiting_.front());
    waiting_.pop_front();
    const Time done = s_.dma(w.t);
    end_ = std::max(end_, done);
    if (w.stored) w.stored(done);
}

}  // namespace nx::model
