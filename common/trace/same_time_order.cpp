#include "common/trace/same_time_order.h"

#include <algorithm>
#include <map>

namespace nx {

namespace {
constexpr std::string_view SpooledEvent::* kText[7] = {&SpooledEvent::name,      &SpooledEvent::opcode,
                                                      &SpooledEvent::hlo_name,  &SpooledEvent::layer,
                                                      &SpooledEvent::tensor,    &SpooledEvent::args_json,
                                                      &SpooledEvent::merged_track};
}  // namespace

void SameTimeOrder::hold(const SpooledEvent& e) {
    Held& h = held_.emplace_back();
    h.e = e;
    for (int i = 0; i < 7; ++i) {
        std::string_view v = e.*kText[i];
        h.text.append(v);
        h.len[i] = static_cast<uint32_t>(v.size());
    }
    held_bytes_ += h.text.size();
    waiting_.insert(e.seq);
}

SpooledEvent SameTimeOrder::view(const Held& h) {
    SpooledEvent e = h.e;
    size_t at = 0;
    for (int i = 0; i < 7; ++i) {
        e.*kText[i] = std::string_view(h.text).substr(at, h.len[i]);
        at += h.len[i];
    }
    return e;
}

void SameTimeOrder::release(const std::function<void(const SpooledEvent&)>& write) {
    // Each track's events, in the spool's order; tracks in order of their
    // first event.
    std::map<uint32_t, size_t> track_slot;
    std::vector<std::vector<size_t>> queues;
    for (size_t i = 0; i < held_.size(); ++i) {
        auto [it, added] = track_slot.try_emplace(held_[i].e.track, queues.size());
        if (added) queues.emplace_back();
        queues[it->second].push_back(i);
    }
    std::vector<size_t> next(queues.size(), 0);
    auto ready = [&](size_t held) {
        scratch_.clear();
        sources_(held_[held].e.seq, scratch_);
        return std::none_of(scratch_.begin(), scratch_.end(), [&](uint64_t s) { return waiting_.count(s) > 0; });
    };
    for (size_t left = held_.size(); left > 0; --left) {
        size_t pick = queues.size();
        for (size_t q = 0; q < queues.size() && pick == queues.size(); ++q)
            if (next[q] < queues[q].size() && ready(queues[q][next[q]])) pick = q;
        // A cycle (flows both ways between two tracks): the spool's order.
        if (pick == queues.size()) {
            for (size_t q = 0; q < queues.size(); ++q)
                if (next[q] < queues[q].size() &&
                    (pick == queues.size() || queues[q][next[q]] < queues[pick][next[pick]]))
                    pick = q;
        }
        const Held& h = held_[queues[pick][next[pick]++]];
        waiting_.erase(h.e.seq);
        write(view(h));
    }
    held_.clear();
    held_bytes_ = 0;
    waiting_.clear();
}

}  // namespace nx
