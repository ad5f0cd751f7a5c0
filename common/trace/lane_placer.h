// LanePlacer: the trace layout's lanes, nesting and parents (trace_layout.h)
// worked out as a profile's slices arrive, for a load that stores them in
// each event's row (DbSink) instead of laying the profile out again at its
// end and storing the result apart.
//
// The layout takes a row's slices in start order (longer first on equal
// starts, then by nesting, then by flows); a row's placements depend only
// on its own slices.  So while each row's slices arrive with strictly
// increasing starts, placing them in arrival order gives the layout's own
// placements: the same lane (choose_lane, trace_layout.h), depth and parent.
// A row whose starts repeat or go back breaks that; place() says so and the
// caller lays the profile out at its end as before.  Neuron profiles (JSON,
// NTFF, Explorer) list each row in time order with distinct starts; Chrome
// traces may not.
//
// What the layout also limits across rows (kMaxLaneTracks lane tracks per
// profile, the overflow track past kMaxTraceTracks rows) the caller checks
// at the end: overflow_lanes() counts what the layout would have opened too.
//
// Memory: per row its lanes' open slices, as the layout's (bounded by how
// deep the source nests, not by how many events it has).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nx {

class LanePlacer {
public:
    struct Placement {
        size_t lane = 0;     // 0: the row itself; k: its overflow lane "Row (k+1)"
        int64_t depth = 0;   // nesting on that lane
        int64_t parent = -1; // the key of the slice it nests in; -1: none
    };

    // Places a slice of row `row` over [ts, end] (end >= ts), known to the
    // caller as `key`.  Returns false, placing nothing, when the row's starts
    // do not strictly increase: from then on only a layout of the whole
    // profile gives the trace's placements.
    bool place(uint32_t row, int64_t ts, int64_t end, int64_t key, Placement& out);

    // Overflow lanes opened, over all rows.
    size_t overflow_lanes() const { return overflow_lanes_; }
    // Forgets every row (the next profile).
    void clear();

private:
    struct Open {
        int64_t end;  // where it ends on its lane (clipped: the slice it crosses)
        int64_t key;
    };
    struct Row {
        bool any = false;
        int64_t last_start = 0;
        std::vector<std::vector<Open>> lanes;  // each lane's open slices, innermost last
    };
    std::vector<Row> rows_;
    size_t overflow_lanes_ = 0;
};

}  // namespace nx
