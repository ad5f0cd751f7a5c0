// Where a profile's time went, as the cross-rank report and a dataset's
// breakdown table need it: compute (the union of the compute engines' busy
// intervals, engine_busy.h's rule), collectives (the union of the collective
// operations: Explorer's CcOp rows, the "collectives" track), how much of the
// collective time computed too (overlap), DMA that neither hides (exposed),
// and idle; the same cut into the report's timeline buckets; and the
// collective operations themselves, in start order, for matching them across
// ranks (straggler, wait).  Exact lengths of interval unions in bounded
// memory (interval_union.h), whatever the order events came in.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/engine_busy.h"
#include "common/profile/event.h"
#include "common/profile/interval_union.h"
#include "common/profile/profile.h"

namespace nx {

// The track collective operations are on (explorer_parquet.cpp: CcOp).
inline constexpr std::string_view kCollectivesTrack = "collectives";

// Collects the collective operations and their intervals from the events;
// break_down() does the rest once the events are all in.
class CollectiveOps {
public:
    // Keeps at most this many operations' rows (their time counts whatever).
    static constexpr size_t kMaxOps = 100000;

    bool is_collective(const Event& e) const {
        return e.type == EventType::region && e.track == kCollectivesTrack;
    }
    void add(const Event& e);

    // The operations in start order (then arrival), at most kMaxOps.
    std::vector<CollectiveOp> take_ops();
    int64_t dropped() const { return dropped_; }
    IntervalUnion& intervals() { return intervals_; }
    bool any() const { return count_ > 0; }

private:
    std::vector<CollectiveOp> ops_;
    IntervalUnion intervals_;
    int64_t count_ = 0, dropped_ = 0;
};

// The breakdown over [start_ns, end_ns) with `buckets` timeline buckets.
// Compute is the union of every compute row of `busy`; DMA its dma row.
// With `executions` (their windows set), the same split and each engine
// row's busy time within each execution's window, in the same sweep; they
// come back sorted by start.
TimeBreakdown break_down_time(EngineBusy& busy, IntervalUnion& collectives, int64_t start_ns, int64_t end_ns,
                              int buckets, std::vector<ExecutionStat>* executions = nullptr);

}  // namespace nx
