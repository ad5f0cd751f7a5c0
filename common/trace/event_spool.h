// EventSpool: a profile's events, read back in time order in bounded memory.
//
// Trace writers need every track's slices in start order (Perfetto's
// begin/end pairs must nest), but importers deliver events in source order:
// neuron-profile JSON lists all instructions before all DMA transfers, Chrome
// traces and simulator output are only roughly sorted.  The spool copies each
// event into a compact record in a bounded in-memory chunk; a full chunk is
// sorted and spilled to an unlinked temporary file as one run, and the Reader
// k-way merges the runs (plus the last chunk, still in memory).  Memory is
// the chunk plus read buffers sharing one chunk's size (at least 16 KiB per
// run), whatever the number of events; a small profile never touches the
// disk.
//
// Order: start time, then longer events first (so a parent precedes the
// children that start with it), then lower nesting depth (Event::depth: a
// Chrome B/E parent, which arrives after its children, still comes first),
// then arrival order (deterministic output: the source's order for X events).
// So two zero-duration slices at one time keep their order, and neither
// contains the other (trace_layout.h).
//
// Tracks: numbered by a TrackTable (track_table.h), capped at
// kMaxTraceTracks: the events of every further track go to one slice track,
// kOverflowTrackName, each carrying its own track's name
// (SpooledEvent::merged_track; counter samples become slices with their
// value); merged_events() says how many events were moved, and the trace
// sink warns.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/event.h"
#include "common/trace/track_table.h"

namespace nx {

// An event's place on its track, the order above without arrival: earlier
// start, then longer (end: start + duration), then the one the source nests
// outside (lower depth).  Negative when a goes first, positive when b does,
// 0 when only arrival can tell them apart.
inline int track_order(int64_t ts_a, int64_t end_a, int32_t depth_a, int64_t ts_b, int64_t end_b, int32_t depth_b) {
    if (ts_a != ts_b) return ts_a < ts_b ? -1 : 1;
    if (end_a != end_b) return end_a > end_b ? -1 : 1;
    if (depth_a != depth_b) return depth_a < depth_b ? -1 : 1;
    return 0;
}

// One event as read back.  Strings are views valid until the Reader's next
// call to next().
struct SpooledEvent {
    int64_t ts = 0;
    int64_t end = 0;      // ts + duration (negative durations read as 0)
    uint64_t seq = 0;     // arrival order within the profile
    int64_t ref = 0;      // what the caller gave add() (the study database: the event's row id)
    EventType type = EventType::instruction;
    Engine engine = Engine::none;
    DmaKind dma_kind = DmaKind::unknown;
    bool transpose = false;
    uint32_t track = 0;   // index into EventSpool::tracks()
    int32_t depth = 0;    // Event::depth
    int64_t bytes = -1;
    double flops = -1;
    double model_flops = -1;
    double value = 0;
    std::string_view name, opcode, hlo_name, layer, tensor, args_json;
    // Past kMaxTraceTracks: the track this event came from (it is on the
    // overflow track); empty otherwise.
    std::string_view merged_track;

    int64_t dur() const { return end - ts; }
};

class EventSpool {
public:
    static constexpr size_t kDefaultChunkBytes = size_t{16} << 20;

    using Track = ProfileTrack;

    // time: the order above (traces).  track_then_time: each track's events
    // together, tracks in the order they first came, each in the order
    // above (a dataset's events: row groups that prune by track and time).
    enum class Order { time, track_then_time };
    // `chunk_bytes`: how much to hold in memory before spilling a sorted run
    // (tests pass small values to exercise the merge).
    explicit EventSpool(size_t chunk_bytes = kDefaultChunkBytes, Order order = Order::time);
    EventSpool(const EventSpool&) = delete;
    EventSpool& operator=(const EventSpool&) = delete;
    ~EventSpool();

    static constexpr uint32_t kNoTrack = TrackTable::kNoTrack;
    // The index of the event's track in tracks(), registered when new (past
    // kMaxTraceTracks, the overflow track's).  A caller that keeps it per
    // track passes it to add(), saving a lookup per event.
    uint32_t track_of(const Event& e);
    // `ref` comes back with the event (SpooledEvent::ref); `track` is
    // track_of(e), or kNoTrack to have it looked up.
    void add(const Event& e, int64_t ref = 0, uint32_t track = kNoTrack);
    // Forgets everything (the next profile, or an aborted one).
    void clear();

    const std::vector<Track>& tracks() const { return tracks_.tracks(); }
    int64_t count() const { return count_; }
    // Time span of all events (0, 0 when empty).
    int64_t start_ns() const { return count_ ? min_ts_ : 0; }
    int64_t end_ns() const { return count_ ? max_end_ : 0; }
    size_t runs() const { return runs_.size(); }
    // Events moved to the overflow track (their own track was past the cap).
    int64_t merged_events() const { return merged_events_; }

    // Reads every event back in order.  Add nothing while a Reader is alive.
    class Reader {
    public:
        explicit Reader(EventSpool& spool);
        ~Reader();
        Reader(const Reader&) = delete;
        Reader& operator=(const Reader&) = delete;
        bool next(SpooledEvent& out);

    private:
        struct State;
        std::unique_ptr<State> state_;
    };

private:
    struct Key {
        int64_t ts;
        int64_t end;
        uint64_t seq;
        size_t offset;  // of the record in chunk_
        int32_t depth;
        uint32_t major;  // the track in track order, else 0
    };
    struct Run {
        long offset;  // in the spill file
        long bytes;
    };
    void sort_chunk();
    void spill_chunk();

    size_t chunk_limit_;
    bool by_track_;
    std::string chunk_;
    std::vector<Key> keys_;
    bool keys_sorted_ = true;
    bool arrival_order_ = true;  // keys_ (sorted or not) still in chunk_ order
    std::FILE* spill_ = nullptr;
    std::vector<Run> runs_;
    TrackTable tracks_;
    std::string key_;
    int64_t merged_events_ = 0;
    std::string merged_;  // the merged track name of the event being added
    int64_t count_ = 0;
    int64_t min_ts_ = 0, max_end_ = 0;
};

}  // namespace nx
