// Lower bounds on a profile's (or a region's) time, measured against it:
//   memory      HBM bytes read and written / the target's peak HBM bandwidth
//   compute     the tensor engine's hardware FLOPs / the peak FLOP/s of the
//               dtype (the summary's peak_flops, from the target table)
//   dependency  the critical path through the profile's dependencies
//               (dependencies.h), where it has Flow rows
// A bound whose data the profile lacks has no figure and says why; the
// highest bound present is the one the measured time is set against.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/dependencies.h"
#include "common/profile/profile.h"

namespace nx {

struct Bound {
    std::string name;          // memory, compute, dependency
    std::optional<double> ns;  // none: not in this profile
    std::string basis;         // how it was made, or why there is no figure
};

struct Bounds {
    double measured_ns = 0;
    std::vector<Bound> bounds;  // memory, compute, dependency
    int highest = -1;           // index of the highest bound with a figure, -1: none
    std::string critical_where; // the engine or queue with the most time on the critical path
    size_t critical_steps = 0;

    const Bound* top() const { return highest >= 0 ? &bounds[static_cast<size_t>(highest)] : nullptr; }
    // measured / highest bound (1: the time is all bound); 0 when there is none.
    double over_highest() const;
};

// `target`: the profile's target name; `path`: its critical path in the same
// range, or nullptr with `no_path` saying why there is none.
Bounds compute_bounds(const ProfileSummary& s, std::string_view target, const CriticalPath* path,
                      std::string_view no_path);

}  // namespace nx
