// Kept source tables (kept_sources.h): stamps, the row reader behind
// source_args() and the carried tables' scans.
#include "common/store/kept_sources.h"

#include <sys/stat.h>

#include <cstdlib>
#include <list>

#include "common/io/error.h"
#include "common/io/real_path.h"
#include "common/parquet/row_json.h"
#include "common/parquet/table_reader.h"
#include "common/records/jsonl.h"
#include "common/store/store.h"
#include "common/store/table_function.h"

namespace nx {

namespace {

int64_t mtime_of(const struct stat& st) {
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

}  // namespace

FileStamp stamp_file(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw Error("cannot stat the source file", path);
    return {real_path(path), static_cast<int64_t>(st.st_size), mtime_of(st)};
}

void check_stamp(const FileStamp& f, std::string_view table, std::string_view profile) {
    struct stat st {};
    std::string what = "the " + std::string(table) + " table of profile " + std::string(profile);
    std::string fix = ": nx reads it from there (it keeps Explorer's tables in place); re-import the profile, or "
                      "import it with nx-convert --copy-source to keep its rows in the database";
    if (stat(f.path.c_str(), &st) != 0)
        throw Error(what + " is gone from here since the import (moved or deleted?)" + fix, f.path);
    if (st.st_size != f.bytes || mtime_of(st) != f.mtime_ns)
        throw Error(what + " changed since the import (" + std::to_string(st.st_size) + " bytes, was " +
                        std::to_string(f.bytes) + (mtime_of(st) != f.mtime_ns ? ", and a new modification time" : "") +
                        ")" + fix,
                    f.path);
}

struct KeptTable::Reader {
    std::unique_ptr<parquet::TableReader> table;
    std::unique_ptr<parquet::RowJson> json;
};

KeptTable::KeptTable(sqlite3* db, const std::string& schema, int64_t ref_id) {
    ConnStmt ref(db, "SELECT r.tbl, r.columns, p.name, r.kind, r.rows FROM " + schema + ".source_ref r LEFT JOIN " +
                         schema + ".profile p ON p.id = r.profile_id WHERE r.id = ?");
    ref.bind(1, ref_id);
    if (!ref.step()) throw Error("internal: no kept source table " + std::to_string(ref_id) + " in the database");
    table_ = std::string(ref.text(0));
    columns_ = parse_json_string_array(ref.text(1));
    profile_ = std::string(ref.text(2));
    events_ = ref.text(3) == "events";
    rows_ = ref.i64(4);
    ConnStmt files(db, "SELECT path, bytes, mtime_ns FROM " + schema + ".source_file WHERE ref_id = ? ORDER BY part");
    files.bind(1, ref_id);
    while (files.step()) files_.push_back({std::string(files.text(0)), files.i64(1), files.i64(2)});
    if (files_.empty()) throw Error("internal: kept source table " + table_ + " has no files");
}

KeptTable::~KeptTable() = default;

void KeptTable::check() const {
    for (const FileStamp& f : files_) check_stamp(f, table_, profile_);
}

void KeptTable::open() {
    if (reader_) return;
    check();
    std::vector<std::string> paths;
    for (const FileStamp& f : files_) paths.push_back(f.path);
    reader_ = std::make_unique<Reader>();
    reader_->table = std::make_unique<parquet::TableReader>(std::move(paths), columns_);
    reader_->table->first_file();
    reader_->json = std::make_unique<parquet::RowJson>(reader_->table->names());
}

std::string_view KeptTable::row_json(int64_t row) {
    open();
    if (!reader_->table->seek(row))
        throw Error("the " + table_ + " table of profile " + profile_ + " has no row " + std::to_string(row) +
                        ": it has fewer rows than at import (rewritten in place?)",
                    files_.front().path);
    return reader_->json->write(*reader_->table, 0);
}

void KeptTable::scan(const std::function<void(std::string_view)>& fn) {
    check();
    // Its own reader: a scan reads every row from the first, whatever was sought.
    std::vector<std::string> paths;
    for (const FileStamp& f : files_) paths.push_back(f.path);
    parquet::TableReader all(std::move(paths), columns_);
    parquet::RowJson json(all.names());
    while (all.next()) {
        std::string_view row = json.write(all, 0);
        fn(row.empty() ? std::string_view("{}") : row);
    }
}

void KeptTable::scan_columns(const std::vector<std::string>& columns,
                             const std::function<void(const parquet::TableReader&)>& fn) {
    check();
    std::vector<std::string> paths;
    for (const FileStamp& f : files_) paths.push_back(f.path);
    parquet::TableReader some(std::move(paths), columns);
    while (some.next()) fn(some);
}

namespace {

// The tables one connection reads args from, the most recent first: a scan
// of a profile's events walks one or two tables in row order, so a handful
// covers it, and each keeps its decoded row group.
class KeptTables {
public:
    KeptTable& get(sqlite3* db, int64_t ref_id) {
        for (auto it = open_.begin(); it != open_.end(); ++it) {
            if (it->first != ref_id) continue;
            if (it != open_.begin()) open_.splice(open_.begin(), open_, it);
            return *open_.front().second;
        }
        ProfileLocation at = locate_profile(ref_id);  // merged databases offset every id alike
        open_.emplace_front(ref_id, std::make_unique<KeptTable>(db, at.schema, at.local));
        if (open_.size() > kOpen) open_.pop_back();
        return *open_.front().second;
    }

private:
    static constexpr size_t kOpen = 8;
    std::list<std::pair<int64_t, std::unique_ptr<KeptTable>>> open_;
};

void source_args_function(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    auto* tables = static_cast<KeptTables*>(sqlite3_user_data(ctx));
    try {
        KeptTable& t = tables->get(sqlite3_context_db_handle(ctx), sqlite3_value_int64(argv[0]));
        std::string_view json = t.row_json(sqlite3_value_int64(argv[1]));
        if (json.empty()) sqlite3_result_null(ctx);
        else sqlite3_result_text(ctx, json.data(), static_cast<int>(json.size()), SQLITE_TRANSIENT);
    } catch (const Error& e) {
        std::string message = location_prefix(e.where(), e.line()) + e.what();
        sqlite3_result_error(ctx, message.c_str(), -1);
    } catch (const std::exception& e) {
        sqlite3_result_error(ctx, e.what(), -1);
    }
}

}  // namespace

void register_source_functions(sqlite3* db) {
    // Not DETERMINISTIC: the answer depends on files outside the database.
    // DIRECTONLY: a database's own views and triggers cannot call it (nx's
    // temp args view can), so a file handed to nx cannot read other files.
    sqlite3_create_function_v2(db, "source_args", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, new KeptTables, source_args_function,
                               nullptr, nullptr, [](void* p) { delete static_cast<KeptTables*>(p); });
}

bool has_kept_columns(sqlite3* db, const std::string& schema) {
    ConnStmt has(db, schema.empty() ? "SELECT count(*) FROM pragma_table_info('event') WHERE name = 'src_tbl'"
                                    : "SELECT count(*) FROM pragma_table_info('event', ?) WHERE name = 'src_tbl'");
    if (!schema.empty()) has.bind(1, schema);
    return has.step() && has.i64(0) > 0;
}

std::string event_args_sql(sqlite3* db, const std::string& schema, const std::string& alias) {
    std::string a = alias.empty() ? "" : alias + ".";
    if (!has_kept_columns(db, schema)) return a + "args";
    // source_args() takes the merged id (store.h): a database merged in as
    // dbK, read directly, holds its own ids.
    int64_t k = schema.rfind("db", 0) == 0 ? std::atoll(schema.c_str() + 2) : 0;
    std::string ref = a + "src_tbl";
    if (k > 0) ref = "(" + ref + " + " + std::to_string(k * Store::kIdStride) + ")";
    return "COALESCE(" + a + "args, source_args(" + ref + ", " + a + "src_row))";
}

std::vector<KeptSource> stored_kept_sources(sqlite3* db, int64_t profile_rowid) {
    std::vector<int64_t> refs;
    try {
        ConnStmt q(db, "SELECT id FROM source_ref WHERE profile_id = ? ORDER BY id");
        q.bind(1, profile_rowid);
        while (q.step()) refs.push_back(q.i64(0));
    } catch (const Error&) {
        return {};  // a database from before kept sources
    }
    std::vector<KeptSource> out;
    for (int64_t ref : refs) {
        KeptTable t(db, "main", ref);
        KeptSource k;
        k.id = static_cast<int32_t>(ref);
        k.table = t.table();
        k.events = t.events();
        k.columns = t.columns();
        k.files = t.files();
        k.rows = t.rows();
        out.push_back(std::move(k));
    }
    return out;
}

std::vector<std::string> kept_files(sqlite3* db, const std::string& schema, int64_t ref_id) {
    KeptTable t(db, schema, ref_id);
    return t.files();
}

namespace {

// The carried tables `tbl` of a profile keeps in place (source_ref ids);
// none for a database from before kept sources.
std::vector<int64_t> kept_table_refs(sqlite3* db, const std::string& schema, int64_t profile_local, std::string_view tbl) {
    std::vector<int64_t> refs;
    try {
        ConnStmt q(db, "SELECT id FROM " + schema + ".source_ref WHERE profile_id = ? AND tbl = ? AND kind = 'table' "
                       "ORDER BY id");
        q.bind(1, profile_local).bind(2, tbl);
        while (q.step()) refs.push_back(q.i64(0));
    } catch (const Error&) {
        refs.clear();
    }
    return refs;
}

}  // namespace

bool scan_kept_rows(sqlite3* db, const std::string& schema, int64_t profile_local, std::string_view tbl,
                    const std::function<void(std::string_view)>& fn) {
    std::vector<int64_t> refs = kept_table_refs(db, schema, profile_local, tbl);
    for (int64_t ref : refs) KeptTable(db, schema, ref).scan(fn);
    return !refs.empty();
}

bool scan_kept_columns(sqlite3* db, const std::string& schema, int64_t profile_local, std::string_view tbl,
                       const std::vector<std::string>& columns,
                       const std::function<void(const parquet::TableReader&)>& fn) {
    std::vector<int64_t> refs = kept_table_refs(db, schema, profile_local, tbl);
    for (int64_t ref : refs) KeptTable(db, schema, ref).scan_columns(columns, fn);
    return !refs.empty();
}

}  // namespace nx
