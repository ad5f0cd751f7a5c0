// TrackTable: a profile's tracks (rows and counters), each given an index in
// the order it first came.  A row of the source ("TensorMatrix", "qSyncIO0",
// "mem_usage") is a track; counter samples and slices with the same name are
// different tracks.  The trace spool (event_spool.h) and the dataset writer
// (dataset/dataset_sink.h) both number events' tracks this way.
//
// The table keeps a few hundred bytes per distinct track, so their number is
// capped: a profile's first kMaxTraceTracks tracks are kept as they are, and
// every further track's events share one slice track, kOverflowTrackName.
// Memory is then flat in the number of tracks (a 500k-track profile takes
// what a 16k-track one does).  No real profile comes near the cap (a Neuron
// core has a few dozen rows and DMA queues).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/io/string_hash.h"
#include "common/profile/event.h"

namespace nx {

// Distinct tracks (rows and counters) kept per profile; see above.
constexpr size_t kMaxTraceTracks = 16384;
inline constexpr const char* kOverflowTrackName = "(other tracks)";

struct ProfileTrack {
    std::string name;
    Engine engine = Engine::none;  // of its first event
    bool counter = false;
    int64_t events = 0;            // counted by the table's user (count())
    bool active = false;           // holds the profiler's busy intervals (EventType::active)
    // The source's process and thread (Event::pid, tid, process) of its
    // first event.
    int64_t pid = kNoId;
    int64_t tid = kNoId;
    std::string process;
    bool merged = false;  // the overflow track (kOverflowTrackName) of the tracks past the cap
};

class TrackTable {
public:
    static constexpr uint32_t kNoTrack = UINT32_MAX;

    // The index of the event's track, registered when new (past
    // kMaxTraceTracks, the overflow track's).
    uint32_t track_of(const Event& e);
    void count(uint32_t track) { ++tracks_[track].events; }
    bool overflow(uint32_t track) const { return track == overflow_track_; }
    const std::vector<ProfileTrack>& tracks() const { return tracks_; }
    void clear();

private:
    // Looked up by the event's row name as it is (a string_view): no key
    // is built per event.
    using Ids = std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>>;
    std::vector<ProfileTrack> tracks_;
    Ids slice_ids_, counter_ids_;  // by name: a counter and a slice row may share one
    uint32_t overflow_track_ = kNoTrack;
};

}  // namespace nx
