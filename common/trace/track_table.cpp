#include "common/trace/track_table.h"

namespace nx {

void TrackTable::clear() {
    tracks_.clear();
    track_ids_.clear();
    overflow_track_ = kNoTrack;
}

uint32_t TrackTable::track_of(const Event& e) {
    track_key(e, key_);
    auto it = track_ids_.find(key_);
    if (it != track_ids_.end()) return it->second;
    if (track_ids_.size() >= kMaxTraceTracks) {
        // Past the cap: nothing more is remembered per track.
        if (overflow_track_ == kNoTrack) {
            overflow_track_ = static_cast<uint32_t>(tracks_.size());
            tracks_.push_back({kOverflowTrackName, Engine::none, false, 0, false, kNoId, kNoId, {}, true});
        }
        return overflow_track_;
    }
    auto id = static_cast<uint32_t>(tracks_.size());
    tracks_.push_back({key_.substr(1), e.engine, e.type == EventType::counter, 0, e.type == EventType::active, e.pid,
                       e.tid, std::string(e.process), false});
    track_ids_.emplace(key_, id);
    return id;
}

}  // namespace nx
