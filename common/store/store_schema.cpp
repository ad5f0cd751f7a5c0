#include "common/store/store_schema.h"

#include "common/store/described_tables.h"
#include "common/trace/trace_counters.h"

#include <stdexcept>
#include <string>

namespace nx {

const std::string_view kSchemaTables = R"SQL(
CREATE TABLE IF NOT EXISTS meta(
    key   TEXT PRIMARY KEY,
    value TEXT
) WITHOUT ROWID;

-- One row per profile.  uid is stable for a source, so re-importing replaces.
-- Events of a profile are inserted in one transaction and so have contiguous
-- ids: first_event_id..last_event_id lets queries scan one profile by rowid.
CREATE TABLE IF NOT EXISTS profile(
    id             INTEGER PRIMARY KEY,
    uid            TEXT NOT NULL UNIQUE,
    name           TEXT,
    source         TEXT,
    format         TEXT,
    backend        TEXT,
    target         TEXT,
    dtype          TEXT,
    rank           INTEGER,
    start_ns       INTEGER,
    end_ns         INTEGER,
    event_count    INTEGER,
    first_event_id INTEGER,
    last_event_id  INTEGER,
    imported_at    TEXT,
    record         TEXT     -- the profile record as JSON (workload fields, engines, notes)
);

CREATE TABLE IF NOT EXISTS metric(
    profile_id INTEGER NOT NULL,
    name       TEXT NOT NULL,
    value      REAL,
    unit       TEXT,
    origin     TEXT,        -- 'source' (reported by the profile), 'derived' (computed by nx), or
                            -- 'unavailable' (value NULL: the profile has the field, not the figure)
    PRIMARY KEY(profile_id, name)
) WITHOUT ROWID;

-- One row per track of the profile's trace (trace_layout.h): each source row
-- and counter series, each overflow lane of a row ("TensorMatrix (2)"), and
-- nx's counters (DMA throughput, DMA pending, per-engine utilisation).
CREATE TABLE IF NOT EXISTS track(
    id         INTEGER PRIMARY KEY,
    profile_id INTEGER NOT NULL,
    name       TEXT NOT NULL,
    engine     TEXT,        -- tensor, tensor_matrix, vector, scalar, gpsimd, sync, dma, host
    kind       TEXT,        -- instruction, dma, semaphore, counter, runtime, region
    row        TEXT         -- the source row it shows (its own name, or an overflow lane's row); NULL: nx's counters
);
CREATE INDEX IF NOT EXISTS track_by_profile ON track(profile_id);

-- Long, repeated strings (HLO names, layers) are stored once.
CREATE TABLE IF NOT EXISTS string(
    id    INTEGER PRIMARY KEY,
    value TEXT NOT NULL UNIQUE
);

CREATE TABLE IF NOT EXISTS event(
    id          INTEGER PRIMARY KEY,
    profile_id  INTEGER NOT NULL,
    track_id    INTEGER NOT NULL,
    type        TEXT NOT NULL,   -- instruction, dma, semaphore, runtime, region
    ts          INTEGER NOT NULL,-- ns
    dur         INTEGER NOT NULL,-- ns
    name        TEXT,            -- NULL when it equals opcode (see slice.name)
    opcode      TEXT,
    hlo_id      INTEGER,         -- string.id
    layer_id    INTEGER,         -- string.id
    bytes       INTEGER,
    flops       REAL,
    model_flops REAL,
    dma_kind    TEXT,
    tensor      TEXT,
    depth       INTEGER,         -- its nesting in nx's trace (NULL: 0; slice_layout's when it has a row)
    args        TEXT,            -- the source's other fields, a JSON object (NULL when kept in place: src_tbl)
    transpose   INTEGER,         -- 1: a TensorE transpose (counts as transpose_flops); NULL: not one
    src_tbl     INTEGER,         -- source_ref.id: the source table kept in place that holds this event's row
    src_row     INTEGER,         -- its row there (0-based); source_args(src_tbl, src_row) gives the args
    lane_id     INTEGER,         -- the overflow lane (track.id) nx's trace puts it on; NULL: its own track
    parent_back INTEGER          -- id - parent_back is the event it nests in, in nx's trace; NULL: none
);

-- Where nx's trace puts each slice that is not at depth 0 on its own row,
-- for a profile whose rows did not come in start order (a Chrome trace may
-- not): it is laid out when it ends (store_layout.h).  Every other profile's
-- slices are placed as they arrive (lane_placer.h) and keep their place in
-- their own row (event.depth, lane_id, parent_back).  The slice view reads
-- both.
CREATE TABLE IF NOT EXISTS slice_layout(
    id        INTEGER PRIMARY KEY,  -- event.id
    track_id  INTEGER NOT NULL,     -- the lane's track.id (the row's, or an overflow lane's)
    depth     INTEGER NOT NULL,
    parent_id INTEGER               -- event.id of the slice it nests in
);

-- Flow arrows between two events of a profile (Chrome trace flow events:
-- a kernel launch to its kernel); the flow view shows them as Perfetto does.
CREATE TABLE IF NOT EXISTS event_flow(
    id            INTEGER PRIMARY KEY,
    profile_id    INTEGER NOT NULL,
    flow_id       TEXT,             -- the source's flow id
    from_event_id INTEGER NOT NULL, -- event.id the arrow leaves
    to_event_id   INTEGER NOT NULL, -- event.id it arrives at
    category      TEXT,             -- the flow events' "cat"
    name          TEXT
);
CREATE INDEX IF NOT EXISTS event_flow_by_profile ON event_flow(profile_id);
CREATE INDEX IF NOT EXISTS event_flow_out ON event_flow(from_event_id);
CREATE INDEX IF NOT EXISTS event_flow_in ON event_flow(to_event_id);

-- The counter samples nx stores: the source's and nx's per-engine
-- utilisation.  Its DMA counters are computed when asked (dma_counters()),
-- their tracks stored; the counter view shows both (counter_view()).
CREATE TABLE IF NOT EXISTS counter_sample(
    id       INTEGER PRIMARY KEY,
    ts       INTEGER NOT NULL,
    track_id INTEGER NOT NULL,
    value    REAL
);

-- Source tables nx keeps as the source wrote them (Neuron Explorer's
-- OpcodeSummary, Flow, TensorInfo, FrameworkNode, ...): one row per source
-- row, its non-null columns as a JSON object.  source_table lists each
-- table's columns; nx creates a view explorer_<Table> per table that shows
-- them as SQL columns (store.cpp: create_source_views).
CREATE TABLE IF NOT EXISTS source_row(
    profile_id INTEGER NOT NULL,
    tbl        TEXT NOT NULL,
    data       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS source_row_by_table ON source_row(tbl, profile_id);
CREATE TABLE IF NOT EXISTS source_table(
    tbl     TEXT PRIMARY KEY,
    columns TEXT NOT NULL      -- JSON array of column names, in source order
);

-- Source tables a profile keeps where they are instead of copying them
-- (Neuron Explorer's Parquet; nx-convert --copy-source copies instead):
-- events point at their row (event.src_tbl, src_row) and source_args()
-- reads their args from it; carried tables (kind 'table') read through the
-- explorer_<Table> views.  Each file is stamped: a moved or changed source
-- is an error naming it (kept_sources.h).
CREATE TABLE IF NOT EXISTS source_ref(
    id         INTEGER PRIMARY KEY,
    profile_id INTEGER NOT NULL,
    tbl        TEXT NOT NULL,
    kind       TEXT NOT NULL,   -- 'events' (rows are events: columns are their args) or 'table' (carried whole)
    columns    TEXT NOT NULL,   -- JSON array: the columns read, in order
    rows       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS source_ref_by_profile ON source_ref(profile_id);
CREATE TABLE IF NOT EXISTS source_file(
    ref_id   INTEGER NOT NULL,
    part     INTEGER NOT NULL,  -- split order (Table_0.parquet, Table_1.parquet, ...)
    path     TEXT NOT NULL,     -- absolute
    bytes    INTEGER NOT NULL,  -- size and modification time (ns) at import
    mtime_ns INTEGER NOT NULL,
    PRIMARY KEY(ref_id, part)
) WITHOUT ROWID;

-- engine_stat and execution are made from the summary's row descriptions
-- (described_tables.h).

-- Run history (nx-run records appended by studies and cron jobs).
CREATE TABLE IF NOT EXISTS run(
    id                 INTEGER PRIMARY KEY,
    study              TEXT,
    name               TEXT,
    op                 TEXT,
    backend            TEXT,
    target             TEXT,
    dtype              TEXT,
    started_at         TEXT,
    host               TEXT,
    latency_median_us  REAL,
    latency_mean_us    REAL,
    latency_min_us     REAL,
    latency_max_us     REAL,
    latency_p95_us     REAL,
    latency_stdev_us   REAL,
    iterations         INTEGER,
    compile_ms         REAL,
    tflops             REAL,
    record             TEXT
);
CREATE INDEX IF NOT EXISTS run_by_name ON run(study, name, started_at);
-- One row per run: re-importing the same runs into the history adds nothing.
CREATE UNIQUE INDEX IF NOT EXISTS run_identity ON run(study, name, backend, target, started_at, host);
)SQL";

const std::string_view kSchemaViewDrops = R"SQL(
DROP VIEW IF EXISTS slice;
DROP VIEW IF EXISTS args;
DROP VIEW IF EXISTS instruction;
DROP VIEW IF EXISTS dma;
DROP VIEW IF EXISTS busy;
DROP VIEW IF EXISTS flow;
DROP VIEW IF EXISTS counter;
)SQL";

const std::string_view kSchemaViews = R"SQL(
-- Perfetto trace processor's slice table (all times in ns) plus nx columns:
-- track_id, depth and parent_id as Perfetto reads them from nx's trace (the
-- lane, its nesting); track_name is the source row, as nx's queries group by.
CREATE VIEW slice AS
SELECT e.id AS id, e.ts AS ts, e.dur AS dur, COALESCE(l.track_id, e.lane_id, e.track_id) AS track_id,
       e.type AS category, COALESCE(e.name, e.opcode) AS name, COALESCE(l.depth, e.depth, 0) AS depth,
       COALESCE(l.parent_id, e.id - e.parent_back) AS parent_id,
       CASE WHEN COALESCE(e.args, e.src_tbl, e.opcode, e.hlo_id, e.layer_id, e.bytes, e.flops, e.model_flops, e.dma_kind,
                          e.tensor) IS NULL THEN NULL ELSE e.id END AS arg_set_id,
       e.profile_id AS profile_id, t.name AS track_name, t.engine AS engine,
       e.opcode AS opcode,
       (SELECT value FROM string WHERE string.id = e.hlo_id) AS hlo_name,
       (SELECT value FROM string WHERE string.id = e.layer_id) AS layer,
       e.bytes AS bytes, e.flops AS flops
FROM event e JOIN track t ON t.id = e.track_id LEFT JOIN slice_layout l ON l.id = e.id;

-- Perfetto's args table: one row per argument of a slice, keyed as Perfetto's
-- JSON importer keys a Chrome event's "args" ("args.NAME"): the arguments
-- nx's traces show (trace_args.h), nx's columns first, then every field of
-- the source's args object (a field named like a column is the column's).
CREATE VIEW args AS
SELECT id AS arg_set_id, 'args.opcode' AS flat_key, 'args.opcode' AS key, NULL AS int_value,
       opcode AS string_value, NULL AS real_value, 'string' AS value_type
