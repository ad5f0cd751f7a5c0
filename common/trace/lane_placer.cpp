#include "common/trace/lane_placer.h"

#include "common/trace/trace_layout.h"

namespace nx {

bool LanePlacer::place(uint32_t row, int64_t ts, int64_t end, int64_t key, Placement& out) {
    if (row >= rows_.size()) rows_.resize(static_cast<size_t>(row) + 1);
    Row& r = rows_[row];
    if (r.any && ts <= r.last_start) return false;
    r.any = true;
    r.last_start = ts;
    if (r.lanes.empty()) r.lanes.emplace_back();
    // The layout ends every slice that ends by this start before placing it
    // (trace_layout.h): a lane's innermost slices end first.
    for (auto& lane : r.lanes)
        while (!lane.empty() && lane.back().end <= ts) lane.pop_back();
    auto innermost = [&](size_t i) -> const int64_t* {
        return r.lanes[i].empty() ? nullptr : &r.lanes[i].back().end;
    };
    // The profile's cap on lane tracks is the caller's to check (overflow_lanes).
    LaneChoice choice = choose_lane(r.lanes.size(), innermost, end, true);
    if (choice.lane == r.lanes.size()) {
        r.lanes.emplace_back();
        ++overflow_lanes_;
    }
    std::vector<Open>& lane = r.lanes[choice.lane];
    out = {};
    out.lane = choice.lane;
    out.depth = static_cast<int64_t>(lane.size());
    out.parent = lane.empty() ? -1 : lane.back().key;
    lane.push_back({choice.end, key});
    return true;
}

void LanePlacer::clear() {
    rows_.clear();
    overflow_lanes_ = 0;
}

}  // namespace nx
