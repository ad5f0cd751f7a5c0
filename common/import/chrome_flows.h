// Chrome trace flow events (the arrows from a kernel launch to its kernel)
// bound to slices and paired into flows, for the Chrome importer.
//
// Binding follows the Trace Event Format: a flow start ("s") binds to the
// slice enclosing it on its thread; a step or end ("t", "f") to the next
// slice that begins on its thread, or with bp "e" to the enclosing one.
// nx decides it by time, as the source's timestamps say (the trace
// viewers' reading of a file sorted by time):
//   enclosing: among the thread's slices with start <= ts <= end, the one
//     that starts last, then the innermost (the shorter); between slices
//     equal in both, the last one written before the point, else the first
//     one written after it;
//   next: among slices that start after ts (or at ts and written after the
//     point), the one that starts first, then the outermost, then the first
//     written.
// Version 2 flows (a slice's bind_id with flow_in/flow_out) bind to that
// slice.  Points of one flow id are then taken in time order: a start opens
// a flow, each step adds an arrow from the previous slice and moves on, an
// end adds the last arrow and closes it.
//
// The flow events are collected by the importer's first pass; the import
// pass shows every slice to the binder, which keeps each point's best slice
// so far, so no slice is stored.  Memory is about 150 bytes per flow event
// (a Kineto trace has two per kernel launch), whatever the number of slices.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/import/chrome_records.h"
#include "common/profile/profile_sink.h"

namespace nx::chrome {

class FlowBinder {
public:
    using Thread = int32_t;
    static constexpr Thread kNoThread = -1;

    // First pass: a flow event at `ts` (ns) on thread `thread_key`;
    // `record` is the record's index in the file.
    void add_point(const std::string& thread_key, int64_t ts, int64_t record, const FlowPoint& p);
    // Between the passes.
    void prepare();
    // The thread's flow events (kNoThread: it has none).
    Thread thread(const std::string& thread_key) const;

    // Import pass: a slice [start, end] of `thread` from record `record`
    // (a B/E slice's: its B), sent as the profile's event `ordinal`.
    void slice(Thread thread, int64_t start, int64_t end, int64_t record, int64_t ordinal);
    // A slice's own (version 2) flow point.
    void bound(const FlowPoint& p, int64_t ts, int64_t record, int64_t ordinal);

    struct Counts {
        int64_t points = 0;         // flow events and slices' flow fields
        int64_t flows = 0;          // arrows sent
        int64_t unbound = 0;        // points with no slice to bind to
        int64_t without_start = 0;  // steps and ends of no open flow
        int64_t without_end = 0;    // flows started and never ended
    };
    // Pairs the points and sends the flows to `out`.
    Counts finish(ImportHandler& out);

private:
    struct Candidate {
        int64_t start = 0, end = 0, record = 0;
        int64_t ordinal = -1;  // -1: none yet
    };
    struct Point {
        int64_t ts = 0, record = 0;
        uint32_t flow = 0;  // index into flows_
        FlowPoint::Role role = FlowPoint::start;
        uint8_t order = 0;  // among the points of one record (a slice's flow_in before its flow_out)
        Candidate best;
    };
    struct ThreadPoints {
        std::vector<uint32_t> enclosing, next;  // indices into points_, by (ts, record)
    };
    // A flow: its id, and its scope's index (scopes_ has the category and
    // name).  Kept small: there is one per flow of the trace.
    struct FlowInfo {
        std::string id;
        uint32_t scope = 0;
    };
    struct FlowKey {
        uint32_t scope;
        std::string id;
        bool operator==(const FlowKey& o) const { return scope == o.scope && id == o.id; }
    };
    struct FlowKeyHash {
        size_t operator()(const FlowKey& k) const { return std::hash<std::string>()(k.id) * 31 + k.scope; }
    };
    struct Scope {
        std::string category, name;
    };
    uint32_t flow_index(const FlowPoint& p);
    static bool better_enclosing(const Candidate& c, const Candidate& best, int64_t point_record);
    static bool better_next(const Candidate& c, const Candidate& best);

    std::vector<Point> points_;
    std::unordered_map<std::string, Thread> thread_ids_;
    std::vector<ThreadPoints> threads_;
    std::unordered_map<std::string, uint32_t> scope_ids_;
    std::vector<Scope> scopes_;
    std::unordered_map<FlowKey, uint32_t, FlowKeyHash> flow_ids_;
    std::vector<FlowInfo> flows_;
};

}  // namespace nx::chrome
