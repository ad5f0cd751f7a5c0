#include "common/store/dependency_store.h"
#include "common/store/region_store.h"
#include "common/store/store.h"

#include <re2/re2.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <chrono>
#include <cmath>
#include <ctime>
#include <set>

#include "common/io/error.h"
#include "common/io/file_guard.h"
#include "common/io/limits.h"
#include "common/profile/metric_defs.h"
#include "common/profile/profile_record.h"
#include "common/records/jsonl.h"
#include "common/store/engine_intervals.h"
#include "common/store/store_layout.h"
#include "common/store/store_schema.h"
#include "common/trace/trace_layout.h"

namespace nx {

namespace {

// A writer waits this long for another writer (cron jobs sharing a history
// database) before giving up with "database is locked".
constexpr int kBusyTimeoutMs = 120000;
constexpr int kPageSize = 65536;
constexpr int kCacheKiB = 16384;

void regexp_function(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    if (argc != 2 || sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    // The compiled pattern is cached on the statement while the pattern
    // argument stays the same (sqlite3_set_auxdata).
    auto* re = static_cast<RE2*>(sqlite3_get_auxdata(ctx, 0));
    if (!re) {
        const char* pattern = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
        int len = sqlite3_value_bytes(argv[0]);
        RE2::Options opts;
        opts.set_log_errors(false);
        re = new RE2(re2::StringPiece(pattern, static_cast<size_t>(len)), opts);
        if (!re->ok()) {
            std::string msg = "invalid regular expression: " + re->error();
            delete re;
            sqlite3_result_error(ctx, msg.c_str(), -1);
            return;
        }
        sqlite3_set_auxdata(ctx, 0, re, [](void* p) { delete static_cast<RE2*>(p); });
        re = static_cast<RE2*>(sqlite3_get_auxdata(ctx, 0));
        if (!re) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
    }
    const char* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    int len = sqlite3_value_bytes(argv[1]);
    sqlite3_result_int(ctx, RE2::PartialMatch(re2::StringPiece(text, static_cast<size_t>(len)), *re) ? 1 : 0);
}

// SQLite names (pragmas, tables) compare case-insensitively.
std::string lowercase(const char* name) {
    std::string s = name ? name : "";
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The SQL functions a read-only session may call: SQLite's core scalar,
// aggregate, window, date, math and JSON functions, and nx's REGEXP.  Left
// out on purpose: fts3_tokenizer (returns and accepts raw pointers),
// load_extension, the FTS/R-Tree auxiliaries (match, snippet, offsets,
// matchinfo, highlight, bm25, fts5, rtreenode, rtreedepth, rtreecheck) and
// anything registered later without review.  Virtual tables a session can
// reach: pragma_* (through the PRAGMA rules below), json_each/json_tree and
// nx's engine_* table functions (engine_intervals.cpp), all read-only; a
// read-only session cannot create one.
const std::set<std::string, std::less<>> kReadOnlyFunctions = {
    // core scalar
    "abs", "changes", "char", "coalesce", "format", "glob", "hex", "ifnull", "iif", "instr", "last_insert_rowid",
    "length", "like", "likelihood", "likely", "lower", "ltrim", "max", "min", "nullif", "printf", "quote", "random",
    "randomblob", "replace", "round", "rtrim", "sign", "soundex", "sqlite_compileoption_get",
    "sqlite_compileoption_used", "sqlite_source_id", "sqlite_version", "substr", "substring", "total_changes", "trim",
    "typeof", "unicode", "unlikely", "upper", "zeroblob", "octet_length", "unhex", "concat", "concat_ws",
    // aggregate and window
    "avg", "count", "group_concat", "string_agg", "sum", "total", "row_number", "rank", "dense_rank",
    "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value", "last_value", "nth_value",
    // date and time
    "date", "time", "datetime", "julianday", "unixepoch", "strftime", "current_date", "current_time",
    "current_timestamp", "timediff",
    // math
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos", "cosh", "degrees", "exp",
    "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power", "radians", "sin", "sinh", "sqrt", "tan",
    "tanh", "trunc",
    // JSON
    "json", "json_array", "json_array_length", "json_extract", "json_insert", "json_object", "json_patch",
    "json_quote", "json_remove", "json_replace", "json_set", "json_type", "json_valid", "json_group_array",
    "json_group_object", "json_each", "json_tree", "->", "->>",
    // nx
    "regexp",
};

// Read-only connections refuse anything that could change a file: the
// authorizer is the second lock behind PRAGMA query_only.
int read_only_authorizer(void*, int action, const char* a, const char* b, const char*, const char*) {
    switch (action) {
        case SQLITE_READ:
        case SQLITE_SELECT:
        case SQLITE_RECURSIVE:
            return SQLITE_OK;
        case SQLITE_FUNCTION:
            // b is the function's name: only the allow-list (kReadOnlyFunctions).
            return kReadOnlyFunctions.count(lowercase(b)) ? SQLITE_OK : SQLITE_DENY;
        case SQLITE_PRAGMA: {
            // Reading pragmas (table_info, ...) is fine; query_only may not be
            // lifted.  Pragma names are case-insensitive.
            // Pragmas that change the file or lift the lock; the first six
            // may still be read.
            static const std::set<std::string, std::less<>> kLocked = {
                "query_only",     "journal_mode",    "user_version",       "application_id", "schema_version",
                "locking_mode",   "writable_schema", "wal_checkpoint",     "incremental_vacuum", "optimize"};
            static const std::set<std::string, std::less<>> kReadable = {
                "query_only", "journal_mode", "user_version", "application_id", "schema_version", "locking_mode"};
            std::string p = lowercase(a);
            bool setting = b != nullptr;  // PRAGMA x = value (reading has no value)
            if (!kLocked.count(p)) return SQLITE_OK;
            return !setting && kReadable.count(p) ? SQLITE_OK : SQLITE_DENY;
        }
        case SQLITE_TRANSACTION:
        case SQLITE_SAVEPOINT:
            return SQLITE_OK;
        case SQLITE_UPDATE: {
            // SQLite itself asks this while connecting a table-valued function
            // (engine_summary ...).  Real schema changes stay impossible:
            // writable_schema is denied and query_only blocks every write.
            std::string t = lowercase(a);
            return t == "sqlite_master" || t == "sqlite_temp_master" ? SQLITE_OK : SQLITE_DENY;
        }
        default:
            return SQLITE_DENY;
    }
}

std::string now_iso8601() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

bool file_exists(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0;
}

}  // namespace

void register_sql_functions(sqlite3* db) {
    sqlite3_create_function_v2(db, "regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr, regexp_function,
                               nullptr, nullptr, nullptr);
    register_engine_functions(db);
    register_region_functions(db);
    register_dependency_functions(db);
}

Store::Store(const std::string& path, Access access, const std::vector<std::string>& also)
    : new_file_{path, access == Access::read_write && !file_exists(path), -1},
      created_(new_file_.armed),
      db_(path, access == Access::read_only ? SqliteDb::Mode::read_only
                                            : (created_ ? SqliteDb::Mode::create : SqliteDb::Mode::read_write)),
      access_(access) {
    hold_file_lock();
    // The database stores no value longer than nx reads in one record.
    sqlite3_limit(db_.handle(), SQLITE_LIMIT_LENGTH,
                  static_cast<int>(std::min<size_t>(max_record_bytes(), static_cast<size_t>(INT32_MAX))));
    guard_database(path);
    for (const std::string& p : also) guard_database(p);
    sqlite3_busy_timeout(db_.handle(), kBusyTimeoutMs);
    register_sql_functions(db_.handle());
    if (access == Access::read_write) init_schema();
    else check_schema_version("main", path);
    if (!also.empty()) merge_databases(also);
    create_source_views();
    db_.exec(kRegionView);
    if (access == Access::read_only) {
        db_.exec("PRAGMA query_only = 1");
        sqlite3_set_authorizer(db_.handle(), read_only_authorizer, nullptr);
    }
    new_file_.armed = false;
}

Store::NewFile::~NewFile() {
    if (armed && lock_fd >= 0 && flock(lock_fd, LOCK_EX | LOCK_NB) == 0)
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) unlink((path + suffix).c_str());
    if (lock_fd >= 0) close(lock_fd);
}

void Store::hold_file_lock() {
    int fd = ::open(new_file_.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;  // SQLite has said what is wrong with the file, or will
    // Blocks only while a failed creator is removing the file.
    while (flock(fd, LOCK_SH) != 0 && errno == EINTR) {
    }
    struct stat held {}, now {};
    if (fstat(fd, &held) != 0 || stat(new_file_.path.c_str(), &now) != 0 || held.st_ino != now.st_ino ||
        held.st_dev != now.st_dev) {
        close(fd);
        throw Error("the database was removed while it was being opened (a concurrent import into the new file failed): "
                    "try again",
                    new_file_.path);
    }
    new_file_.lock_fd = fd;
}

void Store::remove_if_left_empty() { new_file_.armed = created_; }

Store::~Store() {
    if (!new_file_.armed) return;
    try {
        SqliteStmt count(db_, "SELECT (SELECT count(*) FROM profile) + (SELECT count(*) FROM run)");
        if (count.step() && count.column_int(0) > 0) new_file_.armed = false;
    } catch (const Error&) {
        // Unreadable: it holds nothing worth keeping.
    }
}

void Store::check_schema_version(const std::string& schema, const std::string& path) {
    int version = 0;
    try {
        SqliteStmt check(db_, "SELECT value FROM " + schema + ".meta WHERE key = 'schema_version'");
        if (check.step()) version = static_cast<int>(check.column_int(0));
    } catch (const Error& e) {
        // Only a missing table means "not nx's": an unreadable, truncated or
        // locked file says what SQLite said, naming this file (not the first --db).
        if (std::string_view(e.what()).find("no such table") != std::string_view::npos)
            throw Error("not an nx study database (no meta table)", path);
        if (std::string_view(e.what()).find("file is not a database") != std::string_view::npos)
            throw Error("not an nx study database (not an SQLite file)", path);
        throw Error(e.what(), path);
    }
    if (version == 0) throw Error("not an nx study database (no schema version)", path);
    if (version > kSchemaVersion)
        throw Error("database schema version " + std::to_string(version) + " is newer than this nx (" +
                        std::to_string(kSchemaVersion) + ")",
                    path);
}

void Store::merge_databases(const std::vector<std::string>& also) {
    std::vector<std::string> schemas = {"main"};
    for (size_t i = 0; i < also.size(); ++i) {
        if (!file_exists(also[i])) throw Error("cannot open database: no such file", also[i]);
        std::string name = "db" + std::to_string(i + 1);
        try {
            SqliteStmt attach(db_, "ATTACH DATABASE ? AS " + name);
            attach.bind(1, std::string_view(also[i])).run();
        } catch (const Error& e) {
            throw Error(e.what(), also[i]);
        }
        check_schema_version(name, also[i]);
        schemas.push_back(name);
    }
    // One temp view per table: every database's rows, ids kept apart.
    auto columns_of = [&](const std::string& schema, std::string_view table) {
        std::vector<std::string> cols;
        SqliteStmt info(db_, "SELECT name FROM pragma_table_info(?, ?)");
        info.bind(1, table).bind(2, std::string_view(schema));
        while (info.step()) cols.push_back(info.column_text(0));
        return cols;
    };
    for (const IdColumns& t : kIdColumns) {
        std::vector<std::string> cols = columns_of("main", t.table);
        // Columns and tables added since an older main database was written
        // (the views use them).
        for (const AddedColumn& a : kAddedColumns)
            if (a.table == t.table && std::find(cols.begin(), cols.end(), a.column) == cols.end())
                cols.emplace_back(a.column);
        if (cols.empty()) continue;  // an older main database without this table
        std::string sql = "CREATE TEMP VIEW " + std::string(t.table) + " AS ";
        bool first = true;
        for (size_t k = 0; k < schemas.size(); ++k) {
            // Databases of an older schema may lack a newer table, or columns.
            std::vector<std::string> has = columns_of(schemas[k], t.table);
            if (has.empty()) continue;
            if (!first) sql += " UNION ALL ";
            first = false;
            sql += "SELECT ";
            for (size_t c = 0; c < cols.size(); ++c) {
                bool is_id = std::find(t.columns.begin(), t.columns.end(), cols[c]) != t.columns.end();
                if (c) sql += ", ";
                if (std::find(has.begin(), has.end(), cols[c]) == has.end())
                    sql += "NULL AS " + cols[c];
                else if (is_id && k > 0)
                    sql += cols[c] + " + " + std::to_string(kIdStride * static_cast<int64_t>(k)) + " AS " + cols[c];
                else
                    sql += cols[c];
            }
            sql += " FROM " + schemas[k] + "." + std::string(t.table);
        }
        if (first) {
            // No database has the table: an empty one.
            sql += "SELECT ";
            for (size_t c = 0; c < cols.size(); ++c) sql += (c ? ", NULL AS " : "NULL AS ") + cols[c];
            sql += " WHERE 0";
        }
        db_.exec(sql);
    }
    // The Perfetto-style views again, in temp, so they read the merged tables
    // (views in main resolve names in main only).
    std::string views(kSchemaViews);
    for (size_t pos = 0; (pos = views.find("CREATE VIEW ", pos)) != std::string::npos; pos += 17)
        views.replace(pos, 12, "CREATE TEMP VIEW ");
    db_.exec(views);
}

// The nx schema version the file holds: 0 for an empty file.  Throws for a
// file nx does not own (other tables, or a meta table that is not nx's), before
// anything has changed it.
int Store::existing_schema_version() {
    SqliteStmt has(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
    has.step();
    if (has.column_int(0) == 0) {
        SqliteStmt any(db_, "SELECT count(*) FROM sqlite_master");
        any.step();
        if (any.column_int(0) > 0) throw Error("not an nx study database (it has other tables)", path());
        return 0;
    }
    int version = 0;
    try {
        SqliteStmt v(db_, "SELECT value FROM meta WHERE key = 'schema_version' AND value GLOB '[0-9]*'");
        if (v.step()) version = static_cast<int>(v.column_int(0));
    } catch (const Error&) {
    }
    if (version <= 0) throw Error("not an nx study database (its meta table is not nx's)", path());
    if (version > kSchemaVersion)
        throw Error("database schema version " + std::to_string(version) + " is newer than this nx (" +
                        std::to_string(kSchemaVersion) + ")",
                    path());
    return version;
}

void Store::create_source_views() {
    std::vector<std::pair<std::string, std::vector<std::string>>> tables;
    try {
        SqliteStmt q(db_, "SELECT tbl, columns FROM source_table ORDER BY tbl");
        while (q.step()) {
            std::string tbl = q.column_text(0);
            rapidjson::Document cols;
            cols.Parse(q.column_text(1).c_str());
            if (!cols.IsArray()) continue;
            auto it = std::find_if(tables.begin(), tables.end(), [&](auto& t) { return t.first == tbl; });
            if (it == tables.end()) it = tables.insert(tables.end(), {tbl, {}});
            for (auto& c : cols.GetArray()) {
                if (!c.IsString()) continue;
                std::string name = c.GetString();
                if (std::find(it->second.begin(), it->second.end(), name) == it->second.end()) it->second.push_back(name);
            }
        }
    } catch (const Error&) {
        return;  // a database from before source tables
    }
    auto plain = [](std::string_view n) {
        return !n.empty() && std::all_of(n.begin(), n.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; });
    };
    for (const auto& [tbl, cols] : tables) {
        if (!plain(tbl)) continue;
        std::string sql = "CREATE TEMP VIEW IF NOT EXISTS \"explorer_" + tbl + "\" AS SELECT profile_id";
        for (const std::string& c : cols) {
            if (!plain(c) || c == "profile_id") continue;
            sql += ", json_extract(data, '$.\"" + c + "\"') AS \"" + c + "\"";
        }
        sql += " FROM source_row WHERE tbl = '" + tbl + "'";
        db_.exec(sql);
    }
}

// A database an older nx wrote: the tables exist (CREATE TABLE IF NOT EXISTS
// left them as they were) without the columns added since.  Their rows read
// NULL there, which every view and query takes as "not known".
void Store::add_missing_columns() {
    for (const AddedColumn& c : kAddedColumns) {
        SqliteStmt has(db_, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?");
        has.bind(1, c.table).bind(2, c.column);
        if (has.step() && has.column_int(0) > 0) continue;
        db_.exec("ALTER TABLE " + std::string(c.table) + " ADD COLUMN " + std::string(c.column) + " " +
                 std::string(c.type));
    }
}

void Store::init_schema() {
    // Refuse a file that is not nx's before anything (page size, WAL) touches it.
    existing_schema_version();
    // Page size only takes effect before the first table exists.
    db_.exec("PRAGMA page_size = " + std::to_string(kPageSize));
    // Switching a new file to WAL needs an exclusive lock.  A connection that
    // already read the file gets SQLITE_BUSY at once instead of waiting (SQLite
    // avoids the deadlock that way), so concurrent first writers retry here.
    for (int attempt = 0;; ++attempt) {
        try {
            db_.exec("PRAGMA journal_mode = WAL");
            break;
        } catch (const Error& e) {
            bool busy = std::string_view(e.what()).find("locked") != std::string_view::npos;
            if (!busy || attempt * 20 >= kBusyTimeoutMs) throw Error(std::string("cannot use the database: ") + e.what(), path());
            usleep(20000);
        }
    }
    db_.exec("PRAGMA synchronous = NORMAL; PRAGMA cache_size = -" + std::to_string(kCacheKiB) +
             "; PRAGMA temp_store = FILE;");
    db_.exec("BEGIN IMMEDIATE");
    try {
        int version = existing_schema_version();  // again, under the write lock
        if (version < kSchemaVersion) {
            db_.exec(std::string(kSchemaTables));
            add_missing_columns();
            db_.exec(std::string(kSchemaViewDrops));
            db_.exec(std::string(kSchemaViews));
            db_.exec("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', '" +
                     std::to_string(kSchemaVersion) + "'), ('created_by', 'nx')");
        }
        db_.exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

struct DbSink::Statements {
    explicit Statements(SqliteDb& db)
        : insert_event(db,
                       "INSERT INTO event(profile_id, track_id, type, ts, dur, name, opcode, hlo_id, layer_id, bytes,"
                       " flops, model_flops, dma_kind, tensor, depth, args, transpose)"
                       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
          insert_counter(db, "INSERT INTO counter(ts, track_id, value) VALUES (?,?,?)"),
          insert_track(db, "INSERT INTO track(profile_id, name, engine, kind, row) VALUES (?,?,?,?,?2)"),
          find_string(db, "SELECT id FROM string WHERE value = ?"),
          insert_string(db, "INSERT INTO string(value) VALUES (?)"),
          insert_metric(db, "INSERT OR REPLACE INTO metric(profile_id, name, value, unit, origin) VALUES (?,?,?,?,?)"),
          insert_flow(db, "INSERT INTO event_flow(profile_id, flow_id, from_event_id, to_event_id, category, name)"
                          " VALUES (?,?,?,?,?,?)") {}
    SqliteStmt insert_event, insert_counter, insert_track, find_string, insert_string, insert_metric, insert_flow;
};

DbSink::DbSink(Store& store)
    : store_(store), st_(std::make_unique<Statements>(store.db())), layout_(kLayoutChunkBytes) {}

DbSink::~DbSink() {
    st_.reset();
    if (in_transaction_) sqlite3_exec(store_.db().handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void DbSink::delete_profile(const std::string& uid) {
    SqliteDb& db = store_.db();
    SqliteStmt find(db, "SELECT id, first_event_id, last_event_id FROM profile WHERE uid = ?");
    find.bind(1, std::string_view(uid));
    if (!find.step()) return;
    int64_t id = find.column_int(0);
    if (!find.column_is_null(1) && !find.column_is_null(2)) {
        // A profile's events have contiguous ids: delete by rowid range (their
        // slice_layout rows have the same ids).
        SqliteStmt del(db, "DELETE FROM event WHERE id BETWEEN ? AND ? AND profile_id = ?");
        del.bind(1, find.column_int(1)).bind(2, find.column_int(2)).bind(3, id).run();
        SqliteStmt del_layout(db, "DELETE FROM slice_layout WHERE id BETWEEN ? AND ?");
        del_layout.bind(1, find.column_int(1)).bind(2, find.column_int(2)).run();
    } else {
        SqliteStmt del(db, "DELETE FROM event WHERE profile_id = ?");
        del.bind(1, id).run();
    }
    for (const char* sql : {"DELETE FROM counter WHERE track_id IN (SELECT id FROM track WHERE profile_id = ?1)",
                            "DELETE FROM source_row WHERE profile_id = ?1",
                            "DELETE FROM event_flow WHERE profile_id = ?1",
                            "DELETE FROM track WHERE profile_id = ?1", "DELETE FROM metric WHERE profile_id = ?1",
                            "DELETE FROM profile WHERE id = ?1"}) {
        SqliteStmt del(db, sql);
        del.bind(1, id).run();
    }
}

void DbSink::ensure_transaction() {
    if (in_transaction_) return;
    store_.db().exec("BEGIN IMMEDIATE");
    in_transaction_ = true;
}

RunRow run_row_from_record(const rapidjson::Value& r, std::string record_json) {
    RunRow row;
    row.study = get_string(r, "study").value_or("");
    row.name = get_string(r, "name").value_or("");
    if (row.name.empty()) throw Error("run record without a \"name\"");
    row.op = get_string(r, "op").value_or("");
    row.backend = get_string(r, "backend").value_or("");
    row.target = get_string(r, "target").value_or("");
    row.dtype = get_string(r, "dtype").value_or("");
    row.started_at = get_string(r, "started_at").value_or("");
    row.host = get_string(r, "host").value_or("");
    if (const rapidjson::Value* l = find_member(r, "latency_us")) {
        if (!l->IsObject()) throw Error("expected an object for \"latency_us\"");
        row.median = get_number(*l, "median");
        row.mean = get_number(*l, "mean");
        row.min = get_number(*l, "min");
        row.max = get_number(*l, "max");
        row.p95 = get_number(*l, "p95");
        row.stdev = get_number(*l, "stdev");
        row.n = get_number(*l, "n");
        // A count of executions: it is stored as an integer.
        if (row.n && !(*row.n >= 0 && *row.n <= 9.0e15 && *row.n == std::floor(*row.n)))
            throw Error("expected a whole count for \"latency_us.n\"");
    }
    row.compile_ms = get_number(r, "compile_ms");
    row.tflops = get_number(r, "tflops");
    row.record = std::move(record_json);
    return row;
}

bool DbSink::append_run(const RunRow& r) {
    ensure_transaction();
    SqliteStmt ins(store_.db(),
                   "INSERT OR IGNORE INTO run(study, name, op, backend, target, dtype, started_at, host,"
                   " latency_median_us, latency_mean_us, latency_min_us, latency_max_us, latency_p95_us,"
                   " latency_stdev_us, iterations, compile_ms, tflops, record) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    // The identity columns are bound as text even when empty: the unique
    // index treats NULLs as all different, and a re-import must not add rows.
    const std::string* text[] = {&r.study, &r.name, &r.op, &r.backend, &r.target, &r.dtype, &r.started_at, &r.host};
    for (int i = 0; i < 8; ++i) ins.bind(i + 1, std::string_view(*text[i]));
    int col = 9;
    for (const std::optional<double>* v : {&r.median, &r.mean, &r.min, &r.max, &r.p95, &r.stdev}) {
        if (*v) ins.bind(col, **v);
        else ins.bind_null(col);
        ++col;
    }
    if (r.n) ins.bind(15, static_cast<int64_t>(*r.n)); else ins.bind_null(15);
    if (r.compile_ms) ins.bind(16, *r.compile_ms); else ins.bind_null(16);
    if (r.tflops) ins.bind(17, *r.tflops); else ins.bind_null(17);
    ins.bind(18, std::string_view(r.record));
    ins.step();
    bool added = sqlite3_changes(store_.db().handle()) > 0;
    ins.reset();
    return added;
}

void DbSink::begin_profile(const ProfileInfo& info) {
    SqliteDb& db = store_.db();
    ensure_transaction();
    db.exec("SAVEPOINT nx_profile");
    in_profile_ = true;
    source_ = info.source == "-" ? "<stdin>" : info.source;
    delete_profile(info.id);
    SqliteStmt ins(db, "INSERT INTO profile(uid, name, source, format, backend, target, dtype, rank, imported_at)"
                       " VALUES (?,?,?,?,?,?,?,?,?)");
    ins.bind(1, std::string_view(info.id))
        .bind(2, std::string_view(info.name))
        .bind(3, std::string_view(info.source))
        .bind(4, std::string_view(info.format))
        .bind_text_or_null(5, info.backend)
        .bind_text_or_null(6, info.target)
        .bind_text_or_null(7, info.dtype);
    if (info.rank >= 0) ins.bind(8, info.rank); else ins.bind_null(8);
    std::string now = now_iso8601();
    ins.bind(9, std::string_view(now));
    ins.run();
    profile_rowid_ = db.last_insert_rowid();
    first_event_ = last_event_ = 0;
    tracks_.clear();
    last_track_key_.clear();
    last_track_ = {};
    layout_.clear();
    layout_flows_.clear();
}

DbSink::TrackIds DbSink::track_id(const Event& e) {
    // Tracks are named and told apart as the trace layout does (event.h), so
    // the layout's rows are the database's tracks.
    track_key(e, key_);
    // Consecutive events usually share a track: skip the hash lookup then.
    if (last_track_.id != 0 && key_ == last_track_key_) return last_track_;
    auto it = tracks_.find(key_);
    TrackIds ids;
    if (it != tracks_.end()) {
        ids = it->second;
    } else {
        SqliteStmt& ins = st_->insert_track;
        ins.bind(1, profile_rowid_).bind(2, event_track(e));
        ins.bind_text_or_null(3, to_string(e.engine));
        ins.bind(4, to_string(e.type));
        ins.run();
        ids.id = store_.db().last_insert_rowid();
        ids.layout = layout_.track_of(e);
        tracks_.emplace(key_, ids);
    }
    last_track_key_ = key_;
    last_track_ = ids;
    return ids;
}

void DbSink::spool_for_layout(const Event& e, int64_t id, uint32_t track) {
    // What the layout reads (trace_layout.cpp): times, track, type, engine,
    // the source's nesting (order of equal starts), process and thread,
    // opcode (engine busy time), bytes (DMA throughput) and a counter's value.
    Event lean;
    lean.type = e.type;
    lean.engine = e.engine;
    lean.track = e.track;
    lean.ts_ns = e.ts_ns;
    lean.dur_ns = e.dur_ns;
    lean.depth = e.depth;
    lean.pid = e.pid;
    lean.tid = e.tid;
    lean.process = e.process;
    lean.opcode = e.opcode;
    lean.bytes = e.bytes;
    lean.value = e.value;
    lean.line = e.line;
    layout_.add(lean, id, track);
}

void DbSink::lay_out() {
    // The database track of each of the layout's rows (none for the
    // overflow track of the tracks past its cap).
    std::vector<int64_t> rows(layout_.tracks().size(), 0);
    for (const auto& [key, ids] : tracks_)
        if (ids.layout < rows.size() && !layout_.tracks()[ids.layout].merged) rows[ids.layout] = ids.id;
    lay_out_in_store(store_.db(), profile_rowid_, layout_, layout_flows_, rows);
    layout_.clear();
    layout_flows_.clear();
}

int64_t DbSink::string_id(std::string_view s) {
    auto it = strings_.find(s);
    if (it != strings_.end()) return it->second;
    SqliteStmt& find = st_->find_string;
    find.bind(1, s);
    int64_t id;
    if (find.step()) {
        id = find.column_int(0);
        find.reset();
    } else {
        find.reset();
        st_->insert_string.bind(1, s).run();
        id = store_.db().last_insert_rowid();
    }
    // Bounded: a pathological input with millions of distinct names still
    // loads, it just looks them up in the database.
    if (strings_.size() < 1000000) strings_.emplace(std::string(s), id);
    return id;
}

void DbSink::source_rows(const SourceRows& r) {
    SqliteDb& db = store_.db();
    // The table's columns: those known already, then this batch's new ones.
    std::vector<std::string> cols;
    {
        SqliteStmt q(db, "SELECT columns FROM source_table WHERE tbl = ?");
        q.bind(1, std::string_view(r.table));
        if (q.step()) {
            rapidjson::Document d;
            d.Parse(q.column_text(0).c_str());
            if (d.IsArray())
                for (auto& c : d.GetArray())
                    if (c.IsString()) cols.emplace_back(c.GetString());
        }
    }
    size_t known = cols.size();
    for (const std::string& c : r.columns)
        if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
    if (cols.size() != known || known == 0) {
        std::string json = "[";
        for (size_t i = 0; i < cols.size(); ++i) json += (i ? "," : "") + json_quote(cols[i]);
        json += "]";
        SqliteStmt up(db, "INSERT OR REPLACE INTO source_table(tbl, columns) VALUES (?, ?)");
        up.bind(1, std::string_view(r.table)).bind(2, std::string_view(json)).run();
    }
    SqliteStmt ins(db, "INSERT INTO source_row(profile_id, tbl, data) VALUES (?, ?, ?)");
    for (const std::string& row : r.rows) {
        ins.bind(1, profile_rowid_).bind(2, std::string_view(r.table)).bind(3, std::string_view(row));
        ins.run();
    }
}

void DbSink::event(const Event& e) {
    sqlite3* db = store_.db().handle();
    TrackIds track = track_id(e);
    if (e.type == EventType::counter) {
        sqlite3_stmt* c = st_->insert_counter.handle();
        sqlite3_bind_int64(c, 1, e.ts_ns);
        sqlite3_bind_int64(c, 2, track.id);
        sqlite3_bind_double(c, 3, e.value);
        if (sqlite3_step(c) != SQLITE_DONE) store_.db().fail("cannot insert counter");
        sqlite3_reset(c);
        spool_for_layout(e, 0, track.layout);
        return;
    }
    sqlite3_stmt* s = st_->insert_event.handle();
    // Too big is the input's fault, not the database's: name the event's
    // input and line, as for any bad record.  SQLite would
    // otherwise bind NULL and lose the value without a word.
    auto too_big = [&]() {
        return Error("an event holds more than the database stores in one value (" +
                         std::to_string(sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1)) + " bytes, NX_MAX_RECORD_MIB)",
                     source_, e.line);
    };
    auto text = [&](int i, std::string_view v) {
        if (v.empty()) {
            sqlite3_bind_null(s, i);
        } else if (v.size() > static_cast<size_t>(INT32_MAX) ||
                   sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC) == SQLITE_TOOBIG) {
            sqlite3_reset(s);
            throw too_big();
        }
    };
    std::string_view type = to_string(e.type);
    sqlite3_bind_int64(s, 1, profile_rowid_);
    sqlite3_bind_int64(s, 2, track.id);
    sqlite3_bind_text(s, 3, type.data(), static_cast<int>(type.size()), SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, e.ts_ns);
    sqlite3_bind_int64(s, 5, e.dur_ns);
    // The name usually repeats the opcode: stored once (slice.name restores it).
    text(6, e.name == e.opcode ? std::string_view() : e.name);
    text(7, e.opcode);
    auto interned = [&](int i, std::string_view v, std::string& last, int64_t& last_id) {
        if (v.empty()) {
            sqlite3_bind_null(s, i);
            return;
        }
        if (last_id == 0 || v != last) {
            last_id = string_id(v);
            last.assign(v);
        }
        sqlite3_bind_int64(s, i, last_id);
    };
    interned(8, e.hlo_name, last_hlo_, last_hlo_id_);
    interned(9, e.layer, last_layer_, last_layer_id_);
    if (e.bytes >= 0) sqlite3_bind_int64(s, 10, e.bytes); else sqlite3_bind_null(s, 10);
    if (e.flops >= 0) sqlite3_bind_double(s, 11, e.flops); else sqlite3_bind_null(s, 11);
    if (e.model_flops >= 0) sqlite3_bind_double(s, 12, e.model_flops); else sqlite3_bind_null(s, 12);
    text(13, to_string(e.dma_kind));
    text(14, e.tensor);
    // Depth comes from the layout at the end of the profile (lay_out), not
    // from the source: it is the trace's.
    sqlite3_bind_null(s, 15);
    text(16, e.args_json);
    if (e.transpose) sqlite3_bind_int64(s, 17, 1); else sqlite3_bind_null(s, 17);
    if (sqlite3_step(s) != SQLITE_DONE) {
        int code = sqlite3_errcode(db);
        sqlite3_reset(s);
        if (code == SQLITE_TOOBIG) throw too_big();
        store_.db().fail("cannot insert event");
    }
    sqlite3_reset(s);
    int64_t id = sqlite3_last_insert_rowid(db);
    if (first_event_ == 0) first_event_ = id;
    last_event_ = id;
    spool_for_layout(e, id, track.layout);
}

void DbSink::flow(const Flow& f) {
    // A profile's events have contiguous ids from its first one, and the
    // builder says where each end is among them (Flow::from_slice).
    if (first_event_ == 0 || f.from_slice < 0 || f.to_slice < 0 || first_event_ + f.from_slice > last_event_ ||
        first_event_ + f.to_slice > last_event_)
        throw Error("internal: flow " + f.id + " between events the database does not hold");
    SqliteStmt& ins = st_->insert_flow;
    ins.bind(1, profile_rowid_).bind(2, std::string_view(f.id));
    ins.bind(3, first_event_ + f.from_slice).bind(4, first_event_ + f.to_slice);
    ins.bind_text_or_null(5, f.category).bind_text_or_null(6, f.name);
    ins.run();
    layout_flows_.push_back({static_cast<uint64_t>(f.from), static_cast<uint64_t>(f.to), f.category, f.name});
}

void DbSink::end_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    SqliteDb& db = store_.db();
    lay_out();
    std::string record = profile_record_json(info, summary);
    SqliteStmt upd(db, "UPDATE profile SET name = ?, source = ?, format = ?, backend = ?, target = ?, dtype = ?,"
                       " rank = ?, start_ns = ?, end_ns = ?, event_count = ?, first_event_id = ?, last_event_id = ?,"
                       " record = ? WHERE id = ?");
    upd.bind(1, std::string_view(info.name))
        .bind(2, std::string_view(info.source))
        .bind(3, std::string_view(info.format))
        .bind_text_or_null(4, info.backend)
        .bind_text_or_null(5, info.target)
        .bind_text_or_null(6, info.dtype);
    if (info.rank >= 0) upd.bind(7, info.rank); else upd.bind_null(7);
    upd.bind(8, summary.start_ns).bind(9, summary.end_ns).bind(10, summary.events);
    if (first_event_ > 0) upd.bind(11, first_event_).bind(12, last_event_);
    else upd.bind_null(11).bind_null(12);
    upd.bind(13, std::string_view(record)).bind(14, profile_rowid_);
    upd.run();
    SqliteStmt& m = st_->insert_metric;
    for (const MetricValue& mv : summary.metrics) {
        m.bind(1, profile_rowid_).bind(2, std::string_view(mv.name)).bind(3, mv.value);
        m.bind_text_or_null(4, metric_unit(mv.name));
        m.bind(5, std::string_view(mv.measured ? "source" : "derived"));
        m.run();
    }
    db.exec("RELEASE nx_profile");
    in_profile_ = false;
}

void DbSink::abort_profile() {
    if (!in_profile_) return;
    SqliteDb& db = store_.db();
    db.exec("ROLLBACK TO nx_profile");
    db.exec("RELEASE nx_profile");
    in_profile_ = false;
    layout_.clear();
    layout_flows_.clear();
    // Ids cached for this profile's strings may have been rolled back.
    strings_.clear();
    last_hlo_id_ = last_layer_id_ = 0;
}

void DbSink::finish() {
    if (!in_transaction_) return;
    store_.db().exec("COMMIT");
    in_transaction_ = false;
}

}  // namespace nx
