// The interface between the trace layout (which decides tracks, nesting and
// counters, trace_layout.h) and the file formats that write it: Perfetto's
// protobuf (pftrace_sink.h) and Chrome's trace-event JSON
// (chrome_json_sink.h).  Calls arrive in time order per track: a track is
// declared before its first slice or sample, and slice_begin/slice_end pairs
// are properly nested on every track.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/trace/event_spool.h"

namespace nx {

// A process of the trace: each profile's own (pid 1, 2, ... in input order,
// named after the profile) and, for sources that have them (Chrome traces),
// one per source process, with its pid (unless one is taken already) and
// name (empty when the source gives none).
struct TraceProcess {
    uint64_t uuid = 0;
    int32_t pid = 0;
    std::string name;
    uint32_t sequence = 0;  // the profile's index in the file (1, 2, ...)
};

enum class TrackKind : uint8_t { slices, counter };
// What a counter's values count (Perfetto has built-in units for some).
enum class ValueUnit : uint8_t { none, count, bytes };

struct TraceTrack {
    uint64_t uuid = 0;
    uint64_t parent = 0;     // the process's uuid
    int32_t pid = 0;
    int32_t tid = 0;         // unique within the process (Chrome JSON threads)
    // A source thread (its first lane): Perfetto gets a thread descriptor
    // (pid, tid, name) so the trace shows the source's process/thread tree.
    bool thread = false;
    std::string name;
    TrackKind kind = TrackKind::slices;
    int32_t rank = 0;        // display order within the process (lower first)
    ValueUnit unit = ValueUnit::none;
    std::string unit_name;   // counters: "B/s", "%", "transfers"
    // What the track shows: the spool track (EventSpool::tracks() index) of a
    // source row or counter series, -1 for nx's own counters; for slices,
    // which lane of its row (0: the row itself, 1: "<row> (2)" ...).
    int64_t row = -1;
    int32_t lane = 0;
};

// A flow arrow at a slice: it leaves (out) or arrives (in).  Ids are unique
// in the file.
struct FlowEnd {
    uint64_t id = 0;
    bool out = false;
    std::string_view category, name;
};

class TraceWriter {
public:
    virtual ~TraceWriter() = default;
    // Each process before its tracks; a profile's processes share a sequence.
    virtual void begin_process(const TraceProcess& p) = 0;
    virtual void track(const TraceTrack& t) = 0;
    // A slice from e.ts to `end` (e.end, or earlier when the layout clipped it;
    // then `clipped_from_ns` is the original duration, else -1), with the
    // flows that leave or reach it.
    virtual void slice_begin(const TraceTrack& t, const SpooledEvent& e, int64_t end, int64_t clipped_from_ns,
                             std::span<const FlowEnd> flows) = 0;
    virtual void slice_end(const TraceTrack& t, int64_t ts) = 0;
    virtual void counter(const TraceTrack& t, int64_t ts, double value) = 0;
    // The profile is written.
    virtual void end_process() = 0;
    // Everything is written (closing brackets and the like).
    virtual void finish() = 0;
};

}  // namespace nx
