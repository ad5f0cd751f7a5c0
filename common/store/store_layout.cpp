#include "common/store/store_layout.h"

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "common/io/record_sorter.h"
#include "common/trace/trace_counters.h"
#include "common/trace/trace_layout.h"
#include "common/trace/trace_writer.h"

namespace nx {

namespace {

// An overflow lane's track: ?1 its name, ?2 its row's track.id (DbSink
// makes a placed profile's lanes with the same columns).
constexpr const char* kInsertLaneTrack =
    "INSERT INTO track(profile_id, name, engine, kind, row)"
    " SELECT profile_id, ?1, engine, kind, COALESCE(row, name) FROM track WHERE id = ?2";

// Rows inserted kBatchRows to a statement (insert_rows_sql, sqlite_db.h):
// for rows this small (a counter sample), SQLite's cost per statement
// outweighs its cost per row.
class BatchInsert {
public:
    static constexpr int kBatchRows = 64;

    // `table_columns`: "counter_sample(ts, track_id, value)"; values are integers,
    // reals or NULL.
    BatchInsert(SqliteDb& db, const std::string& table_columns, int columns)
        : columns_(columns),
          one_(db, insert_rows_sql(table_columns, columns, 1)),
          batch_(db, insert_rows_sql(table_columns, columns, kBatchRows)) {
        cells_.reserve(static_cast<size_t>(columns * kBatchRows));
    }

    struct Cell {
        enum Kind : uint8_t { null, integer, real } kind = null;
        int64_t i = 0;
        double d = 0;
    };
    static Cell integer(int64_t v) { return {Cell::integer, v, 0}; }
    static Cell real(double v) { return {Cell::real, 0, v}; }
    static Cell integer_or_null(int64_t v) { return v != 0 ? integer(v) : Cell{}; }

    void add(std::initializer_list<Cell> row) {
        cells_.insert(cells_.end(), row.begin(), row.end());
        if (cells_.size() == static_cast<size_t>(columns_ * kBatchRows)) {
            run(batch_, 0, cells_.size());
            cells_.clear();
        }
    }
    void flush() {
        auto n = static_cast<size_t>(columns_);
        for (size_t at = 0; at < cells_.size(); at += n) run(one_, at, at + n);
        cells_.clear();
    }

private:
    void run(SqliteStmt& st, size_t from, size_t to) {
        int i = 1;
        for (size_t c = from; c < to; ++c, ++i) {
            const Cell& v = cells_[c];
            if (v.kind == Cell::integer) st.bind(i, v.i);
            else if (v.kind == Cell::real) st.bind(i, v.d);
            else st.bind_null(i);
        }
        st.run();
    }

    int columns_;
    SqliteStmt one_, batch_;
    std::vector<Cell> cells_;
};

class StoreWriter : public TraceWriter {
public:
    StoreWriter(SqliteDb& db, int64_t profile_id, const std::vector<int64_t>& row_tracks, SlicesPlaced placed)
        : db_(db),
          profile_id_(profile_id),
          row_tracks_(row_tracks),
          placed_(placed == SlicesPlaced::yes),
          insert_lane_(db, kInsertLaneTrack),
          insert_counter_track_(db,
                                "INSERT INTO track(profile_id, name, engine, kind, row)"
                                " VALUES (?, ?, NULL, 'counter', NULL)"),
          samples_(db, "counter_sample(ts, track_id, value)", 3),
          placements_(db, "slice_layout(id, track_id, depth, parent_id)", 4),
          by_id_(kPlacementRunBytes, "slice layout") {}

    void begin_process(const TraceProcess&) override {}

    void track(const TraceTrack& t) override {
        Track& s = at(t);
        auto index = static_cast<size_t>(t.row);
        int64_t row = t.row >= 0 && index < row_tracks_.size() ? row_tracks_[index] : 0;
        if (t.kind == TrackKind::slices) {
            // A track the database does not have: its events stay as they
            // are.  Slices placed already: their lanes are there.
            if (row == 0 || placed_) return;
            s.id = row;
            if (t.lane > 0) {
                insert_lane_.bind(1, std::string_view(t.name)).bind(2, row).run();
                s.id = db_.last_insert_rowid();
                s.lane = true;
            }
        } else if (t.row >= 0) {
            s.id = row;  // the source's counter: its samples are loaded already
        } else {
            insert_counter_track_.bind(1, profile_id_).bind(2, std::string_view(t.name)).run();
            s.id = db_.last_insert_rowid();
            // The DMA counters' samples are computed when asked
            // (dma_counters(), dma_series.h), not stored.
            s.derived = t.name != kDmaThroughputTrack && t.name != kDmaPendingTrack;
        }
    }

