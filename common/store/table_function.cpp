// The SQLite virtual-table module behind every table function
// (table_function.h), and the helpers such functions share.
#include "common/store/table_function.h"

#include <exception>

#include "common/io/error.h"
#include "common/store/store.h"

namespace nx {

namespace {

struct Table {
    sqlite3_vtab base{};
    const TableFunction* def = nullptr;
    sqlite3* db = nullptr;
};

struct Cursor {
    sqlite3_vtab_cursor base{};
    std::unique_ptr<RowSource> rows;
    bool eof = true;
    sqlite3_int64 rowid = 0;
};

const TableFunction& def_of(sqlite3_vtab* v) { return *reinterpret_cast<Table*>(v)->def; }

int x_connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
    const auto* def = static_cast<const TableFunction*>(aux);
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

// Equality constraints on the hidden columns are the arguments; idxNum has a
// bit per argument given.
int x_best_index(sqlite3_vtab* v, sqlite3_index_info* info) {
    const TableFunction& def = def_of(v);
    // The usable equality constraint on each argument, if any.
    std::vector<int> constraint(static_cast<size_t>(def.arguments), -1);
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& c = info->aConstraint[i];
        int arg = c.iColumn - def.visible;
        if (arg < 0 || arg >= def.arguments || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (!c.usable) return SQLITE_CONSTRAINT;  // try another join order
        constraint[static_cast<size_t>(arg)] = i;
    }
    // argv in argument order, whichever order the constraints came in.
    int given = 0, next_argv = 1;
    for (int arg = 0; arg < def.arguments; ++arg) {
        int i = constraint[static_cast<size_t>(arg)];
        if (i < 0) continue;
        info->aConstraintUsage[i].argvIndex = next_argv++;
        info->aConstraintUsage[i].omit = 1;
        given |= 1 << arg;
    }
    info->idxNum = given;
    if (!(given & 1)) {
        // No profile id: a plan SQLite avoids when it has another, and that
        // xFilter refuses with a message (SQLite drops messages set here).
        info->estimatedCost = 1e300;
        info->estimatedRows = 1;
        return SQLITE_OK;
    }
    info->estimatedCost = 1000;
    info->estimatedRows = 1000;
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

int x_next(sqlite3_vtab_cursor* cur) {
    Cursor* c = reinterpret_cast<Cursor*>(cur);
    try {
        c->eof = !c->rows || !c->rows->next();
    } catch (const std::exception& e) {
        cur->pVtab->zErrMsg = sqlite3_mprintf("%s", e.what());
        return SQLITE_ERROR;
    }
    ++c->rowid;
    return SQLITE_OK;
}

int x_filter(sqlite3_vtab_cursor* cur, int idx_num, const char*, int argc, sqlite3_value** argv) {
    Cursor* c = reinterpret_cast<Cursor*>(cur);
    Table* t = reinterpret_cast<Table*>(cur->pVtab);
    c->rows.reset();
    c->rowid = 0;
    c->eof = true;
    if (!(idx_num & 1)) {
        cur->pVtab->zErrMsg = sqlite3_mprintf("%s() needs a profile id, e.g. %s(p.id)", t->def->name, t->def->name);
        return SQLITE_ERROR;
    }
    if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
    std::vector<sqlite3_value*> args(static_cast<size_t>(t->def->arguments), nullptr);
    for (int arg = 0, k = 0; arg < t->def->arguments && k < argc; ++arg)
        if (idx_num & (1 << arg)) args[static_cast<size_t>(arg)] = argv[k++];
    try {
        c->rows = t->def->open(t->db, args);
    } catch (const std::exception& e) {
        cur->pVtab->zErrMsg = sqlite3_mprintf("%s", e.what());
        return SQLITE_ERROR;
    }
    return x_next(cur);
}

int x_eof(sqlite3_vtab_cursor* cur) { return reinterpret_cast<Cursor*>(cur)->eof ? 1 : 0; }

int x_column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
    Cursor* c = reinterpret_cast<Cursor*>(cur);
    if (col < 0 || col >= def_of(cur->pVtab).visible || !c->rows) sqlite3_result_null(ctx);
    else c->rows->column(ctx, col);
    return SQLITE_OK;
}

int x_rowid(sqlite3_vtab_cursor* cur, sqlite3_int64* rowid) {
    *rowid = reinterpret_cast<Cursor*>(cur)->rowid;
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

// Rows computed up front, as SQL values.
class ValueRows : public RowSource {
public:
    explicit ValueRows(std::vector<std::vector<SqlValue>> rows) : rows_(std::move(rows)) {}
    bool next() override { return ++at_ < rows_.size(); }
    void column(sqlite3_context* ctx, int col) const override {
        const std::vector<SqlValue>& row = rows_[at_];
        if (static_cast<size_t>(col) >= row.size()) {
            sqlite3_result_null(ctx);
            return;
        }
        const SqlValue& v = row[static_cast<size_t>(col)];
        if (auto* i = std::get_if<int64_t>(&v)) sqlite3_result_int64(ctx, *i);
        else if (auto* d = std::get_if<double>(&v)) sqlite3_result_double(ctx, *d);
        else if (auto* t = std::get_if<std::string>(&v))
            sqlite3_result_text(ctx, t->c_str(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
        else sqlite3_result_null(ctx);
    }

private:
    std::vector<std::vector<SqlValue>> rows_;
    size_t at_ = static_cast<size_t>(-1);  // before the first row
};

}  // namespace

TableFunction computed_table_function(const char* name, const char* schema, int visible, ComputedRows rows) {
    return {name, schema, visible, 1,
            [rows](sqlite3* db, const std::vector<sqlite3_value*>& args) -> std::unique_ptr<RowSource> {
                return std::make_unique<ValueRows>(rows(db, sqlite3_value_int64(args[0])));
            }};
}

void register_table_function(sqlite3* db, const TableFunction& f) {
    sqlite3_create_module(db, f.name, &kModule, const_cast<TableFunction*>(&f));
}

ProfileLocation locate_profile(int64_t profile_id) {
    int64_t k = profile_id / Store::kIdStride;
    return {k == 0 ? "main" : "db" + std::to_string(k), profile_id - k * Store::kIdStride};
}

ConnStmt::ConnStmt(sqlite3* db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s_, nullptr) != SQLITE_OK) throw Error(sqlite3_errmsg(db));
}

ConnStmt::~ConnStmt() { sqlite3_finalize(s_); }

bool ConnStmt::step() {
    int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) throw Error(sqlite3_errmsg(db_));
    return false;
}

std::string_view ConnStmt::text(int col) const {
    const unsigned char* t = sqlite3_column_text(s_, col);
    return t ? std::string_view(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(s_, col)))
             : std::string_view();
}

}  // namespace nx
