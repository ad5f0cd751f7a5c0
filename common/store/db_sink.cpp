// DbSink: loads profiles (events, tracks, counters, flows, source rows,
// metrics) and runs into a Store, in one transaction with a savepoint per
// profile, and lays each profile out as its trace would be drawn.
#include "common/store/db_sink.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <ctime>
#include <optional>

#include "common/io/error.h"
#include "common/profile/metric_defs.h"
#include "common/profile/profile_record.h"
#include "common/records/jsonl.h"
#include "common/store/described_tables.h"
#include "common/store/engine_intervals.h"
#include "common/store/kept_sources.h"
#include "common/store/store_layout.h"
#include "common/trace/trace_layout.h"

namespace nx {

namespace {

std::string now_iso8601() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace

struct DbSink::Statements {
    explicit Statements(SqliteDb& db)
        : insert_counter(db, "INSERT INTO counter_sample(ts, track_id, value) VALUES (?,?,?)"),
          insert_track(db, "INSERT INTO track(id, profile_id, name, engine, kind, row) VALUES (?,?,?,?,?,?)"),
          find_string(db, "SELECT id FROM string WHERE value = ?"),
          insert_string(db, "INSERT INTO string(value) VALUES (?)"),
          insert_metric(db, "INSERT OR REPLACE INTO metric(profile_id, name, value, unit, origin) VALUES (?,?,?,?,?)"),
          insert_flow(db, "INSERT INTO event_flow(profile_id, flow_id, from_event_id, to_event_id, category, name)"
                          " VALUES (?,?,?,?,?,?)") {}
    SqliteStmt insert_counter, insert_track, find_string, insert_string, insert_metric, insert_flow;
};

DbSink::DbSink(Store& store, bool copy_sources)
    : store_(store), copy_sources_(copy_sources), st_(std::make_unique<Statements>(store.db())),
      event_rows_(store.db(), source_), layout_(kLayoutChunkBytes) {}

DbSink::~DbSink() {
    st_.reset();
    if (in_transaction_) sqlite3_exec(store_.db().handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void DbSink::delete_profile(const std::string& uid) {
    SqliteDb& db = store_.db();
    SqliteStmt find(db, "SELECT id, first_event_id, last_event_id FROM profile WHERE uid = ?");
    find.bind(1, std::string_view(uid));
    if (!find.step()) return;
    int64_t id = find.column_int(0);
    if (!find.column_is_null(1) && !find.column_is_null(2)) {
        // A profile's events have contiguous ids: delete by rowid range (their
        // slice_layout rows have the same ids).
        SqliteStmt del(db, "DELETE FROM event WHERE id BETWEEN ? AND ? AND profile_id = ?");
        del.bind(1, find.column_int(1)).bind(2, find.column_int(2)).bind(3, id).run();
        SqliteStmt del_layout(db, "DELETE FROM slice_layout WHERE id BETWEEN ? AND ?");
        del_layout.bind(1, find.column_int(1)).bind(2, find.column_int(2)).run();
    } else {
        SqliteStmt del(db, "DELETE FROM event WHERE profile_id = ?");
        del.bind(1, id).run();
    }
    for (const char* sql : {"DELETE FROM counter_sample WHERE track_id IN (SELECT id FROM track WHERE profile_id = ?1)",
                            "DELETE FROM source_row WHERE profile_id = ?1",
                            "DELETE FROM source_file WHERE ref_id IN (SELECT id FROM source_ref WHERE profile_id = ?1)",
                            "DELETE FROM source_ref WHERE profile_id = ?1",
                            "DELETE FROM engine_stat WHERE profile_id = ?1",
                            "DELETE FROM execution WHERE profile_id = ?1",
                            "DELETE FROM event_flow WHERE profile_id = ?1",
                            "DELETE FROM track WHERE profile_id = ?1", "DELETE FROM metric WHERE profile_id = ?1",
                            "DELETE FROM profile WHERE id = ?1"}) {
        SqliteStmt del(db, sql);
        del.bind(1, id).run();
    }
}

void DbSink::ensure_transaction() {
    if (in_transaction_) return;
    store_.db().exec("BEGIN IMMEDIATE");
    in_transaction_ = true;
}

bool DbSink::append_run(const RunRow& r) {
    ensure_transaction();
    SqliteStmt ins(store_.db(),
                   "INSERT OR IGNORE INTO run(study, name, op, backend, target, dtype, started_at, host,"
                   " latency_median_us, latency_mean_us, latency_min_us, latency_max_us, latency_p95_us,"
                   " latency_stdev_us, iterations, compile_ms, tflops, record) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    // The identity columns are bound as text even when empty: the unique
    // index treats NULLs as all different, and a re-import must not add rows.
    const std::string* text[] = {&r.study, &r.name, &r.op, &r.backend, &r.target, &r.dtype, &r.started_at, &r.host};
    for (int i = 0; i < 8; ++i) ins.bind(i + 1, std::string_view(*text[i]));
    int col = 9;
    for (const std::optional<double>* v : {&r.median, &r.mean, &r.min, &r.max, &r.p95, &r.stdev}) {
        if (*v) ins.bind(col, **v);
        else ins.bind_null(col);
        ++col;
    }
    if (r.n) ins.bind(15, static_cast<int64_t>(*r.n)); else ins.bind_null(15);
    if (r.compile_ms) ins.bind(16, *r.compile_ms); else ins.bind_null(16);
    if (r.tflops) ins.bind(17, *r.tflops); else ins.bind_null(17);
    ins.bind(18, std::string_view(r.record));
    ins.step();
    bool added = sqlite3_changes(store_.db().handle()) > 0;
    ins.reset();
    return added;
}

void DbSink::begin_profile(const ProfileInfo& info) {
    SqliteDb& db = store_.db();
    ensure_transaction();
    db.exec("SAVEPOINT nx_profile");
    in_profile_ = true;
    source_ = info.source == "-" ? "<stdin>" : info.source;
    delete_profile(info.id);
    // The ids SQLite would give the rows (end_profile writes them).
    SqliteStmt next(db, "SELECT (SELECT coalesce(max(id), 0) + 1 FROM profile), (SELECT coalesce(max(id), 0) + 1 FROM track)");
    next.step();
    profile_rowid_ = next.column_int(0);
    first_track_id_ = next.column_int(1);
    pending_tracks_.clear();
    profile_uid_ = info.id;
    imported_at_ = now_iso8601();
    first_event_ = last_event_ = 0;
    tracks_.clear();
    last_track_key_.clear();
    last_track_ = {};
    layout_.clear();
    layout_flows_.clear();
    placer_.clear();
    placing_ = true;
    event_index_ = 0;
    lane_tracks_.clear();
    busy_as_layout_ = true;
    spooling_ = always_spool_;
    unspooled_any_ = false;
    unspooled_start_ = unspooled_end_ = 0;
    unspooled_runs_.clear();
    first_counter_ = last_counter_ = 0;
    kept_refs_.clear();
    kept_tables_.clear();
    busy_ = std::make_unique<EngineBusy>();
}

DbSink::TrackIds DbSink::track_id(const Event& e) {
    // Tracks are named and told apart as the trace layout does (event.h), so
    // the layout's rows are the database's tracks.
    track_key(e, key_);
    // Consecutive events usually share a track: skip the hash lookup then.
    if (last_track_.id != 0 && key_ == last_track_key_) return last_track_;
    auto it = tracks_.find(key_);
    TrackIds ids;
    if (it != tracks_.end()) {
        ids = it->second;
    } else {
        std::string name(event_track(e));
        ids.id = add_track({name, std::string(to_string(e.engine)), std::string(to_string(e.type)), name});
        ids.layout = layout_.track_of(e);
        ids.engine = e.engine;
        tracks_.emplace(key_, ids);
    }
    last_track_key_ = key_;
    last_track_ = ids;
    return ids;
}

int64_t DbSink::add_track(PendingTrack t) {
    pending_tracks_.push_back(std::move(t));
    return first_track_id_ + static_cast<int64_t>(pending_tracks_.size()) - 1;
}

void DbSink::write_tracks() {
    SqliteStmt& ins = st_->insert_track;
    for (size_t i = 0; i < pending_tracks_.size(); ++i) {
        const PendingTrack& t = pending_tracks_[i];
        if (t.dropped) continue;
        ins.bind(1, first_track_id_ + static_cast<int64_t>(i)).bind(2, profile_rowid_).bind(3, std::string_view(t.name));
        ins.bind_text_or_null(4, t.engine).bind(5, std::string_view(t.kind)).bind_text_or_null(6, t.row);
        ins.run();
    }
    pending_tracks_.clear();
}

void DbSink::spool_for_layout(const Event& e, int64_t id, uint32_t track) {
    // What the layout reads (trace_layout.cpp): times, track, type, engine,
    // the source's nesting (order of equal starts), process and thread,
    // opcode (engine busy time), bytes (DMA throughput) and a counter's value.
    Event lean;
    lean.type = e.type;
    lean.engine = e.engine;
    lean.track = e.track;
    lean.ts_ns = e.ts_ns;
    lean.dur_ns = e.dur_ns;
    lean.depth = e.depth;
    lean.pid = e.pid;
    lean.tid = e.tid;
    lean.process = e.process;
    lean.opcode = e.opcode;
    lean.bytes = e.bytes;
    lean.value = e.value;
    lean.line = e.line;
    layout_.add(lean, id, track);
}

bool DbSink::rebuildable(const Event& e, const TrackIds& track) const {
    // A merged track's record carries its own track's name.
    if (e.depth != 0 || e.engine != track.engine || layout_.tracks()[track.layout].merged) return false;
    // A counter row keeps its time, track and value; REAL keeps neither
    // -0.0 (0.0 comes back) nor NaN (NULL).
    if (e.type == EventType::counter)
        return e.bytes == -1 && e.opcode.empty() && !std::isnan(e.value) &&
               std::bit_cast<uint64_t>(e.value) != std::bit_cast<uint64_t>(-0.0);
    // An event row keeps bytes >= 0 (else NULL: -1 again) and no value.
    return std::bit_cast<uint64_t>(e.value) == 0 && e.bytes >= -1;
}

void DbSink::note_span(int64_t ts, int64_t end) {
    // As the spool's start_ns() and end_ns() (EventSpool::add).
    unspooled_start_ = unspooled_any_ ? std::min(unspooled_start_, ts) : ts;
    unspooled_end_ = unspooled_any_ ? std::max(unspooled_end_, end) : end;
    unspooled_any_ = true;
}

void DbSink::note_arrival(bool counter) {
    // Runs alternate, events first: an odd count of runs ends with events.
    bool last_is_counter = unspooled_runs_.size() % 2 == 0;
    if (unspooled_runs_.empty() || last_is_counter != counter) {
        if (unspooled_runs_.empty() && counter) unspooled_runs_.push_back(0);
        unspooled_runs_.push_back(0);
    }
    ++unspooled_runs_.back();
}

void DbSink::start_spooling() {
    if (spooling_) return;
    flush_events();
    // Each of the profile's tracks by its id: its spool index and engine.
    // (Its pending tracks may be written already: the layout comes last.)
    std::vector<const TrackIds*> by_id;
    for (const auto& [key, ids] : tracks_) {
        auto at = static_cast<size_t>(ids.id - first_track_id_);
        if (at >= by_id.size()) by_id.resize(at + 1, nullptr);
        by_id[at] = &ids;
    }
    auto track_of_row = [&](int64_t track_id) {
        const TrackIds* t = track_id >= first_track_id_ && track_id - first_track_id_ < static_cast<int64_t>(by_id.size())
                                ? by_id[static_cast<size_t>(track_id - first_track_id_)]
                                : nullptr;
        if (!t) throw Error("internal: a row of the profile is on a track it did not make");
        return t;
    };
    // Both kinds of rows in the order they came (rebuildable() held for
    // each), as spool_for_layout took them.
    SqliteStmt events(store_.db(), "SELECT id, track_id, type, ts, dur, opcode, bytes FROM event"
                                   " WHERE id BETWEEN ? AND ? ORDER BY id");
    events.bind(1, first_event_).bind(2, last_event_);
    SqliteStmt counters(store_.db(), "SELECT ts, track_id, value FROM counter_sample WHERE id BETWEEN ? AND ? ORDER BY id");
    counters.bind(1, first_counter_).bind(2, last_counter_);
    for (size_t run = 0; run < unspooled_runs_.size(); ++run) {
        const bool counter = run % 2 == 1;
        SqliteStmt& rows = counter ? counters : events;
        for (int64_t k = 0; k < unspooled_runs_[run]; ++k) {
            if (!rows.step()) throw Error("internal: the profile's rows are fewer than its events");
            // Both statements give the track in column 1.
            const TrackIds* track = track_of_row(rows.column_int(1));
            Event lean;
            lean.engine = track->engine;
            if (counter) {
                lean.type = EventType::counter;
                lean.ts_ns = rows.column_int(0);
                lean.value = rows.column_double(2);
                layout_.add(lean, 0, track->layout);
                continue;
            }
            std::optional<EventType> type = parse_event_type(rows.column_text(2));
            if (!type) throw Error("internal: an event row of the profile has no type of its own");
            std::string opcode = rows.column_is_null(5) ? std::string() : rows.column_text(5);
            lean.type = *type;
            lean.ts_ns = rows.column_int(3);
            lean.dur_ns = rows.column_int(4);
            lean.opcode = opcode;
            lean.bytes = rows.column_is_null(6) ? -1 : rows.column_int(6);
            layout_.add(lean, rows.column_int(0), track->layout);
        }
    }
    if (events.step() || counters.step()) throw Error("internal: the profile's rows are more than its events");
    unspooled_runs_.clear();
    spooling_ = true;
}

void DbSink::place(const Event& e, const TrackIds& track, EventRowIds& ids) {
    // The overflow track past the layout's cap on rows takes slices of many
    // rows, which the database keeps on their own tracks: laid out at the end.
    if (layout_.tracks()[track.layout].merged) {
        stop_placing();
        return;
    }
    LanePlacer::Placement p;
    if (!placer_.place(track.layout, e.ts_ns, event_end(e.ts_ns, e.dur_ns), event_index_, p)) {
        stop_placing();
        return;
    }
    if (p.lane > 0) ids.lane = lane_track(track, p.lane);
    ids.depth = p.depth;
    if (p.parent >= 0) ids.parent_back = event_index_ - p.parent;
}

int64_t DbSink::lane_track(const TrackIds& track, size_t lane) {
    if (lane_tracks_.size() <= track.layout) lane_tracks_.resize(track.layout + 1);
    std::vector<int64_t>& lanes = lane_tracks_[track.layout];
    if (lane > lanes.size()) {
        // Named and kept as the layout's StoreWriter makes an overflow lane
        // (store_layout.cpp, kInsertLaneTrack): the row's engine and kind,
        // track.row its row.
        const PendingTrack& row = pending_tracks_.at(static_cast<size_t>(track.id - first_track_id_));
        std::string name = lane_name(layout_.tracks()[track.layout].name, static_cast<int>(lane));
        lanes.push_back(add_track({name, row.engine, row.kind, row.row.empty() ? row.name : row.row}));
    }
    return lanes[lane - 1];
}

void DbSink::stop_placing() {
    placing_ = false;
    flush_events();
    SqliteDb& db = store_.db();
    if (first_event_ != 0) {
        SqliteStmt undo(db, "UPDATE event SET depth = NULL, lane_id = NULL, parent_back = NULL"
                            " WHERE id BETWEEN ? AND ? AND (depth IS NOT NULL OR lane_id IS NOT NULL)");
        undo.bind(1, first_event_).bind(2, last_event_).run();
    }
    for (const auto& lanes : lane_tracks_)
        for (int64_t id : lanes) pending_tracks_.at(static_cast<size_t>(id - first_track_id_)).dropped = true;
    lane_tracks_.clear();
    placer_.clear();
}

void DbSink::check_caps() {
    // What the layout caps across rows, placing slices as they came did not
    // (lane_placer.h): past them, the layout of the whole profile decides.
    if (!placing_) return;
    size_t lanes = placer_.overflow_lanes();
    bool merged = false;
    for (const EventSpool::Track& t : layout_.tracks()) {
        if (!t.counter) ++lanes;
        merged = merged || t.merged;
    }
    if (merged || lanes > kMaxLaneTracks) stop_placing();
}

void DbSink::lay_out() {
    if (placing_ && busy_as_layout_ && busy_) {
        // Only the utilisation counters are left to store.
        int64_t start = spooling_ ? layout_.start_ns() : unspooled_start_;
        int64_t end = spooling_ ? layout_.end_ns() : unspooled_end_;
        bool dma = std::any_of(layout_.tracks().begin(), layout_.tracks().end(),
                               [](const EventSpool::Track& t) { return !t.counter && t.engine == Engine::dma; });
        store_utilisation(store_.db(), profile_rowid_, *busy_, start, end, dma);
    } else {
        start_spooling();
        // The database track of each of the layout's rows (none for the
        // overflow track of the tracks past its cap).
        std::vector<int64_t> rows(layout_.tracks().size(), 0);
        for (const auto& [key, ids] : tracks_)
            if (ids.layout < rows.size() && !layout_.tracks()[ids.layout].merged) rows[ids.layout] = ids.id;
        lay_out_in_store(store_.db(), profile_rowid_, layout_, layout_flows_, rows,
                         placing_ ? SlicesPlaced::yes : SlicesPlaced::no);
    }
    layout_.clear();
    layout_flows_.clear();
}

int64_t DbSink::string_id(std::string_view s) {
    auto it = strings_.find(s);
    if (it != strings_.end()) return it->second;
    SqliteStmt& find = st_->find_string;
    find.bind(1, s);
    int64_t id;
    if (find.step()) {
        id = find.column_int(0);
        find.reset();
    } else {
        find.reset();
        st_->insert_string.bind(1, s).run();
        id = store_.db().last_insert_rowid();
    }
    // Bounded: a pathological input with millions of distinct names still
    // loads, it just looks them up in the database.
    if (strings_.size() < 1000000) strings_.emplace(std::string(s), id);
    return id;
}

void DbSink::kept_source(const KeptSource& k) {
    if (copy_sources_ || k.id < 0) return;
    SqliteDb& db = store_.db();
    // Stamped now: a later change to the file is then seen when it is read.
    std::vector<FileStamp> stamps;
    for (const std::string& f : k.files) stamps.push_back(stamp_file(f));
    std::string columns = json_string_array(k.columns);
    SqliteStmt ref(db, "INSERT INTO source_ref(profile_id, tbl, kind, columns, rows) VALUES (?,?,?,?,?)");
    ref.bind(1, profile_rowid_).bind(2, std::string_view(k.table)).bind(3, std::string_view(k.events ? "events" : "table"));
    ref.bind(4, std::string_view(columns)).bind(5, k.rows).run();
    int64_t id = db.last_insert_rowid();
    SqliteStmt file(db, "INSERT INTO source_file(ref_id, part, path, bytes, mtime_ns) VALUES (?,?,?,?,?)");
    for (size_t i = 0; i < stamps.size(); ++i) {
        file.bind(1, id).bind(2, static_cast<int64_t>(i)).bind(3, std::string_view(stamps[i].path));
        file.bind(4, stamps[i].bytes).bind(5, stamps[i].mtime_ns).run();
    }
    if (kept_refs_.size() <= static_cast<size_t>(k.id)) kept_refs_.resize(static_cast<size_t>(k.id) + 1, 0);
    kept_refs_[static_cast<size_t>(k.id)] = id;
    if (!k.events) kept_tables_.push_back(k.table);
}

void DbSink::source_rows(const SourceRows& r) {
    SqliteDb& db = store_.db();
    // The table's columns: those known already, then this batch's new ones.
    std::vector<std::string> cols;
    {
        SqliteStmt q(db, "SELECT columns FROM source_table WHERE tbl = ?");
        q.bind(1, std::string_view(r.table));
        if (q.step()) cols = parse_json_string_array(q.column_text(0));
    }
    size_t known = cols.size();
    for (const std::string& c : r.columns)
        if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
    if (cols.size() != known || known == 0) {
        std::string json = json_string_array(cols);
        SqliteStmt up(db, "INSERT OR REPLACE INTO source_table(tbl, columns) VALUES (?, ?)");
        up.bind(1, std::string_view(r.table)).bind(2, std::string_view(json)).run();
    }
    // A table kept where it is: its columns (the explorer_<Table> view's) only.
    if (std::find(kept_tables_.begin(), kept_tables_.end(), r.table) != kept_tables_.end()) return;
    SqliteStmt ins(db, "INSERT INTO source_row(profile_id, tbl, data) VALUES (?, ?, ?)");
    for (const std::string& row : r.rows) {
        ins.bind(1, profile_rowid_).bind(2, std::string_view(r.table)).bind(3, std::string_view(row));
        ins.run();
    }
}

void DbSink::event(const Event& e) {
    TrackIds track = track_id(e);
    if (!spooling_ && (!rebuildable(e, track) || unspooled_runs_.size() >= kMaxUnspooledRuns)) start_spooling();
    if (e.type == EventType::counter) {
        // The layout spool takes events in the order they came.
        flush_events();
        sqlite3_stmt* c = st_->insert_counter.handle();
        sqlite3_bind_int64(c, 1, e.ts_ns);
        sqlite3_bind_int64(c, 2, track.id);
        sqlite3_bind_double(c, 3, e.value);
        if (sqlite3_step(c) != SQLITE_DONE) store_.db().fail("cannot insert counter");
        sqlite3_reset(c);
        if (spooling_) {
            spool_for_layout(e, 0, track.layout);
        } else {
            last_counter_ = store_.db().last_insert_rowid();
            if (first_counter_ == 0) first_counter_ = last_counter_;
            note_arrival(true);
            note_span(e.ts_ns, e.ts_ns);  // a counter's record ends where it starts
        }
        return;
    }
    EventRowIds ids;
    ids.profile = profile_rowid_;
    ids.track = track.id;
    auto interned = [&](std::string_view v, std::string& last, int64_t& last_id) -> int64_t {
        if (v.empty()) return 0;
        if (last_id == 0 || v != last) {
            last_id = string_id(v);
            last.assign(v);
        }
        return last_id;
    };
    ids.hlo = interned(e.hlo_name, last_hlo_, last_hlo_id_);
    ids.layer = interned(e.layer, last_layer_, last_layer_id_);
    // An event whose source row is kept in place stores where it is, not
    // its args (source_args() reads them from there).
    ids.src_ref = e.src_table >= 0 && static_cast<size_t>(e.src_table) < kept_refs_.size()
                      ? kept_refs_[static_cast<size_t>(e.src_table)] : 0;
    if (placing_) place(e, track, ids);
    if (e.engine != track.engine || (e.type == EventType::dma && is_compute_engine(e.engine)) ||
        (e.type == EventType::active && !layout_.tracks()[track.layout].active))
        busy_as_layout_ = false;
    ++event_index_;
    if (!spooling_) note_arrival(false);
    ids.tag = static_cast<uint32_t>(queued_tracks_.size());
    queued_tracks_.push_back(track);
    if (event_rows_.add(e, ids)) flush_events();
}

void DbSink::flush_events() {
    event_rows_.flush([&](const Event& e, int64_t id, uint32_t tag) {
        const TrackIds& track = queued_tracks_[tag];
        // As engine_summary() scans them: by the track's engine.
        if (busy_ && track.engine != Engine::none) busy_->add(e.type, track.engine, e.ts_ns, e.dur_ns, e.opcode);
        // A profile's rows take consecutive ids (flows and parent_back count on it).
        if (first_event_ == 0) first_event_ = id;
        else if (id != last_event_ + 1) throw Error("internal: the profile's event ids are not consecutive");
        last_event_ = id;
        if (spooling_) {
            spool_for_layout(e, id, track.layout);
        } else {
            note_span(e.ts_ns, event_end(e.ts_ns, e.dur_ns));
        }
    });
    queued_tracks_.clear();
}

void DbSink::flow(const Flow& f) {
    flush_events();
    // A profile's events have contiguous ids from its first one, and the
    // builder says where each end is among them (Flow::from_slice).
    if (first_event_ == 0 || f.from_slice < 0 || f.to_slice < 0 || first_event_ + f.from_slice > last_event_ ||
        first_event_ + f.to_slice > last_event_)
        throw Error("internal: flow " + f.id + " between events the database does not hold");
    SqliteStmt& ins = st_->insert_flow;
    ins.bind(1, profile_rowid_).bind(2, std::string_view(f.id));
    ins.bind(3, first_event_ + f.from_slice).bind(4, first_event_ + f.to_slice);
    ins.bind_text_or_null(5, f.category).bind_text_or_null(6, f.name);
    ins.run();
    layout_flows_.push_back({static_cast<uint64_t>(f.from), static_cast<uint64_t>(f.to), f.category, f.name});
}

void DbSink::end_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    // A profile that cannot be ended leaves nothing: its savepoint is rolled
    // back here, since no abort_profile() follows a failed end.
    try {
        write_profile(info, summary);
    } catch (...) {
        abort_profile();
        throw;
    }
}

void DbSink::write_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    SqliteDb& db = store_.db();
    flush_events();
    check_caps();    // may take back the lanes made: before they are written
    write_tracks();  // before the layout: its lanes copy their row's track
    lay_out();
    std::string record = profile_record_json(info, summary);
    SqliteStmt ins(db, "INSERT INTO profile(id, uid, name, source, format, backend, target, dtype, rank, start_ns,"
                       " end_ns, event_count, first_event_id, last_event_id, imported_at, record)"
                       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    ins.bind(1, profile_rowid_)
        .bind(2, std::string_view(profile_uid_))
        .bind(3, std::string_view(info.name))
        .bind(4, std::string_view(info.source))
        .bind(5, std::string_view(info.format))
        .bind_text_or_null(6, info.backend)
        .bind_text_or_null(7, info.target)
        .bind_text_or_null(8, info.dtype);
    if (info.rank >= 0) ins.bind(9, info.rank); else ins.bind_null(9);
    ins.bind(10, summary.start_ns).bind(11, summary.end_ns).bind(12, summary.events);
    if (first_event_ > 0) ins.bind(13, first_event_).bind(14, last_event_);
    else ins.bind_null(13).bind_null(14);
    ins.bind(15, std::string_view(imported_at_)).bind(16, std::string_view(record));
    ins.run();
    SqliteStmt& m = st_->insert_metric;
    for (const MetricValue& mv : summary.metrics) {
        m.bind(1, profile_rowid_).bind(2, std::string_view(mv.name)).bind(3, mv.value);
        m.bind_text_or_null(4, metric_unit(mv.name));
        m.bind(5, std::string_view(mv.measured ? "source" : "derived"));
        m.run();
    }
    // A figure the source does not have is a NULL, never a number; the
    // reason is in the profile record's "unavailable_metrics".
    for (const UnavailableMetric& u : summary.unavailable) {
        m.bind(1, profile_rowid_).bind(2, std::string_view(u.name)).bind_null(3);
        m.bind_text_or_null(4, metric_unit(u.name));
        m.bind(5, std::string_view("unavailable"));
        m.run();
    }
    if (busy_) {
        insert_engine_stats(db, profile_rowid_, engine_summary_rows(*busy_));
        busy_.reset();
    }
    insert_executions(db, profile_rowid_, summary.executions);
    db.exec("RELEASE nx_profile");
    in_profile_ = false;
}

void DbSink::abort_profile() {
    if (!in_profile_) return;
    SqliteDb& db = store_.db();
    db.exec("ROLLBACK TO nx_profile");
    db.exec("RELEASE nx_profile");
    in_profile_ = false;
    event_rows_.clear();
    queued_tracks_.clear();
    layout_.clear();
    layout_flows_.clear();
    placer_.clear();
    lane_tracks_.clear();
    pending_tracks_.clear();
    busy_.reset();
    // Ids cached for this profile's strings may have been rolled back.
    strings_.clear();
    last_hlo_id_ = last_layer_id_ = 0;
}

void DbSink::finish() {
    if (!in_transaction_) return;
    store_.db().exec("COMMIT");
    in_transaction_ = false;
}

}  // namespace nx
