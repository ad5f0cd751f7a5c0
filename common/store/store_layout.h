// The trace layout (trace_layout.h) written into the study database.  When a
// profile is loaded (DbSink), the code that lays out nx's traces runs over its
// events once more, through a TraceWriter that stores what Perfetto's trace
// processor reads back from such a trace, so nx's tables and Perfetto's
// tables of nx's trace agree by construction:
//   - slice_layout: each slice not at depth 0 on its own row, with its lane's
//     track, its depth and the slice it nests in (the slice view reads it),
//     unless the load placed the slices as they came (SlicesPlaced::yes,
//     lane_placer.h: in their event rows, by the same rule);
//   - track: the overflow lanes of a row ("TensorMatrix (2)"), with the row's
//     engine and kind and track.row naming the row (the load made them when
//     it placed the slices), and nx's counter tracks (per-engine utilisation);
//   - counter: the samples of nx's counter tracks.
// The source's own counter samples are in the database already; slices the
// layout clips (trace_layout.h) keep their duration.  Events the trace merges
// onto its "(other tracks)" track (past kMaxTraceTracks) keep their own
// track, at depth 0.
//
// Memory: the layout's (open slices, a descriptor per track and lane), the
// open slices' event ids per lane, and the spool's (event_spool.h): flat in
// the number of events.
#pragma once

#include <cstdint>
#include <vector>

#include "common/profile/engine_busy.h"
#include "common/store/sqlite_db.h"
#include "common/trace/event_spool.h"
#include "common/trace/trace_layout.h"

namespace nx {

// Whether the load placed the profile's slices already (their rows and
// overflow lanes are in the database), or the layout is to.
enum class SlicesPlaced { no, yes };

// Lays out `spool` (events added with ref = their event.id; counter samples
// with any ref) and its `flows` (which order the slices that start
// together) for profile `profile_id`.  `row_tracks[i]` is the track.id of
// spool track i (EventSpool::tracks()), 0 for one the database does not have.
void lay_out_in_store(SqliteDb& db, int64_t profile_id, EventSpool& spool, const std::vector<TraceFlow>& flows,
                      const std::vector<int64_t>& row_tracks, SlicesPlaced placed);

// nx's utilisation counters alone (tracks and samples), for a profile whose
// slices were placed as they came: the layout's figures (UtilisationBins over
// [start, end), the spool's span) from the engines' busy intervals, without
// reading the spool again.  They follow the layout's rule (engine_busy.h)
// when the caller vouches for two things: every event's engine is its
// track's (EngineBusy counts by track, the layout by event), and every
// profiler interval (EventType::active) is on a track that begins with one
// (EngineBusy switches an engine to its profiler's intervals on any such
// event, the layout on a track of them).
// With `dma` (the profile has DMA transfers), the two DMA counter tracks too,
// whose samples are computed when asked (dma_counters()), as the layout's.
void store_utilisation(SqliteDb& db, int64_t profile_id, EngineBusy& busy, int64_t start, int64_t end, bool dma);

}  // namespace nx
