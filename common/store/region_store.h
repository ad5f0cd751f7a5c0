// Regions (common/profile/regions.h) of a profile in a study database: the
// automatic ones found from what the profile kept (its record's layer
// summary, Explorer's FrameworkNode rows, else the layers its instructions
// name), manual windows, and their metrics and findings from one scan of the
// profile's events.  Offered to SQL as table-valued functions (registered on
// every Store) and the `region` view:
//
//   regions(profile_id)       region_id, kind, name, parent, start_ns, end_ns, dur_ns
//   region_stats(profile_id)  the same, then percent_of_profile, events,
//                             instructions, {tensor,vector,scalar,gpsimd,sync,dma}_busy_ns,
//                             tensor_active_percent, dma_active_percent,
//                             hardware_flops, model_flops, mfu_percent,
//                             hbm_bytes, findings, worst_rule, worst_severity,
//                             worst_message
//   region (view)             profile_id, profile, and regions(profile_id)'s columns
#pragma once

#include <sqlite3.h>

#include <string>
#include <vector>

#include "common/profile/regions.h"
#include "common/profile/rules.h"

namespace nx {

class Store;

// The profile with this uid (ProfileInfo::id) in the store: its regions,
// automatic and `windows`, with metrics and findings.  `notes` (optional)
// says what was left out.  Throws Error when the profile is not there.
std::vector<RegionResult> store_regions(Store& store, const std::string& uid, const std::vector<WindowSpec>& windows,
                                        const RuleThresholds* thresholds, std::vector<std::string>* notes = nullptr);

void register_region_functions(sqlite3* db);

// The temp view `region` over every profile (Store creates it on open).
extern const char* const kRegionView;

}  // namespace nx
