#include "common/store/table_function.h"

#include <exception>

namespace nx {

namespace {

struct Table {
    sqlite3_vtab base{};
    const TableFunction* def = nullptr;
    sqlite3* db = nullptr;
};

struct Cursor {
    sqlite3_vtab_cursor base{};
    std::vector<std::vector<SqlValue>> rows;
    size_t at = 0;
};

int x_connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
    const TableFunction* def = static_cast<const TableFunction*>(aux);
    int rc = sqlite3_declare_vtab(db, def->schema);
    if (rc != SQLITE_OK) return rc;
    auto* t = new Table;
    t->def = def;
    t->db = db;
    *out = &t->base;
    return SQLITE_OK;
}

int x_disconnect(sqlite3_vtab* v) {
    delete reinterpret_cast<Table*>(v);
    return SQLITE_OK;
}

int x_best_index(sqlite3_vtab* v, sqlite3_index_info* info) {
    const TableFunction* def = reinterpret_cast<Table*>(v)->def;
    bool found = false;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& c = info->aConstraint[i];
        if (c.iColumn != def->visible || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (!c.usable) return SQLITE_CONSTRAINT;
        info->aConstraintUsage[i].argvIndex = 1;
        info->aConstraintUsage[i].omit = 1;
        found = true;
    }
    info->idxNum = found ? 1 : 0;
    info->estimatedCost = found ? 1000 : 1e300;
    info->estimatedRows = found ? 100 : 1;
    return SQLITE_OK;
}

int x_open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
    auto* c = new Cursor;
    *out = &c->base;
    return SQLITE_OK;
}

int x_close(sqlite3_vtab_cursor* cur) {
    delete reinterpret_cast<Cursor*>(cur);
    return SQLITE_OK;
}

int x_filter(sqlite3_vtab_cursor* cur, int idx_num, const char*, int argc, sqlite3_value** argv) {
    Cursor* c = reinterpret_cast<Cursor*>(cur);
    Table* t = reinterpret_cast<Table*>(cur->pVtab);
    c->rows.clear();
    c->at = 0;
    if (!idx_num) {
        cur->pVtab->zErrMsg = sqlite3_mprintf("%s() needs a profile id, e.g. %s(p.id)", t->def->name, t->def->name);
        return SQLITE_ERROR;
    }
    if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
    int64_t profile = sqlite3_value_int64(argv[0]);
    try {
        c->rows = t->def->rows(t->db, profile);
    } catch (const std::exception& e) {
        cur->pVtab->zErrMsg = sqlite3_mprintf("%s", e.what());
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

int x_next(sqlite3_vtab_cursor* cur) {
    ++reinterpret_cast<Cursor*>(cur)->at;
    return SQLITE_OK;
}

int x_eof(sqlite3_vtab_cursor* cur) {
    Cursor* c = reinterpret_cast<Cursor*>(cur);
    return c->at >= c->rows.size() ? 1 : 0;
}

int x_column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
    Cursor* c = reinterpret_cast<Cursor*>(cur);
    const std::vector<SqlValue>& row = c->rows[c->at];
    if (col < 0 || static_cast<size_t>(col) >= row.size()) {
        sqlite3_result_null(ctx);
        return SQLITE_OK;
    }
    const SqlValue& v = row[static_cast<size_t>(col)];
    if (auto* i = std::get_if<int64_t>(&v)) sqlite3_result_int64(ctx, *i);
    else if (auto* d = std::get_if<double>(&v)) sqlite3_result_double(ctx, *d);
    else if (auto* s = std::get_if<std::string>(&v))
        sqlite3_result_text(ctx, s->c_str(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
    else sqlite3_result_null(ctx);
    return SQLITE_OK;
}

int x_rowid(sqlite3_vtab_cursor* cur, sqlite3_int64* rowid) {
    *rowid = static_cast<sqlite3_int64>(reinterpret_cast<Cursor*>(cur)->at);
    return SQLITE_OK;
}

const sqlite3_module kModule = {
    0,        // iVersion
    nullptr,  // xCreate: eponymous only (a table-valued function)
    x_connect, x_best_index, x_disconnect,
    nullptr,  // xDestroy
    x_open, x_close, x_filter, x_next, x_eof, x_column, x_rowid,
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
};

}  // namespace

void register_table_function(sqlite3* db, const TableFunction& f) {
    sqlite3_create_module(db, f.name, &kModule, const_cast<TableFunction*>(&f));
}

}  // namespace nx
