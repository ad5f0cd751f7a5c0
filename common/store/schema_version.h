// Which nx schema a database file holds, checked before nx touches it: one
// check for the database a Store opens and for every database merged in.
#pragma once

#include <string>

#include "common/store/sqlite_db.h"

namespace nx {

// The nx schema version `schema` ("main", or an ATTACHed name) holds; 0 when
// it holds no table at all (a new or empty file).  Throws Error naming `path`
// for a file nx does not own: not an SQLite file, tables but no meta table, a
// meta table that is not nx's, or a version newer than this nx.
int stored_schema_version(SqliteDb& db, const std::string& schema, const std::string& path);

}  // namespace nx
