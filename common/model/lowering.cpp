// The driver of sharded lowerings (lowering.h): resumes the lane whose floor
// is least, releases the lanes at a core barrier once all arrived, and keeps
// the scheduler's floor at the least of the lanes'.
#include "common/model/lowering.h"

#include <cmath>
#include <stdexcept>

#include "common/model/scheduler.h"

namespace nx::model {

std::vector<Time> run_lowerings(Scheduler& s, std::vector<Lowering>& per_core) {
    const int n = static_cast<int>(per_core.size());
    if (n < 1 || n > s.lanes()) throw std::logic_error("model: more lowerings than the logical core has lanes");
    std::vector<bool> done(static_cast<size_t>(n), false);
    for (int c = 0; c < n; ++c) {
        Scheduler::Lane& l = s.lane(c);
        l = Scheduler::Lane{};
        l.leaf = per_core[static_cast<size_t>(c)].handle();
    }
    int left = n;
    while (left > 0) {
        // The lane that is furthest behind goes next (ties: the lower core).
        int pick = -1;
        for (int c = 0; c < n; ++c) {
            if (done[static_cast<size_t>(c)] || s.lane(c).at_barrier) continue;
            if (pick < 0 || s.lane(c).floor < s.lane(pick).floor) pick = c;
        }
        if (pick < 0) {
            // Every lane still running waits at a core barrier: all leave it
            // once the last core's write has reached the others.
            if (left != n) throw std::logic_error("model: a lane ended while another waits at a core barrier");
            Time release = 0;
            for (int c = 0; c < n; ++c) release = std::max(release, s.lane(c).arrival);
            for (int c = 0; c < n; ++c) {
                s.lane(c).release = release;
                s.lane(c).at_barrier = false;
            }
            continue;
        }
        s.select_core(pick);
        s.lane(pick).leaf.resume();
        const Lowering::Handle top = per_core[static_cast<size_t>(pick)].handle();
        if (top.done()) {
            if (top.promise().error) {
                s.select_core(0);
                std::rethrow_exception(top.promise().error);
            }
            done[static_cast<size_t>(pick)] = true;
            --left;
            s.lane_done(pick);
        }
        Time floor = INFINITY;
        for (int c = 0; c < n; ++c)
            if (!done[static_cast<size_t>(c)]) floor = std::min(floor, s.lane(c).floor);
        if (std::isfinite(floor)) s.set_floor(floor);
    }
    s.select_core(0);
    std::vector<Time> values;
    for (const Lowering& l : per_core) values.push_back(l.handle().promise().value);
    return values;
}

Time run_lowering(Scheduler& s, Lowering lowering) {
    std::vector<Lowering> one;
    one.push_back(std::move(lowering));
    return run_lowerings(s, one).front();
}

}  // namespace nx::model
