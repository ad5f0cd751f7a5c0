#include "common/trace/track_table.h"

namespace nx {

void TrackTable::clear() {
    tracks_.clear();
    slice_ids_.clear();
    counter_ids_.clear();
    overflow_track_ = kNoTrack;
}

uint32_t TrackTable::track_of(const Event& e) {
    const bool counter = e.type == EventType::counter;
    Ids& ids = counter ? counter_ids_ : slice_ids_;
    std::string_view name = event_track(e);
    auto it = ids.find(name);
    if (it != ids.end()) return it->second;
    if (slice_ids_.size() + counter_ids_.size() >= kMaxTraceTracks) {
        // Past the cap: nothing more is remembered per track.
        if (overflow_track_ == kNoTrack) {
            overflow_track_ = static_cast<uint32_t>(tracks_.size());
            tracks_.push_back({kOverflowTrackName, Engine::none, false, 0, false, kNoId, kNoId, {}, true});
        }
        return overflow_track_;
    }
    auto id = static_cast<uint32_t>(tracks_.size());
    tracks_.push_back({std::string(name), e.engine, counter, 0, e.type == EventType::active, e.pid, e.tid,
                       std::string(e.process), false});
    ids.emplace(std::string(name), id);
    return id;
}

}  // namespace nx
