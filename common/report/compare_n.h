// nx-report --compare with N profiles against a chosen base (--base): what
// changed against the base per profile (total time, and the engines whose
// busy time explains the change), per opcode and per region (regions matched
// by kind and name).  compare_report.h draws the side-by-side metric table
// this follows; the records here are one row per (item, profile), so a
// spreadsheet or jq can pivot them any way.
#pragma once

#include <string>
#include <vector>

#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"

namespace nx {

// The profiles in comparison order: the one named `base` (name or id; the
// first when empty) first, the others in their order.  Throws Error naming
// the profiles when none is called `base`, or when several are.
std::vector<const ProfileEntry*> order_by_base(const std::vector<ProfileEntry>& profiles, const std::string& base);

struct CompareDeltaOptions {
    bool all = false;   // every opcode and region, not only the top ones
    size_t top = 10;
};

// Sections "Against BASE", "Opcodes against BASE", "Regions against BASE";
// profiles[0] is the base.
void add_compare_deltas(Document& doc, const std::vector<const ProfileEntry*>& profiles, const CompareDeltaOptions& o);
// Rows: kind "comparison_delta", what (metric, engine, opcode, region), name,
// unit, base, profile, base_value, value, change, ratio.
void write_compare_deltas(const std::vector<const ProfileEntry*>& profiles, const CompareDeltaOptions& o,
                          RowWriter& out);

}  // namespace nx
