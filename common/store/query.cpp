#include "common/store/query.h"

#include <cerrno>
#include <chrono>

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "common/io/data_dir.h"
#include "common/io/error.h"

namespace nx {

namespace {

std::string trim(std::string s) {
    size_t a = s.find_first_not_of(" \t\r");
    size_t b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

NamedQuery parse_query_file(const std::string& path, const std::string& name) {
    std::ifstream in(path);
    if (!in) throw Error("cannot read query file", path);
    std::stringstream ss;
    ss << in.rdbuf();
    NamedQuery q;
    q.name = name;
    q.path = path;
    q.sql = ss.str();
    // Header: the leading "--" comment lines.
    std::istringstream lines(q.sql);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("--", 0) != 0) break;
        std::string text = trim(line.substr(2));
        if (text.rfind(name + ":", 0) == 0) q.description = trim(text.substr(name.size() + 1));
        else if (text.rfind("columns:", 0) == 0) q.columns = trim(text.substr(8));
        else if (text.rfind("params:", 0) == 0) q.params = trim(text.substr(7));
        else if (q.description.empty() && !text.empty()) q.description = text;
    }
    return q;
}

// Binds --param values to the statement's named parameters; reports the
// names the statement uses so unknown --param names can be caught.
void bind_params(sqlite3_stmt* stmt, const QueryParams& params, std::set<std::string>& used) {
    int n = sqlite3_bind_parameter_count(stmt);
    for (int i = 1; i <= n; ++i) {
        const char* raw = sqlite3_bind_parameter_name(stmt, i);
        if (!raw || !*raw) continue;
        std::string name = raw + 1;  // drop ':', '@' or '$'
        used.insert(name);
        auto it = params.find(name);
        if (it == params.end()) continue;  // unbound parameters are NULL: the query's default applies
        const std::string& v = it->second;
        char* end = nullptr;
        errno = 0;
        long long iv = std::strtoll(v.c_str(), &end, 10);
        if (!v.empty() && *end == '\0') {
            // Past int64 is an error, not a silently clamped bound.
            if (errno == ERANGE) throw UsageError("--param " + name + "=" + v + ": integer out of range (64-bit)");
            sqlite3_bind_int64(stmt, i, iv);
            continue;
        }
        double dv = std::strtod(v.c_str(), &end);
        if (!v.empty() && *end == '\0') {
            sqlite3_bind_double(stmt, i, dv);
            continue;
        }
        sqlite3_bind_text(stmt, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    }
}

Cell cell_of(sqlite3_stmt* stmt, int i) {
    switch (sqlite3_column_type(stmt, i)) {
        case SQLITE_INTEGER: return Cell::of_int(sqlite3_column_int64(stmt, i));
        case SQLITE_FLOAT: return Cell::of_real(sqlite3_column_double(stmt, i));
        case SQLITE_TEXT:
            return Cell::of_text(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)),
                                             static_cast<size_t>(sqlite3_column_bytes(stmt, i))));
        case SQLITE_BLOB: {
            // Blobs as hex text: nx stores none, but user SQL may make them.
            const unsigned char* p = static_cast<const unsigned char*>(sqlite3_column_blob(stmt, i));
            int n = sqlite3_column_bytes(stmt, i);
            static const char* hex = "0123456789abcdef";
            std::string s;
            for (int k = 0; k < n; ++k) {
                s += hex[p[k] >> 4];
                s += hex[p[k] & 15];
            }
            return Cell::of_text(s);
        }
        default: return Cell{};
    }
}

// SQLite's message, plus what to do when a read-only session refused a write.
std::string sql_error(sqlite3* db) {
    std::string msg = sqlite3_errmsg(db);
    if (sqlite3_errcode(db) == SQLITE_AUTH || msg.find("not authorized") != std::string::npos ||
        msg.find("authorization denied") != std::string::npos || msg.find("readonly") != std::string::npos ||
        msg.find("read-only") != std::string::npos)
        msg += " (the database is opened read-only; use --write to change it)";
    return msg;
}

// An unknown --param fails before anything runs: every statement is
// prepared once to learn its parameter names.  When a statement cannot be
// prepared yet (it needs a table an earlier one creates), the check after
// the run still catches unknown names.
void check_param_names(sqlite3* db, const std::string& sql, const QueryParams& params, const std::string& where) {
    if (params.empty()) return;
    std::set<std::string> names;
    const char* tail = sql.c_str();
    const char* end = sql.c_str() + sql.size();
    while (tail < end) {
        sqlite3_stmt* stmt = nullptr;
        const char* next = nullptr;
        if (sqlite3_prepare_v2(db, tail, static_cast<int>(end - tail), &stmt, &next) != SQLITE_OK) return;
        if (next <= tail && !stmt) break;
        tail = next;
        if (!stmt) continue;
        for (int i = 1; i <= sqlite3_bind_parameter_count(stmt); ++i)
            if (const char* raw = sqlite3_bind_parameter_name(stmt, i); raw && *raw) names.insert(raw + 1);
        sqlite3_finalize(stmt);
    }
    for (const auto& [name, value] : params)
        if (!names.count(name)) throw Error("the query has no parameter :" + name, where);
}

