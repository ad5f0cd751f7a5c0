// nx's DMA counters of a stored profile, computed when a query asks instead
// of stored (they were nearly half the rows of a big profile's database):
//
//   dma_counters(profile_id)   ts, name, value
//
// name is "DMA throughput (B/s)" or "DMA pending transfers", the counter
// tracks of nx's traces, with the same samples: the same sweep
// (trace_counters.h: DmaCounters) over the profile's DMA transfers in start
// order.  Streams: memory is the transfers in flight.
#pragma once

#include <sqlite3.h>

namespace nx {

void register_dma_functions(sqlite3* db);

}  // namespace nx
