#include "common/store/parquet_table.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "common/io/error.h"
#include "common/parquet/table_reader.h"

namespace nx {

namespace {

// A column of the SQL table: read from the files, a file's constant, or both
// (the constant prunes, the file's rows give the value).
struct SqlColumn {
    std::string name, type;
    int file_column = -1;  // index into spec.columns
    int constant = -1;     // index into spec.constants
};

struct Table {
    ParquetTableSpec spec;
    std::vector<SqlColumn> columns;
};

struct VTab {
    sqlite3_vtab base{};
    Table* table = nullptr;
};

struct Cursor {
    sqlite3_vtab_cursor base{};
    Table* table = nullptr;
    std::vector<size_t> files;        // the files left to read, in order
    size_t next_file = 0;
    size_t current = 0;               // the file being read
    std::vector<std::string> asked;   // file columns read (projection)
    std::vector<int> handle;          // per SQL column: its reader handle, or -1
    std::unique_ptr<parquet::TableReader> reader;
    sqlite3_int64 rowid = 0;
    bool eof = true;
};

int fail(sqlite3_vtab* vt, const std::exception& e) {
    // nx's errors name the file (and row group, column): keep that.
    std::string message = e.what();
    if (const auto* err = dynamic_cast<const Error*>(&e)) message = location_prefix(err->where(), err->line()) + message;
    sqlite3_free(vt->zErrMsg);
    vt->zErrMsg = sqlite3_mprintf("%s", message.c_str());
    return SQLITE_ERROR;
}

bool matches(const SqlValue& c, sqlite3_value* v) {
    switch (sqlite3_value_type(v)) {
        case SQLITE_INTEGER:
            if (const int64_t* i = std::get_if<int64_t>(&c)) return *i == sqlite3_value_int64(v);
            return false;
        case SQLITE_FLOAT:
            if (const int64_t* i = std::get_if<int64_t>(&c)) return static_cast<double>(*i) == sqlite3_value_double(v);
            return false;
        case SQLITE_TEXT:
            if (const std::string* s = std::get_if<std::string>(&c))
                return *s == std::string_view(reinterpret_cast<const char*>(sqlite3_value_text(v)),
                                              static_cast<size_t>(sqlite3_value_bytes(v)));
            if (const int64_t* i = std::get_if<int64_t>(&c))
                return std::to_string(*i) == reinterpret_cast<const char*>(sqlite3_value_text(v));
            return false;
        default: return false;  // NULL equals nothing
    }
}

int x_connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** err) {
    auto* table = static_cast<Table*>(aux);
    std::string schema = "CREATE TABLE x(";
    for (size_t k = 0; k < table->columns.size(); ++k)
        schema += (k ? ", \"" : "\"") + table->columns[k].name + "\" " + table->columns[k].type;
    schema += ")";
    if (int rc = sqlite3_declare_vtab(db, schema.c_str()); rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        return rc;
    }
    // It only reads files it was given: safe in views and triggers too.
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    auto* vt = new VTab;
    vt->table = table;
    *out = &vt->base;
    return SQLITE_OK;
}

int x_disconnect(sqlite3_vtab* vt) {
    delete reinterpret_cast<VTab*>(vt);
    return SQLITE_OK;
}

// idxStr: the columns used (hex), then per argument the constant it binds
// and how ('=' one value, 'i' every value of an IN list).
int x_best_index(sqlite3_vtab* vt, sqlite3_index_info* info) {
    Table* t = reinterpret_cast<VTab*>(vt)->table;
    std::string plan;
    char used[32];
    std::snprintf(used, sizeof used, "%llx;", static_cast<unsigned long long>(info->colUsed));
    plan = used;
    int arg = 0;
    double files = static_cast<double>(t->spec.files.size());
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& c = info->aConstraint[i];
        if (!c.usable || c.iColumn < 0 || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        const SqlColumn& col = t->columns[static_cast<size_t>(c.iColumn)];
        if (col.constant < 0) continue;
        bool in = sqlite3_vtab_in(info, i, 1);
        info->aConstraintUsage[i].argvIndex = ++arg;
        info->aConstraintUsage[i].omit = 1;
        plan += std::to_string(col.constant) + (in ? "i," : "=,");
        files = std::max(1.0, files / (in ? 4 : 100));
    }
    info->idxStr = sqlite3_mprintf("%s", plan.c_str());
    info->needToFreeIdxStr = 1;
    info->estimatedCost = files * 1e4;
    info->estimatedRows = static_cast<sqlite3_int64>(files * 1e4);
    return SQLITE_OK;
}

int x_open(sqlite3_vtab* vt, sqlite3_vtab_cursor** out) {
    auto* c = new Cursor;
    c->table = reinterpret_cast<VTab*>(vt)->table;
    *out = &c->base;
    return SQLITE_OK;
}

int x_close(sqlite3_vtab_cursor* cur) {
    delete reinterpret_cast<Cursor*>(cur);
    return SQLITE_OK;
}

// Opens the next file with a row; eof when none is left.
void advance_file(Cursor& c) {
    while (c.next_file < c.files.size()) {
        c.current = c.files[c.next_file++];
        if (const auto& check = c.table->spec.files[c.current].before_open) check();
        c.reader = std::make_unique<parquet::TableReader>(
            std::vector<std::string>{c.table->spec.files[c.current].path}, c.asked);
        if (c.reader->next()) {
            c.eof = false;
            if (MissingColumns* missing = c.table->spec.missing.get())
                for (size_t h = 0; h < c.asked.size(); ++h)
                    if (!c.reader->column(h)) missing->files_by_column[c.asked[h]].insert(c.current);
            return;
        }
    }
    c.reader.reset();
    c.eof = true;
}

int x_filter(sqlite3_vtab_cursor* cur, int, const char* idx, int argc, sqlite3_value** argv) {
    auto& c = *reinterpret_cast<Cursor*>(cur);
    const Table& t = *c.table;
    try {
        std::string plan = idx ? idx : "";
        size_t semi = plan.find(';');
        uint64_t used = std::stoull(plan.substr(0, semi), nullptr, 16);
        // Which constant each argument binds, and how.
        std::vector<std::pair<int, char>> binds;
        for (size_t at = semi + 1; at < plan.size();) {
            size_t comma = plan.find(',', at);
            std::string item = plan.substr(at, comma - at);
            binds.emplace_back(std::stoi(item.substr(0, item.size() - 1)), item.back());
            at = comma + 1;
        }
        // Whether a file with these constants passes the query's filter.
        auto keeps = [&](const std::vector<SqlValue>& constants) {
            bool keep = true;
            for (int a = 0; a < argc && keep; ++a) {
                const SqlValue& value = constants[static_cast<size_t>(binds[static_cast<size_t>(a)].first)];
                if (binds[static_cast<size_t>(a)].second == '=') {
                    keep = matches(value, argv[a]);
                    continue;
                }
                bool any = false;
                sqlite3_value* v = nullptr;
                for (int rc = sqlite3_vtab_in_first(argv[a], &v); rc == SQLITE_OK && v && !any;
                     rc = sqlite3_vtab_in_next(argv[a], &v))
                    any = matches(value, v);
                keep = any;
            }
            return keep;
        };
        c.files.clear();
        for (size_t f = 0; f < t.spec.files.size(); ++f)
            if (keeps(t.spec.files[f].constants)) c.files.push_back(f);
        if (MissingColumns* missing = t.spec.missing.get())
            for (size_t k = 0; k < t.spec.absent.size(); ++k)
                if (keeps(t.spec.absent[k])) missing->absent_read.insert(k);
        // Only the file columns the query uses are read.
        c.asked.clear();
        c.handle.assign(t.columns.size(), -1);
        for (size_t k = 0; k < t.columns.size(); ++k) {
            bool is_used = k >= 63 ? (used >> 63) & 1 : (used >> k) & 1;
            if (!is_used || t.columns[k].file_column < 0) continue;
            c.handle[k] = static_cast<int>(c.asked.size());
            c.asked.push_back(t.spec.columns[static_cast<size_t>(t.columns[k].file_column)]);
        }
        c.next_file = 0;
        c.rowid = 0;
        advance_file(c);
    } catch (const std::exception& e) {
        return fail(cur->pVtab, e);
    }
    return SQLITE_OK;
}

int x_next(sqlite3_vtab_cursor* cur) {
    auto& c = *reinterpret_cast<Cursor*>(cur);
    try {
        ++c.rowid;
        if (!c.reader->next()) advance_file(c);
    } catch (const std::exception& e) {
        return fail(cur->pVtab, e);
    }
    return SQLITE_OK;
}

int x_eof(sqlite3_vtab_cursor* cur) { return reinterpret_cast<Cursor*>(cur)->eof; }

void result(sqlite3_context* ctx, const SqlValue& v) {
    if (const int64_t* i = std::get_if<int64_t>(&v)) sqlite3_result_int64(ctx, *i);
    else if (const double* d = std::get_if<double>(&v)) sqlite3_result_double(ctx, *d);
    else if (const std::string* s = std::get_if<std::string>(&v))
        sqlite3_result_text(ctx, s->data(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
    else sqlite3_result_null(ctx);
}

int x_column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int k) {
    auto& c = *reinterpret_cast<Cursor*>(cur);
    const SqlColumn& col = c.table->columns[static_cast<size_t>(k)];
    int h = c.handle[static_cast<size_t>(k)];
    if (h < 0) {
        if (col.constant >= 0) result(ctx, c.table->spec.files[c.current].constants[static_cast<size_t>(col.constant)]);
        else sqlite3_result_null(ctx);
        return SQLITE_OK;
    }
    const parquet::ColumnCursor* v = c.reader->column(static_cast<size_t>(h));
    if (!v || v->is_null() || v->is_list()) {
        sqlite3_result_null(ctx);
    } else if (v->holds_integers() && v->is_unsigned() && v->u64() > static_cast<uint64_t>(INT64_MAX)) {
        // SQLite has no uint64: one above INT64_MAX is its exact decimal digits, as TEXT.
        std::string digits = std::to_string(v->u64());
        sqlite3_result_text(ctx, digits.data(), static_cast<int>(digits.size()), SQLITE_TRANSIENT);
    } else if (v->holds_integers()) {
        sqlite3_result_int64(ctx, v->i64());
    } else if (v->holds_reals()) {
        sqlite3_result_double(ctx, v->f64());
    } else {
        std::string_view s = v->str();
        sqlite3_result_text(ctx, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    }
    return SQLITE_OK;
}

int x_rowid(sqlite3_vtab_cursor* cur, sqlite3_int64* out) {
    *out = reinterpret_cast<Cursor*>(cur)->rowid;
    return SQLITE_OK;
}

const sqlite3_module kModule = {
    /* iVersion */ 0,          x_connect, x_connect, x_best_index, x_disconnect, x_disconnect, x_open, x_close,
    x_filter,                  x_next,    x_eof,     x_column,     x_rowid,      nullptr,      nullptr, nullptr,
    nullptr,                   nullptr,   nullptr,   nullptr,      nullptr,      nullptr,      nullptr, nullptr};

void destroy_table(void* p) { delete static_cast<Table*>(p); }

}  // namespace

void create_parquet_table(sqlite3* db, ParquetTableSpec spec) {
    auto table = std::make_unique<Table>();
    for (size_t k = 0; k < spec.columns.size(); ++k)
        table->columns.push_back({spec.columns[k], k < spec.types.size() ? spec.types[k] : "", static_cast<int>(k), -1});
    for (size_t k = 0; k < spec.constants.size(); ++k) {
        auto it = std::find_if(table->columns.begin(), table->columns.end(),
                               [&](const SqlColumn& c) { return c.name == spec.constants[k]; });
        if (it != table->columns.end()) it->constant = static_cast<int>(k);
        else table->columns.push_back({spec.constants[k], k < spec.constant_types.size() ? spec.constant_types[k] : "",
                                       -1, static_cast<int>(k)});
    }
    for (const ParquetTableFile& f : spec.files)
        if (f.constants.size() != spec.constants.size())
            throw Error("internal: a Parquet table file without its constants", f.path);
    table->spec = std::move(spec);
    // A module per table: its client data is the table, freed with it.
    static std::atomic<int> serial{0};
    std::string module = "nx_parquet_" + std::to_string(serial++);
    const std::string name = table->spec.name;
    if (sqlite3_create_module_v2(db, module.c_str(), &kModule, table.get(), destroy_table) != SQLITE_OK)
        throw Error(std::string("cannot register a Parquet table: ") + sqlite3_errmsg(db));
    table.release();
    std::string sql = "CREATE VIRTUAL TABLE temp.\"" + name + "\" USING " + module;
    char* err = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string message = err ? err : "unknown error";
        sqlite3_free(err);
        throw Error("cannot create the Parquet table " + name + ": " + message);
    }
}

}  // namespace nx
