#include "common/store_schema.h"

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
    origin     TEXT,        -- 'source' (reported by the profile) or 'derived' (computed by nx)
    PRIMARY KEY(profile_id, name)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS track(
    id         INTEGER PRIMARY KEY,
    profile_id INTEGER NOT NULL,
    name       TEXT NOT NULL,
    engine     TEXT,        -- tensor, tensor_matrix, vector, scalar, gpsimd, sync, dma, host
    kind       TEXT         -- instruction, dma, semaphore, counter, runtime, region
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
    depth       INTEGER,
    args        TEXT             -- the source's other fields, a JSON object
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

CREATE TABLE IF NOT EXISTS counter(
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
)SQL";

const std::string_view kSchemaViews = R"SQL(
-- Perfetto trace processor's slice table (all times in ns) plus nx columns.
CREATE VIEW slice AS
SELECT e.id AS id, e.ts AS ts, e.dur AS dur, e.track_id AS track_id,
       e.type AS category, COALESCE(e.name, e.opcode) AS name, COALESCE(e.depth, 0) AS depth,
       NULL AS parent_id,
       CASE WHEN e.args IS NULL THEN NULL ELSE e.id END AS arg_set_id,
       e.profile_id AS profile_id, t.name AS track_name, t.engine AS engine,
       e.opcode AS opcode,
       (SELECT value FROM string WHERE string.id = e.hlo_id) AS hlo_name,
       (SELECT value FROM string WHERE string.id = e.layer_id) AS layer,
       e.bytes AS bytes, e.flops AS flops
FROM event e JOIN track t ON t.id = e.track_id;

-- Perfetto's args table: one row per field of an event's args object.
CREATE VIEW args AS
SELECT e.id AS arg_set_id, j.key AS flat_key, j.key AS key,
       CASE WHEN j.type = 'integer' THEN j.value END AS int_value,
       CASE WHEN j.type = 'text' THEN j.value
            WHEN j.type IN ('array', 'object') THEN j.value END AS string_value,
       CASE WHEN j.type = 'real' THEN j.value END AS real_value,
       CASE j.type WHEN 'integer' THEN 'int' WHEN 'real' THEN 'real'
                   WHEN 'true' THEN 'bool' WHEN 'false' THEN 'bool'
                   WHEN 'null' THEN 'null' ELSE 'string' END AS value_type
FROM event e, json_each(e.args) j
WHERE e.args IS NOT NULL;

-- Perfetto trace processor's flow table: one row per arrow.
CREATE VIEW flow AS
SELECT f.id AS id, f.from_event_id AS slice_out, f.to_event_id AS slice_in,
       f.flow_id AS trace_id, NULL AS arg_set_id,
       f.profile_id AS profile_id, f.category AS category, f.name AS name
FROM event_flow f;

CREATE VIEW instruction AS
SELECT * FROM slice WHERE category = 'instruction';

CREATE VIEW dma AS
SELECT s.*, s.track_name AS queue FROM slice s WHERE category = 'dma';

)SQL";

const std::vector<IdColumns> kIdColumns = {
    {"profile", {"id", "first_event_id", "last_event_id"}},
    {"metric", {"profile_id"}},
    {"track", {"id", "profile_id"}},
    {"string", {"id"}},
    {"event", {"id", "profile_id", "track_id", "hlo_id", "layer_id"}},
    {"counter", {"id", "track_id"}},
    {"event_flow", {"id", "profile_id", "from_event_id", "to_event_id"}},
    {"run", {"id"}},
    {"source_row", {"profile_id"}},
    {"source_table", {}},
};

}  // namespace nx
