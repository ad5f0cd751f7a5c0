// The dependency graph (common/profile/dependencies.h) of a profile in a
// study database, from what it kept: Explorer's Flow and DmaPacketAggregated
// rows (source_row) and the Instruction.id in each instruction's args.
// Offered to SQL as a table-valued function (registered on every Store):
//
//   critical_path(profile_id)  step, node_table, node_id, name, engine_queue,
//                              start_ns, dur_ns, gap_to_next_ns, cumulative_ns
//
// one row per step of the profile's longest dependency chain; no rows when
// the profile has no Flow rows.
#pragma once

#include <sqlite3.h>

#include <string>

#include "common/store/dependency_graph.h"

namespace nx {

class Store;

// The profile with this uid (ProfileInfo::id); throws Error when it is not
// in the store.  flow_rows == 0: no dependency data in this profile.
DependencyGraph store_dependencies(Store& store, const std::string& uid);

void register_dependency_functions(sqlite3* db);

}  // namespace nx
