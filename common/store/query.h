// Running SQL against a study database for nx-query (and nx-report): named
// queries from queries/*.sql with their header comments, --param binding, and
// results rendered through RowWriter.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/format/row_format.h"
#include "common/store/store.h"

namespace nx {

struct NamedQuery {
    std::string name;         // file stem
    std::string description;  // first header line after "NAME:"
    std::string columns;      // "-- columns: ..."
    std::string params;       // "-- params: ..."
    std::string sql;
    std::string path;
};

// Reads every *.sql in `dir`, sorted by name.  Throws Error on unreadable files.
std::vector<NamedQuery> load_named_queries(const std::string& dir);
// The directory of named queries ($NX_DATA_DIR/queries, installed, or source tree).
std::string named_query_dir();

// Parameter values by name (without the leading ':').  Values that read as
// integers or reals are bound as numbers, everything else as text.
using QueryParams = std::map<std::string, std::string>;

// Runs every statement of `sql`; each statement that returns rows is written
// as one result through a RowWriter.  Throws Error("...: <sqlite message>")
// naming `where` (the query name or file).  Returns the number of rows.
size_t run_sql(SqliteDb& db, const std::string& sql, const QueryParams& params, RowFormat format, Output& out,
               const std::string& where);

// Stops the SQL of `store` once it has run `seconds` (a progress handler
// checked every few thousand VM steps; 0 = no limit): the running statement
// fails, and run_sql's Error says the limit was reached.
class QueryTimeout {
public:
    QueryTimeout(SqliteDb& db, double seconds);
    ~QueryTimeout();
    QueryTimeout(const QueryTimeout&) = delete;
    QueryTimeout& operator=(const QueryTimeout&) = delete;
    bool expired() const { return expired_; }

private:
    static int check(void* self);
    SqliteDb& db_;
    double deadline_ = 0;  // steady-clock seconds
    bool expired_ = false;
};

// Same, collecting rows instead of printing them (for nx-report).
struct QueryResult {
    std::vector<std::string> columns;
    std::vector<std::vector<Cell>> rows;
};
QueryResult query_rows(SqliteDb& db, const std::string& sql, const QueryParams& params, const std::string& where);

}  // namespace nx
