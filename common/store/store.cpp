// The Store: opening a study database in the right mode (creating the
// schema, refusing files that are not nx's, locking read-only sessions) and
// querying several databases as one.
#include "common/store/store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <map>
#include <set>

#include <rapidjson/document.h>

#include "common/io/error.h"
#include "common/io/file_guard.h"
#include "common/io/limits.h"
#include "common/store/kept_sources.h"
#include "common/store/parquet_table.h"
#include "common/store/read_only.h"
#include "common/store/region_store.h"
#include "common/store/described_tables.h"
#include "common/store/schema_version.h"
#include "common/store/sql_functions.h"
#include "common/store/store_schema.h"

namespace nx {

namespace {

// A writer waits this long for another writer (cron jobs sharing a history
// database) before giving up with "database is locked".
constexpr int kBusyTimeoutMs = 120000;
constexpr int kPageSize = 65536;
constexpr int kCacheKiB = 16384;

bool file_exists(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0;
}

// A database opened for reading, or merged in, must be nx's and not empty.
void require_nx_database(SqliteDb& db, const std::string& schema, const std::string& path) {
    if (stored_schema_version(db, schema, path) == 0) throw Error("not an nx study database (it is empty)", path);
}

}  // namespace

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
    else require_nx_database(db_, "main", path);
    if (!also.empty()) merge_databases(also);
    create_source_views();
    if (has_kept_sources()) db_.exec(kept_args_view());
    // A database older than schema 7 has no DMA counter tracks to show.
    if (!also.empty() || table_exists(db_, "main", "counter_sample"))
        db_.exec(counter_view());
    db_.exec(kRegionView);
    if (access == Access::read_only) make_read_only(db_);
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
        require_nx_database(db_, name, also[i]);
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
    // The table's name in `schema`: an older database may hold it under its
    // old name.
    auto name_in = [&](const std::string& schema, const IdColumns& t) {
        bool old = !t.old_name.empty() && !table_exists(db_, schema, t.table) && table_exists(db_, schema, t.old_name);
        return std::string(old ? t.old_name : t.table);
    };
    for (const IdColumns& t : kIdColumns) {
        // The columns of the first database that has the table (main may be
        // older than a database merged in).
        std::vector<std::string> cols;
        for (const std::string& schema : schemas)
            if (cols.empty()) cols = columns_of(schema, name_in(schema, t));
        // Columns and tables added since an older main database was written
        // (the views use them).
        for (const AddedColumn& a : added_columns())
            if (a.table == t.table && std::find(cols.begin(), cols.end(), a.column) == cols.end())
                cols.emplace_back(a.column);
        if (cols.empty()) continue;  // an older main database without this table
        std::string sql = "CREATE TEMP VIEW " + std::string(t.table) + " AS ";
        bool first = true;
        for (size_t k = 0; k < schemas.size(); ++k) {
            // Databases of an older schema may lack a newer table, or columns.
            std::string source = name_in(schemas[k], t);
            std::vector<std::string> has = columns_of(schemas[k], source);
            if (has.empty()) continue;
            if (!first) sql += " UNION ALL ";
            first = false;
            sql += "SELECT ";
            for (size_t c = 0; c < cols.size(); ++c) {
                bool is_id = std::find(t.columns.begin(), t.columns.end(), cols[c]) != t.columns.end();
                if (c) sql += ", ";
                bool missing = std::find(has.begin(), has.end(), cols[c]) == has.end();
                // A database older than schema 6 (no event.lane_id) has no
                // trace depth in event.depth (schema 2: the source's nesting).
                if (!missing && t.table == std::string_view("event") && cols[c] == "depth")
                    missing = std::find(has.begin(), has.end(), "lane_id") == has.end();
                if (missing)
                    sql += "NULL AS " + cols[c];
                else if (is_id && k > 0)
                    sql += cols[c] + " + " + std::to_string(kIdStride * static_cast<int64_t>(k)) + " AS " + cols[c];
                else
                    sql += cols[c];
            }
            sql += " FROM " + schemas[k] + "." + source;
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

bool Store::has_kept_sources() {
    // Every database of a merged set: the first one that has the column says so.
    try {
        if (!has_kept_columns(db_.handle(), "")) return false;
        SqliteStmt any(db_, "SELECT 1 FROM source_ref LIMIT 1");
        return any.step();
    } catch (const Error&) {
    }
    return false;
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
    // Tables kept where they are (kept_sources.h): one Parquet virtual table
    // per source table over every profile's files, profile_id its constant.
    std::map<std::string, std::vector<ParquetTableFile>> kept;
    try {
        SqliteStmt q(db_, "SELECT r.tbl, r.profile_id, f.path, f.bytes, f.mtime_ns, p.name FROM source_ref r "
                          "JOIN source_file f ON f.ref_id = r.id LEFT JOIN profile p ON p.id = r.profile_id "
                          "WHERE r.kind = 'table' ORDER BY r.tbl, r.id, f.part");
        while (q.step()) {
            FileStamp stamp{q.column_text(2), q.column_int(3), q.column_int(4)};
            std::string table = q.column_text(0), profile = q.column_text(5);
            kept[table].push_back({stamp.path, {SqlValue{q.column_int(1)}},
                                   [stamp, table, profile] { check_stamp(stamp, table, profile); }});
        }
    } catch (const Error&) {
        // a database from before kept sources
    }
    // Tables with copied rows (one indexed lookup each, not a scan).
    std::set<std::string> copied;
    for (const auto& entry : tables) {
        try {
            SqliteStmt q(db_, "SELECT 1 FROM source_row WHERE tbl = ? LIMIT 1");
            q.bind(1, std::string_view(entry.first));
            if (q.step()) copied.insert(entry.first);
        } catch (const Error&) {
        }
    }
    for (const auto& [tbl, cols] : tables) {
        if (!plain(tbl)) continue;
        std::vector<std::string> columns;
        for (const std::string& c : cols)
            if (plain(c) && c != "profile_id") columns.push_back(c);
        std::vector<std::string> parts;
        auto k = kept.find(tbl);
        if (k != kept.end()) {
            ParquetTableSpec spec;
            spec.name = "nx_kept_" + tbl;
            spec.columns = columns;
            spec.constants = {"profile_id"};
            spec.constant_types = {"INTEGER"};
            spec.files = std::move(k->second);
            create_parquet_table(db_.handle(), std::move(spec));
            std::string sql = "SELECT profile_id";
            for (const std::string& c : columns) sql += ", \"" + c + "\"";
            parts.push_back(sql + " FROM temp.\"nx_kept_" + tbl + "\"");
        }
        if (copied.count(tbl) || parts.empty()) {
            std::string sql = "SELECT profile_id";
            for (const std::string& c : columns) sql += ", json_extract(data, '$.\"" + c + "\"') AS \"" + c + "\"";
            parts.push_back(sql + " FROM source_row WHERE tbl = '" + tbl + "'");
        }
        std::string sql = "CREATE TEMP VIEW IF NOT EXISTS \"explorer_" + tbl + "\" AS ";
        for (size_t i = 0; i < parts.size(); ++i) sql += (i ? " UNION ALL " : "") + parts[i];
        db_.exec(sql);
    }
}

// A database an older nx wrote: the tables exist (CREATE TABLE IF NOT EXISTS
// left them as they were) without the columns added since.  Their rows read
// NULL there, which every view and query takes as "not known".
void Store::add_missing_columns() {
    for (const AddedColumn& c : added_columns()) {
        SqliteStmt has(db_, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?");
        has.bind(1, c.table).bind(2, c.column);
        if (has.step() && has.column_int(0) > 0) continue;
        db_.exec("ALTER TABLE " + std::string(c.table) + " ADD COLUMN " + std::string(c.column) + " " +
                 std::string(c.type));
    }
}

void Store::init_schema() {
    // Refuse a file that is not nx's before anything (page size, WAL) touches it.
    stored_schema_version(db_, "main", path());
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
        int version = stored_schema_version(db_, "main", path());  // again, under the write lock
        if (version < kSchemaVersion) {
            // Schema 7 keeps the stored samples under their own name, and
            // `counter` is a view over them.
            if (version > 0 && version < 7 && table_exists(db_, "main", "counter"))
                db_.exec("ALTER TABLE counter RENAME TO counter_sample");
            db_.exec(schema_tables_sql());
            // event.depth is the trace's since schema 6; schema 2 kept the
            // source's nesting there (the slice view would read it as the
            // trace's, without a parent), schemas 3 to 5 nothing.
            if (version > 0 && version < 3) db_.exec("UPDATE event SET depth = NULL WHERE depth IS NOT NULL");
            add_missing_columns();
            db_.exec(std::string(kSchemaViewDrops));
            db_.exec(std::string(kSchemaViews));
            db_.exec("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', '" +
                     std::to_string(kSchemaVersion) + "'), ('created_by', 'nx')");
        } else {
            // The described tables grow with their descriptions, not with
            // the schema version: a database of this version may lack a
            // table or a column added since it was written.
            db_.exec(described_tables_sql());
            add_missing_columns();
        }
        db_.exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}
}  // namespace nx
