#include "common/import/chrome_flows.h"

#include <algorithm>
#include <numeric>

namespace nx::chrome {

uint32_t FlowBinder::flow_index(const FlowPoint& p) {
    auto [scope, new_scope] = scope_ids_.try_emplace(p.scope, static_cast<uint32_t>(scopes_.size()));
    if (new_scope) scopes_.push_back({p.category, p.name});
    auto [it, added] = flow_ids_.try_emplace(FlowKey{scope->second, p.id}, static_cast<uint32_t>(flows_.size()));
    if (added) flows_.push_back({p.id, scope->second});
    return it->second;
}

void FlowBinder::add_point(const std::string& thread_key, int64_t ts, int64_t record, const FlowPoint& p) {
    auto [it, added] = thread_ids_.try_emplace(thread_key, static_cast<Thread>(threads_.size()));
    if (added) threads_.emplace_back();
    Point point;
    point.ts = ts;
    point.record = record;
    point.flow = flow_index(p);
    point.role = p.role;
    auto index = static_cast<uint32_t>(points_.size());
    points_.push_back(point);
    ThreadPoints& t = threads_[static_cast<size_t>(it->second)];
    (p.bind_next ? t.next : t.enclosing).push_back(index);
}

void FlowBinder::prepare() {
    auto by_time = [this](uint32_t a, uint32_t b) {
        const Point& x = points_[a];
        const Point& y = points_[b];
        return x.ts != y.ts ? x.ts < y.ts : x.record < y.record;
    };
    for (ThreadPoints& t : threads_) {
        std::sort(t.enclosing.begin(), t.enclosing.end(), by_time);
        std::sort(t.next.begin(), t.next.end(), by_time);
    }
}

FlowBinder::Thread FlowBinder::thread(const std::string& thread_key) const {
    auto it = thread_ids_.find(thread_key);
    return it == thread_ids_.end() ? kNoThread : it->second;
}

bool FlowBinder::better_enclosing(const Candidate& c, const Candidate& best, int64_t point_record) {
    if (best.ordinal < 0) return true;
    if (c.start != best.start) return c.start > best.start;
    if (c.end != best.end) return c.end < best.end;
    // Equal slices: the one written last before the point (the one a viewer
    // reading the file in order has open), else the first written after it.
    bool c_before = c.record < point_record, best_before = best.record < point_record;
    if (c_before != best_before) return c_before;
    return c_before ? c.record > best.record : c.record < best.record;
}

bool FlowBinder::better_next(const Candidate& c, const Candidate& best) {
    if (best.ordinal < 0) return true;
    if (c.start != best.start) return c.start < best.start;
    if (c.end != best.end) return c.end > best.end;
    return c.record < best.record;
}

void FlowBinder::slice(Thread thread, int64_t start, int64_t end, int64_t record, int64_t ordinal) {
    if (thread == kNoThread) return;
    ThreadPoints& t = threads_[static_cast<size_t>(thread)];
    const Candidate c{start, end, record, ordinal};
    // Enclosing: the points inside [start, end].
    auto first = std::lower_bound(t.enclosing.begin(), t.enclosing.end(), start,
                                  [this](uint32_t i, int64_t ts) { return points_[i].ts < ts; });
    for (auto it = first; it != t.enclosing.end() && points_[*it].ts <= end; ++it) {
        Point& p = points_[*it];
        if (better_enclosing(c, p.best, p.record)) p.best = c;
    }
    // Next: the points before this slice's start (in time, then file order).
    // A point's best next slice can only be later than an earlier point's,
    // so walking back stops at the first point this slice does not improve.
    auto past = std::lower_bound(t.next.begin(), t.next.end(), c, [this](uint32_t i, const Candidate& s) {
        const Point& p = points_[i];
        return p.ts != s.start ? p.ts < s.start : p.record < s.record;
    });
    for (auto it = past; it != t.next.begin();) {
        Point& p = points_[*--it];
        if (!better_next(c, p.best)) break;
        p.best = c;
    }
}

void FlowBinder::bound(const FlowPoint& p, int64_t ts, int64_t record, int64_t ordinal) {
    Point point;
    point.ts = ts;
    point.record = record;
    point.flow = flow_index(p);
    point.role = p.role;
    point.order = p.role == FlowPoint::start ? 1 : 0;
    point.best = {ts, ts, record, ordinal};
    points_.push_back(point);
}

FlowBinder::Counts FlowBinder::finish(ImportHandler& out) {
    Counts n;
    n.points = static_cast<int64_t>(points_.size());
    std::vector<uint32_t> order(points_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
        const Point& x = points_[a];
        const Point& y = points_[b];
        if (x.flow != y.flow) return x.flow < y.flow;
        if (x.ts != y.ts) return x.ts < y.ts;
        if (x.record == y.record) return x.order < y.order;
        // At one time, a flow starts before it steps and ends (Kineto writes
        // a kernel's end point before the launch's start when both have the
        // same timestamp).
        if (x.role != y.role) return x.role < y.role;
        return x.record < y.record;
    });
    Flow f;
    bool open = false;
    int64_t from = -1;  // the slice the next arrow leaves (-1: its point was unbound)
    auto arrow = [&](const Point& p) {
        if (from < 0 || p.best.ordinal < 0) return;
        const FlowInfo& info = flows_[p.flow];
        f.id = info.id;
        f.category = scopes_[info.scope].category;
        f.name = scopes_[info.scope].name;
        f.from = from;
        f.to = p.best.ordinal;
        out.flow(f);
        ++n.flows;
    };
    for (size_t k = 0; k < order.size(); ++k) {
        const Point& p = points_[order[k]];
        if (k > 0 && points_[order[k - 1]].flow != p.flow) {
            if (open) ++n.without_end;
            open = false;
        }
        if (p.best.ordinal < 0) ++n.unbound;
        switch (p.role) {
            case FlowPoint::start:
                if (open) ++n.without_end;
                open = true;
                from = p.best.ordinal;
                break;
            case FlowPoint::step:
            case FlowPoint::end:
                if (!open) {
                    ++n.without_start;
                    break;
                }
                arrow(p);
                // A step continues the flow from itself; an end closes it.
                if (p.role == FlowPoint::end) open = false;
                else if (p.best.ordinal >= 0) from = p.best.ordinal;
                break;
        }
    }
    if (open) ++n.without_end;
    return n;
}

}  // namespace nx::chrome
