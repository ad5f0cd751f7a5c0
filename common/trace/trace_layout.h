// How nx lays a profile out as a trace: one process per profile, one track
// per source row (engine rows TensorMatrix, Tensor, Vector, Scalar, GpSimd,
// Sync; one per DMA queue; host/runtime rows), counter tracks for the
// source's counters and nx's DMA throughput, DMA pending and per-engine
// utilisation (trace_counters.h).
//
// Sources with processes and threads (Chrome traces: Event::pid, tid) keep
// them: one process per source pid, named by the source, each source thread
// a thread track (its pid and tid, unless the file has them already: then
// fresh ids), so Perfetto shows the tree the source showed; rows without a
// pid, and nx's derived counters, stay in the profile's own process, which
// is written only when it has tracks.  Flows (ProfileSink::flow) become
// arrows between the slices they join.
//
// Order within a row is the spool's (event_spool.h): start, longer first,
// outer (lower depth) first, then arrival.  A slice that ends where the
// next one starts is closed first, so a zero-duration slice never contains
// another: two zero-duration slices at one time are siblings, in that order.
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

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/trace/event_spool.h"
#include "common/trace/trace_writer.h"

namespace nx {

struct LayoutStats {
    int64_t slices = 0;
    int64_t counter_samples = 0;  // the source's counter events
    int64_t overflow_tracks = 0;
    int64_t clipped = 0;
    int64_t flows_left_out = 0;  // flows ending before they start (Perfetto cannot pair them)
};

constexpr int kMaxLanes = 32;
// Slice lanes (rows and their overflow lanes) per profile.
constexpr size_t kMaxLaneTracks = 4 * kMaxTraceTracks;

// Process and thread ids already used in one trace file: a source's pid or
// tid is kept unless it is taken (or does not fit 32 bits); then a fresh one
// from kFirstFreshId up.  Perfetto merges processes and threads by id, so two
// profiles' "pid 0" must not become one process.
class TraceIds {
public:
    static constexpr int32_t kFirstFreshId = int32_t{1} << 30;
    int32_t process(int64_t wanted) { return take(pids_, next_pid_, wanted); }
    int32_t thread(int64_t wanted) { return take(tids_, next_tid_, wanted); }

private:
    static int32_t take(std::unordered_set<int64_t>& used, int32_t& next, int64_t wanted);
    std::unordered_set<int64_t> pids_, tids_;
    int32_t next_pid_ = kFirstFreshId, next_tid_ = kFirstFreshId;
};

// A flow between two spooled events (their seq), and what the source called it.
struct TraceFlow {
    uint64_t from = 0, to = 0;
    std::string category, name;
};

// Writes one profile (its spooled events, in order): `own` is the profile's
// process (uuid, pid, name, sequence); `flows` are its flows.
LayoutStats lay_out_profile(EventSpool& spool, const TraceProcess& own, TraceIds& ids,
                            const std::vector<TraceFlow>& flows, TraceWriter& w);

// Which lane of its row a slice goes on, the rule above: the first lane
// where it nests in the innermost open slice (or nothing is open); else a
// new lane, while the row has fewer than kMaxLanes and `may_open` (the
// profile's lane tracks are not all taken); else the lane whose innermost
// slice ends last, the slice clipped to end with it.  `innermost(i)` is the
// end of lane i's innermost open slice, nullptr when none is open.  One
// rule for the trace (Layout) and for a load that places slices as they
// arrive (lane_placer.h), so the two cannot drift apart.
struct LaneChoice {
    size_t lane = 0;  // among the row's lanes; == their number: a new lane
    int64_t end = 0;  // where the slice ends on it (before its own end: clipped)
};
template <class Innermost>
LaneChoice choose_lane(size_t lanes, const Innermost& innermost, int64_t end, bool may_open) {
    for (size_t i = 0; i < lanes; ++i) {
        const int64_t* open = innermost(i);
        if (open == nullptr || end <= *open) return {i, end};
    }
    if (may_open && lanes < static_cast<size_t>(kMaxLanes)) return {lanes, end};
    // Every lane has an open slice this one crosses.
    size_t chosen = 0;
    for (size_t i = 1; i < lanes; ++i)
        if (*innermost(i) > *innermost(chosen)) chosen = i;
    return {chosen, *innermost(chosen)};
}

// The engines with a utilisation counter track, in the trace's order, and
// the track's name ("Vector utilisation (%)").
constexpr Engine kUtilisationEngines[] = {Engine::tensor_matrix, Engine::tensor, Engine::vector,
                                          Engine::scalar,        Engine::gpsimd, Engine::sync};
std::string utilisation_track_name(Engine e);

// "TensorMatrix", "TensorMatrix (2)", ...: the name of lane `lane` (0-based).
std::string lane_name(const std::string& track, int lane);

}  // namespace nx
