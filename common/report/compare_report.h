// Two or more profiles side by side: metrics with ratios to the first, and
// the engine-time deltas that explain the difference in total time (the fair
// kernel-vs-kernel comparison users otherwise do by hand).
#pragma once

#include <vector>

#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/report/row_format.h"

namespace nx {

void add_comparison(Document& doc, const std::vector<const ProfileEntry*>& profiles, bool all);
// Rows: kind "comparison", metric, unit, then per profile: value, ratio.
void write_comparison(const std::vector<const ProfileEntry*>& profiles, bool all, RowWriter& out);

}  // namespace nx
