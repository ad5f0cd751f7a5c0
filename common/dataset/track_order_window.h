// TrackOrderWindow: a profile's events as they come, let out track by track
// in the order a dataset's events table keeps them (each track's events by
// start time, longer first, lower nesting depth, then arrival: the trace
// spool's order, event_spool.h), so that they are encoded while the profile
// is still being read instead of sorted at its end.
//
// Sources deliver each track nearly in order, not exactly: neuron-profile
// JSON's semaphore and counter rows run up to a few hundred events late on
// a track (the trn2 real sample: 261), a Chrome trace's B/E parent comes
// after its children.  So each track holds its newest events, up to twice
// the window, and lets the older half out, sorted, when it fills: an event
// late by less than the window still comes out in its place.  One later
// than that comes out after events it should precede; the caller sees it
// (it precedes the last event let out on its track) and ends the row group
// there (dataset_sink.cpp).  Memory is bounded: past the budget (what the
// tracks' buffers hold) every track lets out its older half and gives back
// the memory that held it, so one sweep brings the window under its budget;
// and a track holding a quarter of what its buffer grew to gives the rest
// back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/profile/event.h"
#include "common/trace/event_spool.h"

namespace nx {

class TrackOrderWindow {
public:
    // Where the events go, in order within each track: a run of one
    // track's events at a time (rows), or one at a time (row, which rows
    // calls unless overridden).  The events' strings are valid during the
    // call.
    class Target {
    public:
        virtual ~Target() = default;
        virtual void row(const SpooledEvent& e) = 0;
        virtual void rows(const SpooledEvent* events, size_t n) {
            for (size_t k = 0; k < n; ++k) row(events[k]);
        }
    };

    static constexpr size_t kDefaultWindow = 512;
    static constexpr size_t kDefaultBudgetBytes = size_t{16} << 20;

    explicit TrackOrderWindow(Target& target, size_t window = kDefaultWindow,
                              size_t budget_bytes = kDefaultBudgetBytes);

    // `track`: the event's index in the profile's TrackTable.
    void add(const Event& e, uint32_t track);
    // Lets out everything held, track by track (the profile's end).
    void drain();
    // Forgets everything held (an aborted profile, the next one).
    void clear();

    // Whether `a` goes before `b` on their track: the spool's track_order
    // (event_spool.h); arrival breaks ties.
    static bool before(int64_t a_ts, int64_t a_end, int32_t a_depth, int64_t b_ts, int64_t b_end, int32_t b_depth) {
        return track_order(a_ts, a_end, a_depth, b_ts, b_end, b_depth) < 0;
    }

private:
    enum { kName, kOpcode, kHlo, kLayer, kTensor, kArgs, kStrings };
    struct Held {
        int64_t ts = 0, end = 0;
        uint64_t seq = 0;
        int64_t bytes = -1;
        double flops = -1, model_flops = -1, value = 0;
        int32_t depth = 0;
        uint32_t offset = 0;  // of its strings in its track's arena
        uint32_t length[kStrings] = {};
        EventType type = EventType::instruction;
        Engine engine = Engine::none;
        DmaKind dma_kind = DmaKind::unknown;
        bool transpose = false;
    };
    struct Track {
        std::vector<Held> held;
        std::string arena;  // the held events' strings
        bool sorted = true;
        size_t accounted = 0;  // its share of held_bytes_
    };

    // Lets out the track's `n` first events in order, keeps the rest;
    // `release`: and gives back the memory they held (a sweep past the
    // budget), which the arena otherwise keeps for the events to come.  An
    // exception from the target leaves the window unfit for use (the
    // caller abandons the profile).
    void let_out(uint32_t track, size_t n, bool release = false);
    // Counts what the track's vectors hold (their capacity, not their
    // contents: memory a track once grew to counts until it is freed).
    void account(Track& t);

    Target& target_;
    size_t window_, budget_;
    std::vector<Track> tracks_;
    size_t held_bytes_ = 0;  // every track's memory
    uint64_t seq_ = 0;
    std::vector<SpooledEvent> out_;  // the run let out, reused
};

}  // namespace nx
