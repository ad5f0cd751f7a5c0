// Table-valued SQL functions of one stored profile, `NAME(profile_id)`
// (regions, region_stats, critical_path): SQLite eponymous virtual tables
// whose rows a C++ function computes when the query names the profile.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace nx {

using SqlValue = std::variant<std::monostate, int64_t, double, std::string>;

struct TableFunction {
    const char* name;
    // "CREATE TABLE x(col TYPE, ..., profile_id HIDDEN)": the hidden
    // argument last, at index `visible`.
    const char* schema;
    int visible;
    std::vector<std::vector<SqlValue>> (*rows)(sqlite3* db, int64_t profile_id);
};

// `f` must outlive the connection (a static).
void register_table_function(sqlite3* db, const TableFunction& f);

}  // namespace nx
