// The report's Bounds section (common/profile/bounds.h): the memory,
// compute and dependency bounds of a profile and of each region, the
// measured time against the highest, and which engine or DMA queue sits on
// the critical path; and the same figures as records (kind "bound").
#pragma once

#include <vector>

#include "common/profile/bounds.h"
#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"

namespace nx {

// The profile's bounds (region: nullptr) or a region's.
Bounds profile_bounds(const ProfileEntry& p, const RegionResult* region);

void add_bounds_report(Document& doc, const ProfileEntry& p, bool all);

// One row per profile and per region (trace profiles have none).
void write_bound_records(const std::vector<ProfileEntry>& profiles, RowWriter& out);

}  // namespace nx
