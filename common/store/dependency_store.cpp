#include "common/store/dependency_store.h"

#include <climits>
#include <optional>
#include <map>
#include <memory>

#include "common/io/number_text.h"
#include "common/parquet/table_reader.h"
#include "common/store/dependency_graph.h"
#include "common/store/kept_sources.h"
#include "common/store/profile_scan.h"
#include "common/store/store.h"
#include "common/store/table_function.h"

namespace nx {

namespace {

// A kept table's value as the row's JSON would give it to the collector:
// an integer, or text that reads as one; a real is not an id.
std::optional<int64_t> int_at(const parquet::TableReader& r, size_t i) {
    const parquet::ColumnCursor* c = r.column(i);
    if (!c || c->is_null()) return std::nullopt;
    if (c->holds_integers()) return c->i64();
    return c->holds_bytes() ? parse_int64(c->str()) : std::nullopt;
}

std::string_view text_at(const parquet::TableReader& r, size_t i) {
    const parquet::ColumnCursor* c = r.column(i);
    return c && !c->is_null() && c->holds_bytes() ? c->str() : std::string_view();
}

DependencyGraph dependencies_of(sqlite3* db, const DbProfile& p) {
    DependencyCollector c;
    // Kept in place, the two tables are read column by column (millions of
    // rows: no JSON written and parsed again); copied, from their rows.
    if (!scan_kept_columns(db, p.schema, p.local, "Flow", {"in_table", "in_id", "out_table", "out_id", "gap_time"},
                           [&](const parquet::TableReader& r) {
                               c.flow(text_at(r, 0), int_at(r, 1), text_at(r, 2), int_at(r, 3), int_at(r, 4));
                           }))
        scan_source_rows(db, p, "Flow", [&](std::string_view row) { c.flow_row(row); });
    if (!scan_kept_columns(db, p.schema, p.local, "DmaPacketAggregated",
                           {"id", "start_ts", "end_ts", "duration_ns", "queue_name", "variable"},
                           [&](const parquet::TableReader& r) {
                               c.dma_block(int_at(r, 0), int_at(r, 1), int_at(r, 2), int_at(r, 3), text_at(r, 4),
                                           text_at(r, 5));
                           }))
        scan_source_rows(db, p, "DmaPacketAggregated", [&](std::string_view row) { c.dma_block_row(row); });
    // Only a profile with Flow rows naming instructions pays for this scan.
    // An instruction kept in place gives its Instruction.id from that one
    // column of its source row, not from all of its args.
    if (c.wants_instructions()) {
        std::map<int64_t, std::unique_ptr<parquet::TableReader>> ids;  // by source_ref id
        scan_profile_events(
            db, p,
            [&](const Event& e) {
                if (e.src_table < 0) {
                    c.instruction(e);
                    return;
                }
                auto& r = ids[e.src_table];
                if (!r) r = std::make_unique<parquet::TableReader>(kept_files(db, p.schema, e.src_table),
                                                                    std::vector<std::string>{"id"});
                const parquet::ColumnCursor* id = r->seek(e.src_row) ? r->column(0) : nullptr;
                if (id && !id->is_null() && id->holds_integers()) c.instruction(e, id->i64());
            },
            "type = 'instruction'", false);
    }
    return c.finish();
}

constexpr const char* kSchema =
    "CREATE TABLE x(step INTEGER, node_table TEXT, node_id INTEGER, name TEXT, engine_queue TEXT, start_ns INTEGER, "
    "dur_ns INTEGER, gap_to_next_ns INTEGER, cumulative_ns INTEGER, profile_id HIDDEN)";

std::vector<std::vector<SqlValue>> path_rows(sqlite3* db, int64_t profile) {
    std::vector<std::vector<SqlValue>> rows;
    DbProfile p(db, profile);
    if (!p.found) return rows;
    DependencyGraph g = dependencies_of(db, p);
    CriticalPath path = critical_path(g, INT64_MIN, INT64_MAX);
    for (size_t k = 0; k < path.steps.size(); ++k) {
        const CriticalStep& s = path.steps[k];
        rows.push_back({static_cast<int64_t>(k + 1), std::string(s.node.table), s.node.id,
                        s.node.name.empty() ? SqlValue{} : SqlValue{std::string(s.node.name)},
                        std::string(s.node.where), s.node.start_ns,
                        s.dur_ns, s.gap_to_next_ns, s.cumulative_ns});
    }
    return rows;
}

const TableFunction kCriticalPath = computed_table_function("critical_path", kSchema, 9, path_rows);

}  // namespace

DependencyGraph store_dependencies(Store& store, const std::string& uid) {
    sqlite3* db = store.db().handle();
    return dependencies_of(db, DbProfile(db, stored_profile_rowid(store, uid)));
}

void register_dependency_functions(sqlite3* db) { register_table_function(db, kCriticalPath); }

}  // namespace nx
