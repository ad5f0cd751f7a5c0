// The trace layout (trace_layout.h) written into the study database: when a
// profile is loaded, the same layout code that writes nx's traces runs over
// its events once more, through a TraceWriter that records what Perfetto's
// trace processor reads back from the trace, so nx's tables and Perfetto's
// tables of nx's trace agree by construction:
//   - each slice's depth and parent on its track (event.depth, parent_id);
//   - the overflow lanes of a row ("TensorMatrix (2)") as tracks, with the
//     row's engine and kind and track.row naming the row; the slices on a
//     lane take the lane's track_id;
//   - nx's counter tracks (DMA throughput, DMA pending transfers, per-engine
//     utilisation) and their samples (counter).
// The source's own counter samples are in the database already; slices the
// layout clipped (trace_layout.h) keep their duration.  Events the trace
// merges onto its "(other tracks)" track (past kMaxTraceTracks) keep their
// own track, at depth 0.
//
// Memory: the layout's (open slices, one descriptor per track and lane), the
// open slices' row ids per lane, and the spool's bounded chunk (event_spool.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/sqlite_db.h"
#include "common/trace/event_spool.h"

namespace nx {

struct StoreLayoutStats {
    int64_t nested = 0;        // slices with a parent
    int64_t lane_slices = 0;   // slices moved to an overflow lane
    int64_t lane_tracks = 0;
    int64_t counter_tracks = 0;  // nx's
    int64_t counter_samples = 0; // nx's
};

// Lays out `spool` (events added with ref = their event.id; counter samples
// with any ref) for profile `profile_id`.  `row_tracks[i]` is the track.id of
// spool track i (EventSpool::tracks()), 0 for one the database does not have.
StoreLayoutStats lay_out_in_store(SqliteDb& db, int64_t profile_id, EventSpool& spool,
                                  const std::vector<int64_t>& row_tracks);

}  // namespace nx
