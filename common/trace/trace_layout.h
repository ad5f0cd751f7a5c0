// How nx lays a profile out as a trace: one process per profile, one track
// per source row (engine rows TensorMatrix, Tensor, Vector, Scalar, GpSimd,
// Sync; one per DMA queue; host/runtime rows), counter tracks for the
// source's counters and nx's DMA throughput, DMA pending and per-engine
// utilisation (trace_counters.h).
//
// Nesting: trace viewers need the slices of a track properly nested, but
// hardware rows overlap (pipelined TensorMatrix instructions, concurrent DMA
// transfers on one queue).  Events are taken in start order (longer first on
// ties) and each goes to the first lane of its track where it nests inside
// the innermost open slice (or where nothing is open).  A slice that
// partially overlaps every open lane opens an overflow track named
// "TensorMatrix (2)", "(3)" ... next to its row.  Past kMaxLanes lanes, the
// slice is clipped to end with the open slice it would otherwise cross (and
// says so in a clipped_dur_ns argument); so is a slice that would need a
// lane when the profile already has kMaxLaneTracks of them.  Memory: the
// open slices, and per track (at most kMaxTraceTracks, event_spool.h) and
// lane (at most kMaxLaneTracks) a descriptor, whatever the input holds.
//
// The study database stores the same layout of each profile it loads
// (store_layout.h, through a TraceWriter of its own), so its tables are what
// Perfetto reads from the trace.
#pragma once

#include <cstdint>

#include "common/trace/event_spool.h"
#include "common/trace/trace_writer.h"

namespace nx {

struct LayoutStats {
    int64_t slices = 0;
    int64_t counter_samples = 0;  // the source's counter events
    int64_t overflow_tracks = 0;
    int64_t clipped = 0;
};

constexpr int kMaxLanes = 32;
// Slice lanes (rows and their overflow lanes) per profile.
constexpr size_t kMaxLaneTracks = 4 * kMaxTraceTracks;

// Writes one profile (its spooled events, in order) as process `p`.
LayoutStats lay_out_profile(EventSpool& spool, const TraceProcess& p, TraceWriter& w);

// "TensorMatrix", "TensorMatrix (2)", ...: the name of lane `lane` (0-based).
std::string lane_name(const std::string& track, int lane);

}  // namespace nx