    // Flows are in the database already (event_flow).
    void slice_begin(const TraceTrack& t, const SpooledEvent& e, int64_t, int64_t, std::span<const FlowEnd>) override {
        if (placed_) return;
        Track& s = at(t);
        // A slice the database does not place (its track is not there, or
        // the trace merged it onto "(other tracks)") still takes its place
        // on the lane, as 0, so the slices inside it keep the trace's depth.
        bool placed = s.id != 0 && e.merged_track.empty();
        int64_t parent = s.open.empty() ? 0 : s.open.back();
        auto depth = static_cast<int64_t>(s.open.size());
        s.open.push_back(placed ? e.ref : 0);
        if (!placed || (depth == 0 && !s.lane)) return;
        by_id_.add({e.ref, s.id, depth, parent});
    }

    void slice_end(const TraceTrack& t, int64_t) override {
        Track& s = at(t);
        if (!s.open.empty()) s.open.pop_back();
    }

    void counter(const TraceTrack& t, int64_t ts, double value) override {
        Track& s = at(t);
        if (!s.derived) return;
        samples_.add({BatchInsert::integer(ts), BatchInsert::integer(s.id), BatchInsert::real(value)});
    }

    void end_process() override {
        samples_.flush();
        using B = BatchInsert;
        by_id_.drain([&](const Placement& p) {
            placements_.add({B::integer(p.id), B::integer(p.track), B::integer(p.depth), B::integer_or_null(p.parent)});
        });
        placements_.flush();
    }
    void finish() override {}

private:
    struct Track {
        int64_t id = 0;        // track.id; 0: not in the database
        bool lane = false;     // an overflow lane: its slices are placed on it
        bool derived = false;  // nx's counter: its samples are inserted here
        std::vector<int64_t> open;  // event ids of the open slices, innermost last
    };

    // A slice placed: its event id, lane (track.id), depth and parent's id (0: none).
    struct Placement {
        int64_t id, track, depth, parent;
        int64_t key() const { return id; }
    };
    // The layout places slices in time order; the ids of a profile's events
    // are in time order per source table (an Explorer profile's instructions,
    // then its DMA packets), so its rows go in sorted by id (record_sorter.h).
    static constexpr size_t kPlacementRunBytes = size_t{4} << 20;

    SqliteDb& db_;
    int64_t profile_id_;
    const std::vector<int64_t>& row_tracks_;
    bool placed_;
    SqliteStmt insert_lane_, insert_counter_track_;
    BatchInsert samples_, placements_;
    RecordSorter<Placement> by_id_;
    // By uuid: the layout numbers a profile's tracks 1, 2, ... from the
    // process's uuid (0 here).
    std::vector<Track> tracks_;
    Track& at(const TraceTrack& t) {
        if (t.uuid >= tracks_.size()) tracks_.resize(t.uuid + 1);
        return tracks_[t.uuid];
    }
};

}  // namespace

void store_utilisation(SqliteDb& db, int64_t profile_id, EngineBusy& busy, int64_t start, int64_t end, bool dma) {
    std::vector<int64_t> no_rows;
    StoreWriter writer(db, profile_id, no_rows, SlicesPlaced::yes);
    uint64_t uuid = 0;
    if (dma) {
        for (std::string_view name : {kDmaThroughputTrack, kDmaPendingTrack}) {
            TraceTrack t;
            t.uuid = ++uuid;
            t.kind = TrackKind::counter;
            t.name = std::string(name);
            writer.track(t);
        }
    }
    UtilisationBins bins(start, end);
    for (Engine eng : kUtilisationEngines) {
        // TensorMatrix folded into the profiler's Tensor intervals counts
        // only profiler intervals of its own (its instructions are Tensor's).
        if (busy.row(eng) != eng && busy.origin(eng) != BusyOrigin::profiler) continue;
        busy.busy(eng).for_each([&](const Interval& iv) { bins.add(eng, iv.begin, iv.end); });
    }
    for (Engine eng : kUtilisationEngines) {
        if (!bins.busy(eng)) continue;
        TraceTrack t;
        t.uuid = ++uuid;
        t.kind = TrackKind::counter;
        t.name = utilisation_track_name(eng);
        writer.track(t);
        bins.write(eng, writer, t);
    }
    writer.end_process();
}

void lay_out_in_store(SqliteDb& db, int64_t profile_id, EventSpool& spool, const std::vector<TraceFlow>& flows,
                      const std::vector<int64_t>& row_tracks, SlicesPlaced placed) {
    StoreWriter writer(db, profile_id, row_tracks, placed);
    // Process and thread ids matter to the trace file only.
    TraceIds ids;
    lay_out_profile(spool, TraceProcess{}, ids, flows, writer);
}

}  // namespace nx