FROM event WHERE opcode IS NOT NULL
UNION ALL
SELECT e.id, 'args.hlo_name', 'args.hlo_name', NULL, s.value, NULL, 'string'
FROM event e JOIN string s ON s.id = e.hlo_id
UNION ALL
SELECT e.id, 'args.layer', 'args.layer', NULL, s.value, NULL, 'string'
FROM event e JOIN string s ON s.id = e.layer_id
UNION ALL
SELECT id, 'args.bytes', 'args.bytes', bytes, NULL, NULL, 'int' FROM event WHERE bytes IS NOT NULL
UNION ALL
SELECT id, 'args.flops', 'args.flops', NULL, NULL, flops, 'real' FROM event WHERE flops IS NOT NULL
UNION ALL
SELECT id, 'args.model_flops', 'args.model_flops', NULL, NULL, model_flops, 'real'
FROM event WHERE model_flops IS NOT NULL AND model_flops IS NOT flops
UNION ALL
SELECT id, 'args.dma_kind', 'args.dma_kind', NULL, dma_kind, NULL, 'string' FROM event WHERE dma_kind IS NOT NULL
UNION ALL
SELECT id, 'args.tensor', 'args.tensor', NULL, tensor, NULL, 'string' FROM event WHERE tensor IS NOT NULL
UNION ALL
SELECT e.id, 'args.' || j.key, 'args.' || j.key,
       CASE WHEN j.type = 'integer' THEN j.value END,
       CASE WHEN j.type = 'text' THEN j.value
            WHEN j.type IN ('array', 'object') THEN j.value END,
       CASE WHEN j.type = 'real' THEN j.value END,
       CASE j.type WHEN 'integer' THEN 'int' WHEN 'real' THEN 'real'
                   WHEN 'true' THEN 'bool' WHEN 'false' THEN 'bool'
                   WHEN 'null' THEN 'null' ELSE 'string' END