// Steps through every statement in sql, calling on_columns/on_row.
template <typename OnColumns, typename OnRow>
size_t each_row(SqliteDb& store, const std::string& sql, const QueryParams& params, const std::string& where,
                OnColumns&& on_columns, OnRow&& on_row) {
    sqlite3* db = store.handle();
    const char* tail = sql.c_str();
    const char* end = sql.c_str() + sql.size();
    // SQLite stops reading at a NUL and would hand back the same tail forever.
    if (sql.find('\0') != std::string::npos) throw Error("the SQL contains a NUL byte", where);
    std::set<std::string> used;
    check_param_names(db, sql, params, where);
    size_t rows = 0;
    while (tail < end) {
        sqlite3_stmt* stmt = nullptr;
        const char* next = nullptr;
        if (sqlite3_prepare_v2(db, tail, static_cast<int>(end - tail), &stmt, &next) != SQLITE_OK)
            throw Error(sql_error(db), where);
        if (next <= tail && !stmt) break;  // nothing consumed: nothing left to run
        tail = next;
        if (!stmt) continue;  // whitespace or a comment
        std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(stmt, sqlite3_finalize);
        bind_params(stmt, params, used);
        int ncol = sqlite3_column_count(stmt);
        if (ncol > 0) {
            std::vector<std::string> names;
            for (int i = 0; i < ncol; ++i) names.emplace_back(sqlite3_column_name(stmt, i));
            on_columns(names);
        }
        std::vector<Cell> cells(static_cast<size_t>(ncol));
        int rc;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            for (int i = 0; i < ncol; ++i) cells[static_cast<size_t>(i)] = cell_of(stmt, i);
            on_row(cells);
            ++rows;
        }
        if (rc != SQLITE_DONE) throw Error(sql_error(db), where);
    }
    for (const auto& [name, value] : params)
        if (!used.count(name)) throw Error("the query has no parameter :" + name, where);
    return rows;
}

}  // namespace

std::string named_query_dir() { return find_data_path("queries"); }

std::vector<NamedQuery> load_named_queries(const std::string& dir) {
    std::vector<NamedQuery> out;
    if (dir.empty()) return out;
    DIR* d = opendir(dir.c_str());
    if (!d) throw Error("cannot open the query directory", dir);
    while (dirent* ent = readdir(d)) {
        std::string f = ent->d_name;
        if (f.size() > 4 && f.compare(f.size() - 4, 4, ".sql") == 0)
            out.push_back(parse_query_file(dir + "/" + f, f.substr(0, f.size() - 4)));
    }
    closedir(d);
    std::sort(out.begin(), out.end(), [](const NamedQuery& a, const NamedQuery& b) { return a.name < b.name; });
    return out;
}

size_t run_sql(SqliteDb& store, const std::string& sql, const QueryParams& params, RowFormat format, Output& out,
               const std::string& where) {
    std::unique_ptr<RowWriter> writer;
    size_t rows = each_row(
        store, sql, params, where,
        [&](const std::vector<std::string>& names) {
            if (writer) writer->finish();
            writer = std::make_unique<RowWriter>(format, out);
            writer->columns(names);
        },
        [&](const std::vector<Cell>& cells) { writer->row(cells); });
    if (writer) writer->finish();
    return rows;
}

QueryResult query_rows(SqliteDb& store, const std::string& sql, const QueryParams& params, const std::string& where) {
    QueryResult r;
    each_row(
        store, sql, params, where, [&](const std::vector<std::string>& names) { r.columns = names; r.rows.clear(); },
        [&](const std::vector<Cell>& cells) { r.rows.push_back(cells); });
    return r;
}

namespace {
double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
constexpr int kProgressSteps = 10000;  // VM instructions between clock checks
}  // namespace

QueryTimeout::QueryTimeout(SqliteDb& db, double seconds) : db_(db) {
    if (seconds <= 0) return;
    deadline_ = steady_seconds() + seconds;
    sqlite3_progress_handler(db_.handle(), kProgressSteps, &QueryTimeout::check, this);
}

QueryTimeout::~QueryTimeout() {
    if (deadline_ > 0) sqlite3_progress_handler(db_.handle(), 0, nullptr, nullptr);
}

int QueryTimeout::check(void* self) {
    auto* t = static_cast<QueryTimeout*>(self);
    if (steady_seconds() < t->deadline_) return 0;
    t->expired_ = true;
    return 1;
}

}  // namespace nx
