#include "common/store/stored_profiles.h"

#include <rapidjson/document.h>

#include <cstring>
#include <map>
#include <filesystem>
#include <fstream>

#include "common/io/error.h"
#include "common/profile/profile_record.h"
#include "common/records/jsonl.h"
#include "common/store/kept_sources.h"

namespace nx {

namespace {

struct StoredProfile {
    int64_t rowid = 0;
    int64_t first_event = 0;
    ProfileInfo info;
};

std::vector<StoredProfile> select_profiles(Store& store, const std::vector<std::string>& names) {
    std::vector<StoredProfile> all;
    SqliteStmt q(store.db(),
                 "SELECT id, uid, name, source, format, backend, target, dtype, rank, first_event_id, record "
                 "FROM profile ORDER BY id");
    while (q.step()) {
        StoredProfile p;
        p.rowid = q.column_int(0);
        // The stored record has the fields carried from the source (Explorer
        // metadata, a capture's workload); the columns say the rest.
        if (!q.column_is_null(10)) {
            rapidjson::Document rec;
            std::string text = q.column_text(10);
            rec.Parse(text.data(), text.size());
            ProfileSummary ignored;
            if (!rec.HasParseError() && rec.IsObject()) read_profile_record(rec, p.info, ignored);
        }
        p.info.id = q.column_text(1);
        p.info.name = q.column_text(2);
        p.info.source = q.column_text(3);
        p.info.format = q.column_text(4);
        p.info.backend = q.column_text(5);
        p.info.target = q.column_text(6);
        p.info.dtype = q.column_text(7);
        p.info.rank = q.column_is_null(8) ? -1 : static_cast<int>(q.column_int(8));
        p.first_event = q.column_int(9);
        all.push_back(std::move(p));
    }
    if (all.empty()) throw Error("a study database with no profiles", store.path());
    if (names.empty()) return all;
    std::vector<StoredProfile> chosen;
    for (const std::string& n : names) {
        size_t before = chosen.size();
        for (const StoredProfile& p : all)
            if (p.info.name == n || p.info.id == n || std::to_string(p.rowid) == n) chosen.push_back(p);
        if (chosen.size() == before) {
            std::string known;
            for (size_t i = 0; i < all.size() && i < 10; ++i) known += (i ? ", " : "") + all[i].info.name;
            throw Error("no profile named '" + n + "' (the database has " + known + (all.size() > 10 ? ", ..." : "") + ")",
                        store.path());
        }
    }
    return chosen;
}

void replay_source_metrics(SqliteDb& db, const StoredProfile& p, ImportHandler& out) {
    SqliteStmt metrics(db, "SELECT name, value FROM metric WHERE profile_id = ? AND origin = 'source' AND value IS NOT NULL");
    metrics.bind(1, p.rowid);
    while (metrics.step()) out.source_metric(metrics.column_text(0), metrics.column_double(1));
}

// A session's executions (the execution table's windows, in their order):
// the profile's breakdown per execution is computed again from the replayed
// events, as the importer's windows were at first.  A database from before
// the table has none.
void replay_executions(SqliteDb& db, const StoredProfile& p, ImportHandler& out) {
    if (!table_exists(db, "main", "execution")) return;
    SqliteStmt executions(db, "SELECT execution_index, neff, start_ns, end_ns FROM execution WHERE profile_id = ? "
                              "ORDER BY ord");
    executions.bind(1, p.rowid);
    while (executions.step())
        out.execution({executions.column_int(0), executions.column_text(1), executions.column_int(2),
                       executions.column_int(3)});
}

// Source tables kept where they are go on as kept sources (a database
// written from this one refers to the same files), checked first: a
// moved source is named now, not after a half-written copy.  Returns
// source_ref.id -> KeptSource::id.
std::map<int64_t, int32_t> replay_kept_sources(SqliteDb& db, const StoredProfile& p, ImportHandler& out) {
    std::map<int64_t, int32_t> kept;
    for (KeptSource& k : stored_kept_sources(db.handle(), p.rowid)) {
        kept[k.id] = static_cast<int32_t>(kept.size());
        k.id = kept[k.id];
        out.kept_source(k);
    }
    return kept;
}

// Events in the order they were stored (the source's), so the flows'
// ordinals (events counted from the profile's first) are their ids less
// the first id.  Returns how many were sent.
int64_t replay_events(SqliteDb& db, const StoredProfile& p, const std::map<int64_t, int32_t>& kept, ImportHandler& out) {
    SqliteStmt events(db,
                      "SELECT e.type, t.engine, t.name, e.ts, e.dur, COALESCE(e.name, e.opcode), e.opcode, h.value, "
                      "l.value, e.bytes, e.flops, e.model_flops, e.dma_kind, e.tensor, " +
                          event_args_sql(db.handle(), "main", "e") + ", e.id, e.transpose, " +
                          (kept.empty() ? std::string("NULL, NULL ") : std::string("e.src_tbl, e.src_row ")) +
                      "FROM event e JOIN track t ON t.id = e.track_id LEFT JOIN string h ON h.id = e.hlo_id "
                      "LEFT JOIN string l ON l.id = e.layer_id WHERE e.profile_id = ? ORDER BY e.id");
    events.bind(1, p.rowid);
    std::string type, engine, track, name, opcode, hlo, layer, dma_kind, tensor, args;
    int64_t emitted = 0;
    while (events.step()) {
        Event e;
        type = events.column_text(0);
        engine = events.column_text(1);
        track = events.column_text(2);
        name = events.column_text(5);
        opcode = events.column_text(6);
        hlo = events.column_text(7);
        layer = events.column_text(8);
        dma_kind = events.column_text(12);
        tensor = events.column_text(13);
        args = events.column_text(14);
        e.type = parse_event_type(type).value_or(EventType::instruction);
        e.engine = parse_engine(engine).value_or(Engine::none);
        e.track = track;
        e.ts_ns = events.column_int(3);
        e.dur_ns = events.column_int(4);
        e.name = name;
        e.opcode = opcode;
        e.hlo_name = hlo;
        e.layer = layer;
        if (!events.column_is_null(9)) e.bytes = events.column_int(9);
        if (!events.column_is_null(10)) e.flops = events.column_double(10);
        if (!events.column_is_null(11)) e.model_flops = events.column_double(11);
        e.dma_kind = parse_dma_kind(dma_kind).value_or(DmaKind::unknown);
        e.tensor = tensor;
        e.args_json = args;
        e.transpose = events.column_int(16) == 1;
        e.line = events.column_int(15);
        if (!events.column_is_null(17)) {
            auto it = kept.find(events.column_int(17));
            if (it != kept.end()) {
                e.src_table = it->second;
                e.src_row = events.column_int(18);
            }
        }
        out.event(e);
        ++emitted;
    }
    return emitted;
}

// The source's counters (nx's own, on tracks of no source row, are
// derived again from the events).
void replay_counters(SqliteDb& db, const StoredProfile& p, ImportHandler& out) {
    // The stored samples (a database older than schema 7 keeps them in
    // `counter`, which is their view since).
    std::string stored = table_exists(db, "main", "counter_sample") ? "counter_sample" : "counter";
    SqliteStmt counters(db, "SELECT c.ts, c.value, t.name, t.engine FROM " + stored +
                                " c JOIN track t ON t.id = c.track_id "
                                "WHERE t.profile_id = ? AND t.row IS NOT NULL ORDER BY c.id");
    counters.bind(1, p.rowid);
    std::string track, engine;
    while (counters.step()) {
        Event e;
        e.type = EventType::counter;
        track = counters.column_text(2);
        engine = counters.column_text(3);
        e.track = track;
        e.engine = parse_engine(engine).value_or(Engine::none);
        e.ts_ns = counters.column_int(0);
        e.value = counters.column_double(1);
        out.event(e);
    }
}

// The source's tables kept where they are: their rows only where the
// handler reads them (the rules' tables, or all for a sink that copies).
void replay_kept_tables(SqliteDb& db, const StoredProfile& p, ImportHandler& out) {
    std::vector<std::pair<std::string, std::string>> carried;  // table, columns
    try {
        SqliteStmt q(db, "SELECT tbl, columns FROM source_ref WHERE profile_id = ? AND kind = 'table' ORDER BY id");
        q.bind(1, p.rowid);
        while (q.step()) carried.emplace_back(q.column_text(0), q.column_text(1));
    } catch (const Error&) {
        // a database from before kept sources
    }
    for (const auto& [tbl, cols] : carried) {
        SourceRows rows;
        rows.table = tbl;
        rows.columns = parse_json_string_array(cols);
        // Its columns only (they name the explorer_<Table> view's), as an importer sends them.
        if (!out.wants_source_rows(tbl)) {
            out.source_rows(rows);
            continue;
        }
        scan_kept_rows(db.handle(), "main", p.rowid, tbl, [&](std::string_view row) {
            rows.rows.emplace_back(row);
            if (rows.rows.size() >= 1024) {
                out.source_rows(rows);
                rows.rows.clear();
            }
        });
        out.source_rows(rows);
    }
}

// The source's tables copied into the database, a batch per table.
void replay_copied_tables(SqliteDb& db, const StoredProfile& p, ImportHandler& out) {
    SqliteStmt tables(db,
                      "SELECT r.tbl, t.columns, r.data FROM source_row r LEFT JOIN source_table t ON t.tbl = r.tbl "
                      "WHERE r.profile_id = ? ORDER BY r.tbl, r.rowid");
    tables.bind(1, p.rowid);
    SourceRows rows;
    auto send_rows = [&] {
        if (!rows.table.empty()) out.source_rows(rows);
        rows = SourceRows{};
    };
    while (tables.step()) {
        std::string tbl = tables.column_text(0);
        if (tbl != rows.table) {
            send_rows();
            rows.table = tbl;
            if (!tables.column_is_null(1)) rows.columns = parse_json_string_array(tables.column_text(1));
        }
        rows.rows.push_back(tables.column_text(2));
    }
    send_rows();
}

// The flows between the `emitted` events sent, by their ordinals.
void replay_flows(SqliteDb& db, const StoredProfile& p, int64_t emitted, ImportHandler& out) {
    SqliteStmt flows(db,
                     "SELECT flow_id, category, name, from_event_id, to_event_id FROM event_flow "
                     "WHERE profile_id = ? ORDER BY id");
    flows.bind(1, p.rowid);
    while (flows.step()) {
        Flow f;
        f.id = flows.column_text(0);
        f.category = flows.column_text(1);
        f.name = flows.column_text(2);
        f.from = flows.column_int(3) - p.first_event;
        f.to = flows.column_int(4) - p.first_event;
        if (f.from < 0 || f.to < 0 || f.from >= emitted || f.to >= emitted) continue;
        out.flow(f);
    }
}

// A stored profile sent to `out` as an importer sends one: its source
// metrics, executions, kept sources, events, counters, source tables (some metrics
// and rules read Explorer's TensorInfo, Throttle...) and flows.
void replay(Store& store, const StoredProfile& p, ImportHandler& out) {
    SqliteDb& db = store.db();
    out.begin_profile(p.info);
    replay_source_metrics(db, p, out);
    replay_executions(db, p, out);
    const std::map<int64_t, int32_t> kept = replay_kept_sources(db, p, out);
    const int64_t emitted = replay_events(db, p, kept, out);
    replay_counters(db, p, out);
    replay_kept_tables(db, p, out);
    replay_copied_tables(db, p, out);
    replay_flows(db, p, emitted, out);
    out.end_profile();
}

}  // namespace

void replay_stored_profiles(Store& store, const std::vector<std::string>& names, ImportHandler& out) {
    for (const StoredProfile& p : select_profiles(store, names)) replay(store, p, out);
}

bool is_study_database(const std::string& path) {
    // Only a regular file can be a database, and only a regular file can be
    // read twice: sniffing a pipe (nx-report <(nx-query ...), /dev/stdin)
    // would eat the first bytes of the records it carries.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    std::ifstream f(path, std::ios::binary);
    char magic[16] = {};
    return f.read(magic, sizeof magic) && std::memcmp(magic, "SQLite format 3", 16) == 0;
}

}  // namespace nx
