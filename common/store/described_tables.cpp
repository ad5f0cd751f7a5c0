// engine_stat and execution, from the row descriptions of summary_rows.h.
#include "common/store/described_tables.h"

#include "common/io/error.h"
#include "common/store/table_function.h"

namespace nx {

namespace {

template <class Row>
std::vector<SqlColumn> columns_of(const std::vector<Field<Row>>& fields) {
    std::vector<SqlColumn> out;
    for (const Field<Row>& f : fields) out.push_back({std::string(f.name), f.type, f.nullable});
    return out;
}

template <class Row>
std::vector<Field<Row>> all_of(Fields<Row> fields) {
    return std::vector<Field<Row>>(fields.begin(), fields.end());
}

const std::vector<Field<ExecutionStat>>& execution_fields() {
    static const std::vector<Field<ExecutionStat>> f = all_of<ExecutionStat>(kExecutionFields);
    return f;
}

template <class Row>
std::string insert_sql(const std::string& table, const std::vector<Field<Row>>& fields) {
    std::string names = "profile_id, ord", marks = "?, ?";
    for (const Field<Row>& f : fields) {
        names += ", " + std::string(f.name);
        marks += ", ?";
    }
    return "INSERT INTO " + table + "(" + names + ") VALUES (" + marks + ")";
}

void bind_value(SqliteStmt& s, int i, const FieldValue& v) {
    if (const auto* n = std::get_if<int64_t>(&v)) s.bind(i, *n);
    else if (const auto* d = std::get_if<double>(&v)) s.bind(i, *d);
    else if (const auto* t = std::get_if<std::string_view>(&v)) s.bind(i, *t);
    else s.bind_null(i);
}

template <class Row>
void insert_rows(SqliteDb& db, const std::string& table, const std::vector<Field<Row>>& fields, int64_t profile_id,
                 const std::vector<Row>& rows) {
    if (rows.empty()) return;
    SqliteStmt ins(db, insert_sql(table, fields));
    int64_t ord = 0;
    for (const Row& r : rows) {
        ins.bind(1, profile_id).bind(2, ord++);
        for (size_t k = 0; k < fields.size(); ++k) bind_value(ins, 3 + static_cast<int>(k), fields[k].get(r));
        ins.run();
    }
}

}  // namespace

std::string_view sql_type(FieldType t) {
    switch (t) {
        case FieldType::int64:
        case FieldType::int32: return "INTEGER";
        case FieldType::float64: return "REAL";
        case FieldType::text: return "TEXT";
    }
    return "TEXT";
}

const std::vector<Field<EngineStat>>& stored_engine_fields() {
    static const std::vector<Field<EngineStat>> f = [] {
        std::vector<Field<EngineStat>> out;
        for (std::string_view name : kStoredEngineFields) {
            const Field<EngineStat>* field = find_field<EngineStat>(kEngineFields, name);
            if (!field) throw std::logic_error("kStoredEngineFields names no engine field " + std::string(name));
            out.push_back(*field);
        }
        return out;
    }();
    return f;
}

const std::vector<DescribedTable>& described_tables() {
    static const std::vector<DescribedTable> t = {
        {"engine_stat", columns_of(stored_engine_fields())},
        {"execution", columns_of(execution_fields())},
    };
    return t;
}

std::string described_tables_sql() {
    std::string sql;
    for (const DescribedTable& t : described_tables()) {
        sql += "CREATE TABLE IF NOT EXISTS " + t.name + "(\n    profile_id INTEGER NOT NULL,\n    ord INTEGER NOT NULL,\n";
        for (const SqlColumn& c : t.columns)
            sql += "    " + c.name + " " + std::string(sql_type(c.type)) + (c.nullable ? "" : " NOT NULL") + ",\n";
        sql += "    PRIMARY KEY(profile_id, ord)\n) WITHOUT ROWID;\n";
    }
    return sql;
}

void insert_engine_stats(SqliteDb& db, int64_t profile_id, const std::vector<EngineStat>& rows) {
    insert_rows(db, "engine_stat", stored_engine_fields(), profile_id, rows);
}

void insert_executions(SqliteDb& db, int64_t profile_id, const std::vector<ExecutionStat>& rows) {
    insert_rows(db, "execution", execution_fields(), profile_id, rows);
}

std::vector<EngineStat> read_engine_stats(sqlite3* db, const std::string& schema, int64_t profile_id) {
    const std::vector<Field<EngineStat>>& fields = stored_engine_fields();
    std::string names;
    for (const Field<EngineStat>& f : fields) names += (names.empty() ? "" : ", ") + std::string(f.name);
    ConnStmt q(db, "SELECT " + names + " FROM " + schema + ".engine_stat WHERE profile_id = ? ORDER BY ord");
    q.bind(1, profile_id);
    std::vector<EngineStat> rows;
    while (q.step()) {
        EngineStat st;
        bool keep = true;
        for (size_t k = 0; k < fields.size() && keep; ++k) {
            int col = static_cast<int>(k);
            FieldValue v;
            if (q.null(col)) v = std::monostate{};
            else if (fields[k].type == FieldType::float64) v = q.f64(col);
            else if (fields[k].type == FieldType::text) v = q.text(col);
            else v = q.i64(col);
            keep = fields[k].set(st, v);
        }
        if (keep) rows.push_back(st);
    }
    return rows;
}

}  // namespace nx
