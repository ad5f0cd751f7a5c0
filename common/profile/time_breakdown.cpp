// Lengths by union: |C ∩ K| = |C| + |K| - |C ∪ K|, the exposed DMA is
// |C ∪ K ∪ D| - |C ∪ K|; each union is built from the merged intervals of
// its parts, so memory stays that of IntervalUnion (bounded, spilling).
#include "common/profile/time_breakdown.h"

#include <algorithm>

namespace nx {

void CollectiveOps::add(const Event& e) {
    ++count_;
    intervals_.add(e.ts_ns, e.ts_ns + std::max<int64_t>(e.dur_ns, 0));
    if (ops_.size() >= kMaxOps) {
        ++dropped_;
        return;
    }
    ops_.push_back({std::string(e.name), e.ts_ns, std::max<int64_t>(e.dur_ns, 0), e.bytes});
}

std::vector<CollectiveOp> CollectiveOps::take_ops() {
    std::stable_sort(ops_.begin(), ops_.end(),
                     [](const CollectiveOp& a, const CollectiveOp& b) { return a.start_ns < b.start_ns; });
    return std::move(ops_);
}

namespace {

void add_all(IntervalUnion& from, IntervalUnion& to) {
    from.for_each([&](const Interval& i) { to.add(i.begin, i.end); });
}

}  // namespace

TimeBreakdown break_down_time(EngineBusy& busy, IntervalUnion& collectives, int64_t start_ns, int64_t end_ns,
                              int buckets) {
    TimeBreakdown out;
    out.span_ns = std::max<int64_t>(end_ns - start_ns, 0);
    IntervalUnion compute, with_collectives, everything;
    for (Engine e : EngineBusy::kRows) {
        if (e == Engine::dma || !busy.present(e) || busy.row(e) != e) continue;
        add_all(busy.busy(e), compute);
    }
    add_all(compute, with_collectives);
    add_all(collectives, with_collectives);
    add_all(with_collectives, everything);
    if (busy.present(Engine::dma)) add_all(busy.busy(Engine::dma), everything);
    out.compute_ns = compute.total();
    out.collective_ns = collectives.total();
    int64_t either = with_collectives.total();
    out.overlap_ns = out.compute_ns + out.collective_ns - either;
    int64_t all = everything.total();
    out.dma_exposed_ns = all - either;
    out.idle_ns = std::max<int64_t>(out.span_ns - all, 0);
    if (out.span_ns > 0) {
        TimeBuckets tb(start_ns, end_ns, buckets);
        out.compute_percent = tb.percent(compute);
        out.collective_percent = tb.percent(collectives);
    }
    return out;
}

}  // namespace nx
