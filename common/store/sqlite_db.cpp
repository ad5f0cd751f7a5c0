#include "common/store/sqlite_db.h"

#include "common/io/error.h"

namespace nx {

void SqliteDb::configure_library() {
    static bool done = false;
    if (done) return;
    done = true;
    // Memory statistics take a global mutex on every allocation; nx does not
    // read them.  Must precede sqlite3_initialize, so failure is harmless.
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

SqliteDb::SqliteDb(const std::string& path, Mode mode) : path_(path) {
    configure_library();
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
        case Mode::read_only: flags |= SQLITE_OPEN_READONLY; break;
        case Mode::read_write: flags |= SQLITE_OPEN_READWRITE; break;
        case Mode::create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
    }
    int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw Error("cannot open database: " + msg, path);
    }
    sqlite3_extended_result_codes(db_, 1);
    harden();
}

// Every database nx opens may come from someone else: SQLite's defensive
// settings, no schema-borne function calls with side effects (trusted_schema
// off), no extension loading, no fts3_tokenizer() pointer games.
void SqliteDb::harden() {
    sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
}

SqliteDb::~SqliteDb() {
    if (db_) sqlite3_close_v2(db_);
}

void SqliteDb::fail(const std::string& what) const {
    throw Error(what + ": " + sqlite3_errmsg(db_), path_);
}

void SqliteDb::exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(db_);
        sqlite3_free(err);
        throw Error(msg, path_);
    }
}

SqliteStmt::SqliteStmt(SqliteDb& db, std::string_view sql) : db_(db) {
    if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK)
        db.fail("cannot prepare statement");
}

SqliteStmt::~SqliteStmt() { sqlite3_finalize(stmt_); }

void SqliteStmt::check(int rc) {
    if (rc != SQLITE_OK) db_.fail("cannot bind parameter");
}

bool SqliteStmt::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    std::string msg = sqlite3_errmsg(db_.handle());
    sqlite3_reset(stmt_);
    throw Error(msg, db_.path());
}

void SqliteStmt::run() {
    step();
    reset();
}

void SqliteStmt::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::string SqliteStmt::column_text(int i) const {
    const unsigned char* t = sqlite3_column_text(stmt_, i);
    if (!t) return {};
    return std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(stmt_, i)));
}

std::string insert_rows_sql(std::string_view table_columns, int columns, int rows) {
    std::string row = "(";
    for (int c = 0; c < columns; ++c) row += c ? ",?" : "?";
    row += ")";
    std::string sql = "INSERT OR FAIL INTO " + std::string(table_columns) + " VALUES ";
    for (int r = 0; r < rows; ++r) sql += (r ? "," : "") + row;
    return sql;
}

bool table_exists(SqliteDb& db, const std::string& schema, std::string_view name) {
    SqliteStmt q(db, "SELECT 1 FROM " + schema + ".sqlite_master WHERE type = 'table' AND name = ?");
    q.bind(1, name);
    return q.step();
}

}  // namespace nx
