// Each engine's busy time in one profile of a study database, computed in C++
// (IntervalUnion: exact, flat memory) instead of SQL window functions, and
// offered to SQL as table-valued functions (registered on every Store):
//
//   engine_summary(profile_id)      engine, instructions, busy_ns, busy_sum_ns,
//                                   work_instructions, work_sum_ns (semaphore waits left out)
//   engine_busy(profile_id)         engine, lo, hi        merged busy intervals
//   engine_masks(profile_id)        mask, dur_ns, engines, compute, dma: time per set of
//                                   engines busy together (compute/dma: 1 if any such engine)
//   engine_timeline(profile_id, n)  engine, bucket, start_ns, end_ns, busy_ns
//
// A profile's events have contiguous ids, so each call is one rowid-range
// scan; engine_masks is a sweep over the sorted merged intervals of all
// engines at once (k-way merge), never a self-join.
#pragma once

#include <sqlite3.h>

namespace nx {

void register_engine_functions(sqlite3* db);

}  // namespace nx
