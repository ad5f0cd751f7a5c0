// SQL over Parquet files without copying them: a SQLite virtual table whose
// rows are read from the files by nx's own reader when a query asks, only
// the columns the query uses.  Each file may carry constant columns of its
// own (a dataset's rank partition and profile, from its path), and a query
// that fixes one of them (rank = 7, profile = 'p_...', rank IN (...)) opens
// only the files that match.  Used by nx-query over a dataset.
#pragma once

#include <sqlite3.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/store/table_function.h"

namespace nx {

struct ParquetTableFile {
    std::string path;
    // One value per ParquetTableSpec::constants column.
    std::vector<SqlValue> constants;
    // Run before the file is opened (may throw: the query's error), e.g. to
    // check it is still the file a database refers to.
    std::function<void()> before_open;
};

// The files a query read that lack a column it asked for (read as NULL
// there): by column, the files' indices in ParquetTableSpec::files.  Files
// written before a table gained a column lack it, and a NULL there means
// "not known", not "none": the caller says so.
struct MissingColumns {
    std::map<std::string, std::set<size_t>> files_by_column;
    // The entries of ParquetTableSpec::absent a query's filter let through:
    // files it would have read, had they been written.
    std::set<size_t> absent_read;
};

struct ParquetTableSpec {
    std::string name;                    // the SQL table's name
    std::vector<std::string> columns;    // read from the files (missing in a file: NULL)
    std::vector<std::string> types;      // their SQL types ("INTEGER", "REAL", "TEXT"), for the schema
    // Columns whose value is the file's, not its rows' (not read from the
    // file, unless also among `columns`: then the file's rows hold the same
    // value and the constant only prunes).
    std::vector<std::string> constants;
    std::vector<std::string> constant_types;
    std::vector<ParquetTableFile> files;
    // The constants of files the table should have and lacks (a dataset's
    // profiles written before the table was): pruned as files are, so a
    // query is told of those it would have read (MissingColumns).
    std::vector<std::vector<SqlValue>> absent;
    // Filled as queries read the files, when given.
    std::shared_ptr<MissingColumns> missing;
};

// Creates the virtual table spec.name (a temp table of the connection) over
// the files.  Errors reading a file surface as the query's error, naming the
// file, row group and column.
void create_parquet_table(sqlite3* db, ParquetTableSpec spec);

}  // namespace nx
