// The study database schema, declared apart from the code that fills it
// (db_sink.cpp).  Tables hold the data; views give it the names SQL written for
// Perfetto's trace processor expects (slice, track, counter, args).  nx(7)
// documents every table and column listed here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nx {

// 2: source_row, source_table.  3: event_flow, the flow view.  4:
// slice_layout, track.row; lane and counter tracks as in the trace; args
// keyed "args.NAME".  5: source tables kept in place (source_ref,
// source_file, event.src_tbl and src_row; args through source_args());
// engine_stat; nx's DMA counters computed when asked (dma_counters()).  6:
// slices placed in their own event row (event.depth, lane_id, parent_back),
// slice_layout only for profiles laid out at their end.  7: the stored
// samples in counter_sample, the counter view over them (and, in nx's own
// connections, the DMA counters: counter_view()); the DMA counter tracks
// stored in track.
constexpr int kSchemaVersion = 7;

// Tables and indexes (CREATE ... IF NOT EXISTS, safe to run on every open):
// kSchemaTables, and the described tables after it.
extern const std::string_view kSchemaTables;
std::string schema_tables_sql();
// Views (recreated when the schema version changes): drops, then creates.
extern const std::string_view kSchemaViewDrops;
extern const std::string_view kSchemaViews;
// The temp view `args` over kept sources too, for nx's own connections
// (created after the database and any merged ones are attached).
std::string kept_args_view();
// The temp view `counter` for nx's own connections: the samples stored in
// counter_sample and the DMA counters of every stored DMA counter track, so
// that SQL over the counter table gives the rows Perfetto's trace processor
// reads from nx's trace of the same profile.  (A database older than schema
// 7 keeps its samples in a table named counter and has no DMA counter
// tracks: it is read as it is.)
std::string counter_view();

// Columns (and tables) added after schema version 2: a database an older nx
// wrote gets them when it is next opened for writing (kSchemaTables creates
// the tables), and merged databases (nx-query --db A --db B) that lack one
// show NULL (no rows for a table).
// Those listed by hand, then every column of the described tables
// (described_tables.h), which a database gets whenever it is opened for
// writing: a field added to a description needs no schema version.
struct AddedColumn {
    std::string table, column, type;
};
extern const std::vector<AddedColumn> kAddedColumns;
const std::vector<AddedColumn>& added_columns();

// The tables whose integer ids must be kept apart when several databases are
// queried together (nx-query --db A --db B), and which columns hold ids.
struct IdColumns {
    std::string_view table;
    std::vector<std::string_view> columns;
    // Its name in a database of an older schema ("" : the same).
    std::string_view old_name = {};
};
extern const std::vector<IdColumns> kIdColumns;

}  // namespace nx
