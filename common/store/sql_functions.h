// The SQL functions nx adds to every connection it opens (REGEXP on RE2 and
// the engine_* / region table functions).  nx(7) DATABASE SCHEMA lists them.
#pragma once

#include <sqlite3.h>

namespace nx {

// Registers REGEXP and nx's table functions on a connection.
void register_sql_functions(sqlite3* db);

}  // namespace nx
