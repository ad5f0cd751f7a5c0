// The report's Regions section (regions.h): the regions that take the most
// time, each with its engines' activity as a sparkline, its busiest figures
// and its worst finding; and the regions' findings as records.
#pragma once

#include <vector>

#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"

namespace nx {

struct RegionReportOptions {
    bool all = false;   // every region, not only the top ones
    size_t top = 10;
};

// Nothing when the profile has no regions computed (p.regions null).
void add_region_report(Document& doc, const ProfileEntry& p, const RegionReportOptions& o);

// The findings of every region as finding rows (finding_columns()).
void write_region_findings(const ProfileEntry& p, RowWriter& out);

// Activity as text: one character per slice of the region, " .:-=+*#%@"
// from idle to fully busy (the busiest compute engine in each slice).
std::string activity_sparkline(const ProfileSummary& s, size_t width);

}  // namespace nx
