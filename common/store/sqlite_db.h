// A thin RAII layer over the SQLite C API: a connection and prepared
// statements whose failures become nx::Error naming the database file.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace nx {

class SqliteDb {
public:
    enum class Mode { read_only, read_write, create };

    SqliteDb(const std::string& path, Mode mode);
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;
    ~SqliteDb();

    sqlite3* handle() const { return db_; }
    const std::string& path() const { return path_; }
    // Runs one or more statements without results; throws Error on failure.
    void exec(const std::string& sql);
    // Throws Error("<what>: <sqlite message>", path).
    [[noreturn]] void fail(const std::string& what) const;
    int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

    // Process-wide SQLite settings that make bulk loads faster (no memory
    // statistics).  Must run before any connection opens; run_tool-independent.
    static void configure_library();

private:
    void harden();
    sqlite3* db_ = nullptr;
    std::string path_;
};

// "INSERT OR FAIL INTO <table_columns> VALUES (?,...),(?,...)": `rows` rows
// of `columns` parameters each, for inserting several rows per statement
// (SQLite's cost per statement outweighs its cost per small row).  OR FAIL,
// not a plain INSERT: a statement of several rows that may ABORT on a NOT
// NULL or key constraint makes SQLite copy every page it touches that an
// earlier statement wrote (the tables' rightmost leaves and their parents,
// 64 KiB each) into a statement journal first.  That was 25,000 page copies,
// 1.6 GB, for a 200,000-instruction profile's layout.  FAIL keeps the rows
// before a violation instead of undoing them; nx's loads roll the whole
// profile back on any error, so nothing depends on that.
std::string insert_rows_sql(std::string_view table_columns, int columns, int rows);

// Whether `schema` ("main", "temp" or an ATTACHed name) holds a table (not a
// view) named `name`.
bool table_exists(SqliteDb& db, const std::string& schema, std::string_view name);

class SqliteStmt {
public:
    SqliteStmt(SqliteDb& db, std::string_view sql);
    SqliteStmt(const SqliteStmt&) = delete;
    SqliteStmt& operator=(const SqliteStmt&) = delete;
    ~SqliteStmt();

    sqlite3_stmt* handle() const { return stmt_; }
    SqliteStmt& bind(int i, int64_t v) { check(sqlite3_bind_int64(stmt_, i, v)); return *this; }
    SqliteStmt& bind(int i, int v) { return bind(i, static_cast<int64_t>(v)); }
    SqliteStmt& bind(int i, double v) { check(sqlite3_bind_double(stmt_, i, v)); return *this; }
    // Text is bound without a copy: it must stay valid until step() returns.
    SqliteStmt& bind(int i, std::string_view v) {
        check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC));
        return *this;
    }
    SqliteStmt& bind_null(int i) { check(sqlite3_bind_null(stmt_, i)); return *this; }
    // Binds NULL for empty text.
    SqliteStmt& bind_text_or_null(int i, std::string_view v) { return v.empty() ? bind_null(i) : bind(i, v); }

    // Returns true when a row is available, false when done; throws on error.
    bool step();
    // Steps a statement that returns no rows, then resets it.
    void run();
    void reset();

    int64_t column_int(int i) const { return sqlite3_column_int64(stmt_, i); }
    double column_double(int i) const { return sqlite3_column_double(stmt_, i); }
    std::string column_text(int i) const;
    bool column_is_null(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }

private:
    void check(int rc);
    SqliteDb& db_;
    sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace nx
