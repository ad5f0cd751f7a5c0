// TraceSink: the ProfileSink behind `nx-convert --to pftrace|chrome-json`.
// It spools each profile's events (event_spool.h: bounded memory, sorted
// runs on disk for big profiles), and when the profile ends lays it out as
// one process (trace_layout.h) through a TraceWriter that knows the file
// format.  An aborted profile writes nothing.
#pragma once

#include <memory>

#include "common/profile/profile_sink.h"
#include "common/trace/event_spool.h"
#include "common/trace/trace_layout.h"
#include "common/trace/trace_writer.h"

namespace nx {

class TraceSink : public ProfileSink {
public:
    explicit TraceSink(std::unique_ptr<TraceWriter> writer, size_t chunk_bytes = EventSpool::kDefaultChunkBytes);

    void begin_profile(const ProfileInfo& info) override;
    void event(const Event& e) override;
    void flow(const Flow& f) override;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;
    void abort_profile() override;
    // Ends the file and notes on stderr what the layout had to change.
    void finish() override;

    const LayoutStats& totals() const { return totals_; }
    int profiles() const { return profiles_; }

private:
    std::unique_ptr<TraceWriter> writer_;
    EventSpool spool_;
    std::vector<TraceFlow> flows_;  // the profile's
    TraceIds ids_;                  // pids and tids of the file so far
    LayoutStats totals_;
    int profiles_ = 0;
};

}  // namespace nx
