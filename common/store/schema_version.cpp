// stored_schema_version: what a database file says about itself (its meta
// table), and the refusals for files that are not nx's.
#include "common/store/schema_version.h"

#include <string_view>
#include <utility>

#include "common/io/error.h"
#include "common/store/store_schema.h"

namespace nx {

namespace {

// Runs `sql` (one row of two integers), naming `path` in SQLite's complaints: an
// unreadable, truncated or locked file says what SQLite said about this file.
std::pair<int64_t, int64_t> counts_of(SqliteDb& db, const std::string& sql, const std::string& path) {
    try {
        SqliteStmt q(db, sql);
        if (!q.step()) return {0, 0};
        return {q.column_int(0), q.column_int(1)};
    } catch (const Error& e) {
        if (std::string_view(e.what()).find("file is not a database") != std::string_view::npos)
            throw Error("not an nx study database (not an SQLite file)", path);
        throw Error(e.what(), path);
    }
}

}  // namespace

int stored_schema_version(SqliteDb& db, const std::string& schema, const std::string& path) {
    const std::string master = schema + ".sqlite_master";
    // One statement, so one snapshot: asked one after the other, a writer
    // creating the schema (meta and every table, one transaction) could
    // commit between the two, and a new nx database looked foreign (eight
    // concurrent first writers, 70-robustness.bats, once under ASan).
    auto [meta, tables] = counts_of(db,
                                    "SELECT (SELECT count(*) FROM " + master +
                                        " WHERE type = 'table' AND name = 'meta'), (SELECT count(*) FROM " + master + ")",
                                    path);
    if (meta == 0) {
        if (tables > 0) throw Error("not an nx study database (it has other tables)", path);
        return 0;
    }
    int version = 0;
    try {
        SqliteStmt v(db, "SELECT value FROM " + schema + ".meta WHERE key = 'schema_version' AND value GLOB '[0-9]*'");
        if (v.step()) version = static_cast<int>(v.column_int(0));
    } catch (const Error&) {
        // A meta table without nx's columns.
    }
    if (version <= 0) throw Error("not an nx study database (its meta table is not nx's)", path);
    if (version > kSchemaVersion)
        throw Error("database schema version " + std::to_string(version) + " is newer than this nx (" +
                        std::to_string(kSchemaVersion) + ")",
                    path);
    return version;
}

}  // namespace nx
