// The counter tracks nx adds to a trace, computed while the layout streams a
// profile's events in start order (trace_layout.cpp):
//   DMA throughput  bytes/s of the transfers in flight, each spread evenly
//                   over its duration (whole bytes/s, steps at every start
//                   and end)
//   DMA pending     transfers in flight (exact steps)
//   <engine> utilisation  percent of each time bin the engine was busy (the
//                   union of its instructions, as in the report's metrics)
// Memory is the transfers in flight plus a fixed number of bins per engine.
#pragma once

#include <array>
#include <cstdint>
#include <queue>
#include <string_view>
#include <vector>

#include "common/profile/event.h"
#include "common/trace/trace_writer.h"

namespace nx {

// The names of nx's DMA counter tracks (a source may have a series of the
// same name: theirs have a source row, these do not).
inline constexpr std::string_view kDmaThroughputTrack = "DMA throughput (B/s)";
inline constexpr std::string_view kDmaPendingTrack = "DMA pending transfers";

// A counter that changes in steps: writes one sample per timestamp, and only
// when the value changed.
class StepCounter {
public:
    StepCounter(TraceWriter& w, const TraceTrack& t) : writer_(w), track_(t) {}
    // Times must not decrease.
    void set(int64_t ts, double value);
    void finish();

private:
    TraceWriter& writer_;
    TraceTrack track_;
    bool have_pending_ = false, have_written_ = false;
    int64_t pending_ts_ = 0;
    double pending_ = 0, written_ = 0;
};

class DmaCounters {
public:
    DmaCounters(TraceWriter& w, const TraceTrack& throughput, const TraceTrack& pending)
        : throughput_(w, throughput), pending_(w, pending) {}
    // Ends the transfers finished by `ts`; call before transfer() at `ts`.
    void advance_to(int64_t ts);
    // A transfer [begin, end) of `bytes` (-1: unknown, counts as pending only).
    void transfer(int64_t begin, int64_t end, int64_t bytes);
    void finish();

private:
    struct InFlight {
        int64_t end;
        __int128 rate;  // bytes/s
        bool operator>(const InFlight& o) const { return end > o.end; }
    };
    void changed(int64_t ts);

    StepCounter throughput_, pending_;
    std::priority_queue<InFlight, std::vector<InFlight>, std::greater<>> in_flight_;
    __int128 rate_ = 0;  // bytes/s of the transfers in flight, exact
};

class UtilisationBins {
public:
    static constexpr int kBins = 200;

    // Bins cover [start, end); at most one bin per nanosecond.
    UtilisationBins(int64_t start, int64_t end);
    // One instruction; per engine, calls come in start order.
    void add(Engine e, int64_t begin, int64_t end);
    // Engines that had any busy time.
    bool busy(Engine e);
    // Writes the engine's samples (a bin equal to the one before adds none; 0 at the end).
    void write(Engine e, TraceWriter& w, const TraceTrack& t);

private:
    struct Engine_ {
        bool have = false;
        int64_t begin = 0, end = 0;  // the current merged busy interval
        std::vector<double> busy_ns;
    };
    void commit(Engine_& s);

    int64_t start_, end_, width_;
    int bins_;
    std::array<Engine_, kEngineCount> engines_;
};

}  // namespace nx
