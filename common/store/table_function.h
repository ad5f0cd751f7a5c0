// The scaffold of nx's table-valued SQL functions over one stored profile
// (engine_summary(p.id), regions(p.id), ...): the SQLite virtual-table
// plumbing written once, so a function is its schema and a row source.
// Also what such a function needs to read the database it runs in: a
// statement on the raw connection, and where a profile id of merged
// databases (nx-query --db A --db B) lives.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace nx {

// The rows of one call, produced one at a time (a function may compute them
// all up front or stream them).
class RowSource {
public:
    virtual ~RowSource() = default;
    // Moves to the next row (the first, on the first call); false at the end.
    // May throw: the message becomes the SQL error.
    virtual bool next() = 0;
    // Sets column `col` (0-based, a visible column) of the current row.
    virtual void column(sqlite3_context* ctx, int col) const = 0;
};

struct TableFunction {
    const char* name;
    // "CREATE TABLE x(visible columns..., arguments HIDDEN...)"
    const char* schema;
    int visible;    // visible columns
    int arguments;  // hidden arguments; the first, the profile id, is required
    // The rows for one call.  `args` holds the arguments given (nullptr for
    // one left out); args[0], the profile id, is never NULL.  nullptr: no
    // rows.  May throw: the message becomes the SQL error.
    std::function<std::unique_ptr<RowSource>(sqlite3* db, const std::vector<sqlite3_value*>& args)> open;
};

// One SQL value of a computed row: NULL, integer, real or text.
using SqlValue = std::variant<std::monostate, int64_t, double, std::string>;

// A function whose rows are computed up front for one profile (regions,
// critical path: they are few): the TableFunction that serves them.
// `rows` gets the profile id; the function takes no other argument.
using ComputedRows = std::vector<std::vector<SqlValue>> (*)(sqlite3* db, int64_t profile_id);
TableFunction computed_table_function(const char* name, const char* schema, int visible, ComputedRows rows);

// Registers `f` on the connection (an eponymous virtual table: usable only
// as name(args) in FROM).  `f` must outlive the connection.  A call without
// a profile id fails with "name() needs a profile id, e.g. name(p.id)"; a
// NULL profile id gives no rows.
void register_table_function(sqlite3* db, const TableFunction& f);

// Which database of a merged set a profile id lives in ("main", "db1"...)
// and its id there: merged databases offset ids by Store::kIdStride each.
struct ProfileLocation {
    std::string schema;
    int64_t local = 0;
};
ProfileLocation locate_profile(int64_t profile_id);

// A prepared statement on the connection a table function is called on
// (SqliteStmt needs the SqliteDb, which a function does not have).  Errors
// throw Error with SQLite's message.
class ConnStmt {
public:
    ConnStmt(sqlite3* db, const std::string& sql);
    ConnStmt(const ConnStmt&) = delete;
    ConnStmt& operator=(const ConnStmt&) = delete;
    ~ConnStmt();

    sqlite3_stmt* handle() const { return s_; }
    ConnStmt& bind(int i, int64_t v) {
        sqlite3_bind_int64(s_, i, v);
        return *this;
    }
    ConnStmt& bind(int i, std::string_view v) {
        sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    // True when a row is available, false when done; throws on error.
    bool step();
    std::string_view text(int col) const;
    bool null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
    int64_t i64(int col) const { return sqlite3_column_int64(s_, col); }
    double f64(int col) const { return sqlite3_column_double(s_, col); }

private:
    sqlite3* db_;
    sqlite3_stmt* s_ = nullptr;
};

}  // namespace nx
