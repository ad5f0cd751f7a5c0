// The study database's tables made from the summary's row descriptions
// (summary_rows.h): engine_stat (each engine row's sums over the events as
// stored) and execution (a session's executions, one row each).  Their DDL,
// the columns a database an older nx wrote lacks, a profile's rows inserted
// and engine_stat read back: a field added to a description is a column here
// with no other change.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/profile/summary_rows.h"
#include "common/store/sqlite_db.h"

namespace nx {

struct SqlColumn {
    std::string name;
    FieldType type;
    bool nullable;
};
// SQLite's type for a field: INTEGER, REAL, TEXT.
std::string_view sql_type(FieldType t);

// A table of one row type: profile_id and ord (the row's place in the
// profile, from 0) as its key, then the row's fields.
struct DescribedTable {
    std::string name;
    std::vector<SqlColumn> columns;  // after profile_id and ord
};
const std::vector<DescribedTable>& described_tables();
// CREATE TABLE IF NOT EXISTS for each (safe on every open).
std::string described_tables_sql();

// The fields engine_stat keeps, in its column order.
const std::vector<Field<EngineStat>>& stored_engine_fields();

void insert_engine_stats(SqliteDb& db, int64_t profile_id, const std::vector<EngineStat>& rows);
void insert_executions(SqliteDb& db, int64_t profile_id, const std::vector<ExecutionStat>& rows);
// engine_stat's rows of a profile (in `schema`, by its id there), in their
// order; throws Error when the database has no such table.
std::vector<EngineStat> read_engine_stats(sqlite3* db, const std::string& schema, int64_t profile_id);

}  // namespace nx
