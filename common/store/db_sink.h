// DbSink, the ProfileSink that loads profiles and runs into a study database
// transactionally: a failed or interrupted load leaves the database as it was.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/io/string_hash.h"
#include "common/profile/engine_busy.h"
#include "common/profile/profile_sink.h"
#include "common/workload/run_record.h"
#include "common/store/event_rows.h"
#include "common/store/store.h"
#include "common/trace/event_spool.h"
#include "common/trace/lane_placer.h"

namespace nx {

struct TraceFlow;  // trace/trace_layout.h (not included: the sink needs only the name)

// Loads profiles into a Store.  All profiles of one DbSink go into one
// transaction, committed by finish(); each profile is a savepoint that
// abort_profile() rolls back (nx-convert --keep-going).  Destroyed without
// finish(), it rolls everything back.  Events are inserted as they come,
// 32 rows to a statement (event_rows.h), and spooled.  Each slice's place
// in the profile's trace (lane, nesting, parent) goes into its own row,
// worked out as it arrives (lane_placer.h), while each row's slices come
// in start order; a profile that breaks that is laid out when it ends
// instead, into slice_layout, with nx's counter tracks (store_layout.h).
// A placed profile's counters come from the engines' busy intervals
// (store_utilisation), so it needs no spool: its events are spooled only
// when the layout reads them, or from an event whose record its row cannot
// give back on (start_spooling), those before rebuilt from their rows.
//
// Source tables that can be read again where they are (KeptSource: Neuron
// Explorer's Parquet) are referred to, not copied: their events keep their
// row (event.src_tbl, src_row) instead of args, carried tables only their
// files (source_ref, source_file; kept_sources.h reads them back).  With
// `copy_sources` every row is copied instead (a source about to go away).
class DbSink : public ProfileSink {
public:
    explicit DbSink(Store& store, bool copy_sources = false);
    ~DbSink() override;

    void begin_profile(const ProfileInfo& info) override;
    void event(const Event& e) override;
    void source_rows(const SourceRows& rows) override;
    void kept_source(const KeptSource& k) override;
    bool copies_source_rows() const override { return copy_sources_; }
    bool wants_kept_args() const override { return copy_sources_; }
    void flow(const Flow& f) override;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;
    void abort_profile() override;
    void finish() override;
    // For tests: the layout spool takes every event from the start, as it
    // did before a placed profile went without one.  A load gives the same
    // database either way.
    void spool_every_event() { always_spool_ = true; }
    // Appends a run to the run history, in this sink's transaction.  The
    // same run (study, name, backend, target, start, host) is kept once.
    // Returns false when it was already there.
    bool append_run(const RunRow& run);

private:
    struct Statements;
    void ensure_transaction();
    struct TrackIds {
        int64_t id = 0;       // track.id
        uint32_t layout = 0;  // the layout spool's track index (EventSpool::track_of)
        Engine engine = Engine::none;  // the track's (engine_summary counts by it)
    };
    TrackIds track_id(const Event& e);
    // Inserts the queued event rows, then sums, counts and (while
    // spooling_) spools each.
    void flush_events();
    void spool_for_layout(const Event& e, int64_t id, uint32_t track);
    // Whether the spool record of `e` can be made again from its event or
    // counter row (spool_for_layout's fields: the row's own, its track's
    // engine, the order of the rows); a source nesting depth, a value on a
    // slice, an engine not its track's, a counter's -0.0 or NaN (SQLite
    // keeps neither) cannot.
    bool rebuildable(const Event& e, const TrackIds& track) const;
    // From here on the profile's events go into the layout spool; those
    // inserted before are spooled from their rows first, in their order.
    void start_spooling();
    // Sets `ids`' place in the trace for slice `e` of `track`, or stops
    // placing (the profile is laid out at its end).
    void place(const Event& e, const TrackIds& track, EventRowIds& ids);
    // The track.id of `track`'s overflow lane `lane` (>= 1), made when new.
    int64_t lane_track(const TrackIds& track, size_t lane);
    // Takes back the places given so far: the rows and lanes they made.
    void stop_placing();
    // Stops placing when the profile went past what the trace keeps
    // (rows, lanes); then the layout of the whole profile places it.
    void check_caps();
    void lay_out();
    // end_profile's rows: the profile, its metrics and engine stats.
    void write_profile(const ProfileInfo& info, const ProfileSummary& summary);
    int64_t string_id(std::string_view s);
    void delete_profile(const std::string& uid);

