#include "common/trace/trace_sink.h"

#include "common/io/diag.h"

namespace nx {

namespace {
// Track uuids are the process's uuid plus a small index: processes are this
// far apart.
constexpr int kProcessUuidShift = 32;
}  // namespace

TraceSink::TraceSink(std::unique_ptr<TraceWriter> writer, size_t chunk_bytes)
    : writer_(std::move(writer)), spool_(chunk_bytes) {}

void TraceSink::begin_profile(const ProfileInfo&) {
    spool_.clear();
    flows_.clear();
}

void TraceSink::event(const Event& e) { spool_.add(e); }

// The builder numbers events from 0 in arrival order, as the spool's seq.
void TraceSink::flow(const Flow& f) {
    flows_.push_back({static_cast<uint64_t>(f.from), static_cast<uint64_t>(f.to), f.category, f.name});
}

void TraceSink::abort_profile() {
    spool_.clear();
    flows_.clear();
}

void TraceSink::end_profile(const ProfileInfo& info, const ProfileSummary&) {
    TraceProcess p;
    p.sequence = static_cast<uint32_t>(++profiles_);
    p.pid = profiles_;  // unless a source process of the file has it (TraceIds)
    p.uuid = static_cast<uint64_t>(p.sequence) << kProcessUuidShift;
    p.name = !info.name.empty() ? info.name : info.id;
    if (int64_t merged = spool_.merged_events(); merged > 0)
        print_warning("trace: profile " + p.name + " has more than " + std::to_string(kMaxTraceTracks) +
                      " tracks; the " + std::to_string(merged) + " event" + (merged == 1 ? "" : "s") +
                      " of the further tracks are on the track \"" + kOverflowTrackName +
                      "\", each with its own track's name in a track argument");
    LayoutStats s = lay_out_profile(spool_, p, ids_, flows_, *writer_);
    totals_.slices += s.slices;
    totals_.counter_samples += s.counter_samples;
    totals_.overflow_tracks += s.overflow_tracks;
    totals_.clipped += s.clipped;
    totals_.flows_left_out += s.flows_left_out;
    spool_.clear();
    flows_.clear();
}

void TraceSink::finish() {
    writer_->finish();
    if (totals_.clipped > 0)
        print_note("trace: " + std::to_string(totals_.clipped) + " slice" + (totals_.clipped == 1 ? "" : "s") +
                   " overlapped more than " + std::to_string(kMaxLanes) +
                   " open slices of their row and were clipped to nest (see clipped_dur_ns)");
    if (totals_.flows_left_out > 0)
        print_note("trace: " + std::to_string(totals_.flows_left_out) + " flow" + (totals_.flows_left_out == 1 ? "" : "s") +
                   " end before they start and are left out (viewers pair flows in time order)");
}

}  // namespace nx
