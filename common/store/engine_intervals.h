// Each engine's busy time in one profile of a study database, computed in C++
// (IntervalUnion: exact, flat memory) instead of SQL window functions, and
// offered to SQL as table-valued functions (registered on every Store):
//
//   engine_summary(profile_id)      engine_stat's columns (described_tables.h): engine,
//                                   instructions, busy_ns, busy_sum_ns, work_instructions,
//                                   work_sum_ns (semaphore waits left out)
//   engine_busy(profile_id)         engine, lo, hi        merged busy intervals
//   engine_masks(profile_id)        mask, dur_ns, engines, compute, dma: time per set of
//                                   engines busy together (compute/dma: 1 if any such engine)
//   engine_timeline(profile_id, n)  engine, bucket, start_ns, end_ns, busy_ns
//
// A profile's events have contiguous ids, so each call is one rowid-range
// scan; engine_masks is a sweep over the sorted merged intervals of all
// engines at once (k-way merge), never a self-join.
//
// engine_summary's rows are stored at import (engine_stat, by the DbSink:
// the same sums over the same events), so the named queries that read it
// (engine_utilization) read a few rows; a profile an older nx stored is
// scanned as before.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/profile/engine_busy.h"

namespace nx {

void register_engine_functions(sqlite3* db);

// The rows of engine_summary for the events added to `busy`, in its order
// (its columns: stored_engine_fields(), described_tables.h).
std::vector<EngineStat> engine_summary_rows(EngineBusy& busy);

}  // namespace nx