FROM event e, json_each(e.args) j
WHERE e.args IS NOT NULL
  AND j.key NOT IN ('opcode', 'hlo_name', 'layer', 'bytes', 'flops', 'model_flops', 'dma_kind', 'tensor',
                    'transpose', 'clipped_dur_ns');

-- Perfetto trace processor's flow table: one row per arrow.
CREATE VIEW flow AS
SELECT f.id AS id, f.from_event_id AS slice_out, f.to_event_id AS slice_in,
       f.flow_id AS trace_id, NULL AS arg_set_id,
       f.profile_id AS profile_id, f.category AS category, f.name AS name
FROM event_flow f;

-- Perfetto trace processor's counter table as other SQLite clients see it:
-- the stored samples.  nx's own connections see its DMA counters too
-- (counter_view()).
CREATE VIEW counter AS
SELECT id, ts, track_id, value FROM counter_sample;

CREATE VIEW instruction AS
SELECT * FROM slice WHERE category = 'instruction';

CREATE VIEW dma AS
SELECT s.*, s.track_name AS queue FROM slice s WHERE category = 'dma';

)SQL";

const std::vector<AddedColumn> kAddedColumns = {
    {"event", "transpose", "INTEGER"},
    {"event", "src_tbl", "INTEGER"},
    {"event", "src_row", "INTEGER"},
    {"event", "lane_id", "INTEGER"},
    {"event", "parent_back", "INTEGER"},
    {"event_flow", "id", "INTEGER"},
    {"event_flow", "profile_id", "INTEGER"},
    {"event_flow", "flow_id", "TEXT"},
    {"event_flow", "from_event_id", "INTEGER"},
    {"event_flow", "to_event_id", "INTEGER"},
    {"event_flow", "category", "TEXT"},
    {"event_flow", "name", "TEXT"},
    {"track", "row", "TEXT"},
    {"slice_layout", "id", "INTEGER"},
    {"slice_layout", "track_id", "INTEGER"},
    {"slice_layout", "depth", "INTEGER"},
    {"slice_layout", "parent_id", "INTEGER"},
};

