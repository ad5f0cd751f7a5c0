// Locks a connection to reading: query_only, and an authorizer behind it that
// denies every write, pragma change and function outside an allow-list.
#pragma once

#include "common/store/sqlite_db.h"

namespace nx {

// Called once the connection is set up (views created): nothing after it
// can write.
void make_read_only(SqliteDb& db);

}  // namespace nx
