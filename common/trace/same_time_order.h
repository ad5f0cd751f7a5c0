// The order in which the trace layout writes the slices that start at one
// time, when a profile has flows.
//
// Perfetto pairs a flow's ids in the order it reads them (a terminating id
// before its flow's start is dropped), and so does a viewer reading Chrome
// JSON in file order.  The spool orders events of equal start by duration,
// depth and arrival, which can put a flow's destination first: PyTorch's
// cudaStreamSynchronize and the stream's "Stream Sync" it waits for often
// have the same timestamp.  So the layout holds the events of one timestamp
// here and writes them track by track in their own order, taking next the
// first track whose next event has no flow arriving from a slice still held.
// Each track keeps its order, so nesting is unchanged; only events of
// different tracks, all starting at one time, are reordered.
//
// Memory is bounded: at most kMaxHeld events, and kMaxHeldBytes of their
// strings, are held; a larger group is written in parts, and a flow split
// across two parts is left out as one going back in time (trace_layout.h
// counts them).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/trace/event_spool.h"

namespace nx {

class SameTimeOrder {
public:
    static constexpr size_t kMaxHeld = 4096;
    static constexpr size_t kMaxHeldBytes = size_t{16} << 20;

    // `sources(seq, out)`: appends the seqs of the slices whose flows arrive at
    // event `seq`.
    explicit SameTimeOrder(std::function<void(uint64_t, std::vector<uint64_t>&)> sources)
        : sources_(std::move(sources)) {}

    // True when `e` can join the held events (same start, room left).
    bool fits(const SpooledEvent& e) const {
        return held_.empty() || (e.ts == held_.front().e.ts && held_.size() < kMaxHeld && held_bytes_ < kMaxHeldBytes);
    }
    // Copies `e` (its strings too).
    void hold(const SpooledEvent& e);
    bool empty() const { return held_.empty(); }
    // Calls `write` for every held event in the order above, then forgets them.
    void release(const std::function<void(const SpooledEvent&)>& write);

private:
    struct Held {
        SpooledEvent e;     // string views are rebuilt from `text` when written
        std::string text;
        uint32_t len[7] = {};
    };
    static SpooledEvent view(const Held& h);

    std::function<void(uint64_t, std::vector<uint64_t>&)> sources_;
    std::vector<Held> held_;
    size_t held_bytes_ = 0;
    std::vector<uint64_t> scratch_;
    std::unordered_set<uint64_t> waiting_;  // seqs held and not written yet
};

}  // namespace nx
