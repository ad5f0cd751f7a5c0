// SQL over an nx dataset (dataset_layout.h) without loading it: an in-memory
// SQLite connection on which each of the dataset's tables is a Parquet
// virtual table (parquet_table.h) with its rank partition as a column, as
// DuckDB's read_parquet(..., hive_partitioning = true) shows it, so the same
// SQL runs in both.  Read-only, with nx's SQL functions (REGEXP ...).
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/store/parquet_table.h"
#include "common/store/sqlite_db.h"

namespace nx {

class DatasetDb {
public:
    // Throws Error naming `root` when it is not a dataset.
    explicit DatasetDb(const std::string& root);
    SqliteDb& db() { return *db_; }
    const std::string& root() const { return root_; }
    // What the queries so far read as NULL because a file lacks the column
    // (written by an nx from before the table gained it), one line a table:
    // "profiles: 2 of 4 files lack capture_dir, first_step (...)"; and the
    // tables they read that some profiles have no file of (written by an nx
    // from before the table, or removed: their rows are missing, not none);
    // files not read (links; files of a profile with no profiles file).
    std::vector<std::string> missing_column_notes() const;

private:
    struct TableMissing {
        std::string table;
        size_t files = 0;
        std::shared_ptr<MissingColumns> missing;
        std::vector<std::string> absent_ranks;     // of ParquetTableSpec::absent, as text ("6", "NULL")
        std::vector<std::string> absent_profiles;  // and their profiles files
    };
    std::string root_;
    std::unique_ptr<SqliteDb> db_;
    std::vector<TableMissing> missing_;
    std::vector<std::string> skipped_;  // links not followed
    size_t unfinished_files_ = 0;       // files whose profile has no profiles file
    std::set<std::string> unfinished_;
};

}  // namespace nx
