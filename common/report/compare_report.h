// Two or more profiles side by side: metrics with ratios to the first, and
// the engine-time deltas that explain the difference in total time (the fair
// kernel-vs-kernel comparison users otherwise do by hand).
#pragma once

#include <vector>

#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"

namespace nx {

// The metrics compared: the key ones (every one with `all`) any profile has.
std::vector<std::string> compared_metric_names(const std::vector<const ProfileEntry*>& profiles, bool all);
// An engine's busy time (0 when the profile has no such engine), and the
// profile's total time, in ns.
int64_t engine_busy_ns(const ProfileEntry* p, Engine e);
double profile_total_ns(const ProfileEntry* p);
// The engines compared, in the order tables list them.
const std::vector<Engine>& compared_engines();

void add_comparison(Document& doc, const std::vector<const ProfileEntry*>& profiles, bool all);
// Rows: kind "comparison", metric, unit, then per profile: value, ratio.
void write_comparison(const std::vector<const ProfileEntry*>& profiles, bool all, RowWriter& out);

}  // namespace nx
