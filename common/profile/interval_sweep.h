// A sweep over several rows of merged intervals at once, each row an
// IntervalUnion read in order: between two consecutive boundaries of any row
// the set of rows in progress is fixed, and the caller is told of each such
// stretch and of each row's interval beginning and ending.  The device
// streams' kinds and the time breakdown's engine rows are split this way.
// Memory: one reader per row, whatever the intervals.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/profile/interval_union.h"

namespace nx {

// One row's intervals, read in order; `tag` is what the caller keeps for it.
template <class Tag>
struct SweepRow {
    SweepRow(IntervalUnion& u, Tag t) : reader(std::make_unique<IntervalUnion::Reader>(u)), tag(t) { advance(); }
    std::unique_ptr<IntervalUnion::Reader> reader;
    Tag tag;
    Interval cur{};
    bool more = false;
    bool inside = false;  // the sweep is within cur
    void advance() { more = reader->next(cur); }
    int64_t next_boundary() const { return inside ? cur.end : cur.begin; }
};

// Calls on_stretch(pos, next) for each non-empty stretch between two
// consecutive boundaries, having called enter(tag) for each row whose
// interval begins at pos and leave(tag) for each whose interval ends there.
template <class Tag, class Enter, class Leave, class OnStretch>
void sweep_rows(std::vector<SweepRow<Tag>>& rows, Enter enter, Leave leave, OnStretch on_stretch) {
    int64_t pos = INT64_MIN;
    for (;;) {
        int64_t next = INT64_MAX;
        for (const SweepRow<Tag>& r : rows)
            if (r.more) next = std::min(next, r.next_boundary());
        if (next == INT64_MAX) break;
        if (pos != INT64_MIN && next > pos) on_stretch(pos, next);
        pos = next;
        for (SweepRow<Tag>& r : rows) {
            while (r.more && r.next_boundary() == pos) {
                if (r.inside) {
                    leave(r.tag);
                    r.inside = false;
                    r.advance();
                } else {
                    enter(r.tag);
                    r.inside = true;
                }
            }
        }
    }
}

}  // namespace nx