const std::vector<IdColumns> kIdColumns = {
    {"profile", {"id", "first_event_id", "last_event_id"}},
    {"metric", {"profile_id"}},
    {"track", {"id", "profile_id"}},
    {"string", {"id"}},
    {"event", {"id", "profile_id", "track_id", "hlo_id", "layer_id", "src_tbl", "lane_id"}},
    {"slice_layout", {"id", "track_id", "parent_id"}},
    {"counter_sample", {"id", "track_id"}, "counter"},
    {"event_flow", {"id", "profile_id", "from_event_id", "to_event_id"}},
    {"run", {"id"}},
    {"source_row", {"profile_id"}},
    {"source_table", {}},
    {"source_ref", {"id", "profile_id"}},
    {"source_file", {"ref_id"}},
    {"engine_stat", {"profile_id"}},
    {"execution", {"profile_id"}},
};

const std::vector<AddedColumn>& added_columns() {
    static const std::vector<AddedColumn> all = [] {
        std::vector<AddedColumn> out = kAddedColumns;
        for (const DescribedTable& t : described_tables())
            for (const SqlColumn& c : t.columns) out.push_back({t.name, c.name, std::string(sql_type(c.type))});
        return out;
    }();
    return all;
}

std::string schema_tables_sql() { return std::string(kSchemaTables) + described_tables_sql(); }

std::string kept_args_view() {
    // The args view as nx's own connections see it: the same rows, and those
    // of events whose args are read where their source is (source_args(),
    // which other SQLite clients do not have: the view in the file shows
    // them the copied args only).
    std::string_view views = kSchemaViews;
    size_t begin = views.find("CREATE VIEW args AS");
    size_t end = views.find(";", views.find("json_each(e.args)", begin));
    std::string view(views.substr(begin, end - begin));
    auto replace = [&](std::string_view from, std::string_view to) {
        size_t at = view.find(from);
        if (at == std::string::npos) throw std::logic_error("kept_args_view: the args view changed");
        view.replace(at, from.size(), to);
    };
    replace("CREATE VIEW args", "CREATE TEMP VIEW args");
    replace("json_each(e.args) j\nWHERE e.args IS NOT NULL",
            "json_each(COALESCE(e.args, source_args(e.src_tbl, e.src_row))) j\n"
            "WHERE (e.args IS NOT NULL OR e.src_tbl IS NOT NULL)");
    return "DROP VIEW IF EXISTS temp.args; " + view + ";";
}

std::string counter_view() {
    // The DMA tracks' samples come from dma_counters(), which other SQLite
    // clients do not have; a sample computed so has no id (it is not stored).
    return "DROP VIEW IF EXISTS temp.counter; CREATE TEMP VIEW counter AS "
           "SELECT id, ts, track_id, value FROM counter_sample"
           " UNION ALL SELECT NULL, d.ts, t.id, d.value FROM track t, dma_counters(t.profile_id) d"
           " WHERE t.row IS NULL AND t.kind = 'counter' AND t.name IN ('" + std::string(kDmaThroughputTrack) + "', '" +
           std::string(kDmaPendingTrack) + "') AND d.name = t.name;";
}

}  // namespace nx