    Store& store_;
    bool copy_sources_ = false;
    std::unique_ptr<Statements> st_;
    // The profile's kept sources: source_ref.id by KeptSource::id (0: not
    // kept), and the carried tables among them (their rows are not copied).
    std::vector<int64_t> kept_refs_;
    // engine_summary()'s sums, kept as the events go in (engine_stat).
    std::unique_ptr<EngineBusy> busy_;
    std::vector<std::string> kept_tables_;
    bool in_transaction_ = false;
    bool in_profile_ = false;
    // The profile's row and its tracks are written when it ends, with the
    // ids they were given as it began and as its events came.  A page the
    // load writes early, that SQLite's cache then spills to the WAL and the
    // load writes again, is rewritten in place, and the commit then reads
    // the WAL back from that frame on to checksum it again: a second pass
    // over the whole load (187 MB for a million events).
    int64_t profile_rowid_ = 0;
    std::string profile_uid_, imported_at_;
    struct PendingTrack {
        std::string name, engine, kind, row;  // engine and row: empty is NULL
        bool dropped = false;                 // a lane placing took back
    };
    std::vector<PendingTrack> pending_tracks_;  // ids first_track_id_ on
    int64_t first_track_id_ = 0;
    int64_t add_track(PendingTrack t);
    void write_tracks();
    // The profile's input, named in errors about its events: they surface on
    // the database thread, maybe after the importer has moved on.
    std::string source_;
    EventRows event_rows_;
    std::vector<TrackIds> queued_tracks_;  // the queued rows' tracks (their tag)
    int64_t first_event_ = 0, last_event_ = 0;
    // By track_key (event.h), built in a reused string: a track change
    // (interleaved engines and queues) costs no allocation.
    std::unordered_map<std::string, TrackIds, StringHash, std::equal_to<>> tracks_;
    std::string key_, last_track_key_;
    TrackIds last_track_;
    // The profile's events as the layout reads them (store_layout.h), in a
    // smaller chunk than a trace's: the database has its own cache to keep;
    // and its flows (they order slices that start together).
    static constexpr size_t kLayoutChunkBytes = size_t{4} << 20;
    EventSpool layout_;
    std::vector<TraceFlow> layout_flows_;
    // Whether layout_ holds the profile's events (else only its tracks):
    // from an event that could not be spooled from its row on, or from when
    // the layout reads them (lay_out), those before rebuilt from the rows.
    // Until then the span of the events is kept here (the utilisation
    // counters' bounds).
    bool spooling_ = false, always_spool_ = false;
    int64_t unspooled_start_ = 0, unspooled_end_ = 0;
    bool unspooled_any_ = false;
    // The order events and counters came in until then: the lengths of
    // their alternating runs, events first (a run may be empty).  Bounded:
    // past kMaxUnspooledRuns the profile is spooled from there on.
    static constexpr size_t kMaxUnspooledRuns = size_t{1} << 16;
    std::vector<int64_t> unspooled_runs_;
    void note_arrival(bool counter);
    void note_span(int64_t ts, int64_t end);
    int64_t first_counter_ = 0, last_counter_ = 0;  // the profile's counter rows
    // Slices placed as they arrive, while placing_: their keys are their
    // index among the profile's event rows (ids are contiguous, so a
    // parent's id is the row's id minus the gap), and each layout row's
    // overflow lanes made so far (track.id, lane 1 first).
    LanePlacer placer_;
    bool placing_ = true;
    int64_t event_index_ = 0;
    std::vector<std::vector<int64_t>> lane_tracks_;
    // Every event's engine is its track's, and every profiler interval is
    // on a track of them: busy_ then holds the layout's utilisation
    // intervals, and a placed profile's counters come from it
    // (store_utilisation) instead of a layout pass.
    bool busy_as_layout_ = true;
    std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>> strings_;
    // Consecutive events usually repeat their HLO name and layer.
    std::string last_hlo_, last_layer_;
    int64_t last_hlo_id_ = 0, last_layer_id_ = 0;
};

}  // namespace nx
