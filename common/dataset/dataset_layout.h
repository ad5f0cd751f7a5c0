// An nx dataset (nx-convert --dataset DIR): normalised profiles as
// Hive-partitioned Parquet tables that DuckDB, Spark, Trino and Athena read
// as they are, one table per folder, partitioned by rank:
//
//   DIR/<table>/rank=<r>/<profile id>.parquet
//   DIR/<table>/rank=__HIVE_DEFAULT_PARTITION__/<profile id>.parquet   (no rank)
//
// Every profile's files are its own (tasks converting profiles in parallel
// share none); a re-run of a profile replaces its files; the profiles table's
// file is put in place last (dataset_commit.h), so a profile is in the
// dataset exactly when its profiles file is, and nx's readers read a table's
// file only where the profile's profiles file is beside it.
// Partition columns live in the path, not in the files; keys are lowercase.
// This file is the one description of the tables (names, columns, types,
// sort order, what each column means), built where it can be from the
// summary's own row descriptions (summary_rows.h); nx(7) DATASET documents
// them and `nx-query --list tables` prints them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parquet/parquet_writer.h"

namespace nx::dataset {

struct Table {
    std::string name;
    std::string description;
    std::vector<parquet::WriterColumn> columns;
    std::vector<std::string> meanings;  // each column's, in order: what nx(7) and `nx-query --list tables` say
    std::vector<size_t> sorted_by;      // the rows come in this column order (events: track, then time)
};

// metrics, engines, breakdown, utilization, collectives, findings, opcodes,
// executions, tracks, events, counters, profiles: in the order a profile's
// files are put in place (profiles last).
const std::vector<Table>& tables();
const Table* find_table(std::string_view name);
// Index of `column` in `t`; throws for a name the table lacks (a bug).
size_t column_index(const Table& t, std::string_view column);
// A column's type as DuckDB names it reading the file (BIGINT, DOUBLE,
// VARCHAR, ...): what `nx-query --list tables` shows.
const char* sql_type_name(parquet::ValueType type);

inline constexpr const char* kNullPartition = "__HIVE_DEFAULT_PARTITION__";
inline constexpr const char* kPartitionKey = "rank";

// "DIR/<table>/rank=<r>" (rank < 0: the null partition), and a profile's
// file in it (its name from dataset_names.h): for messages and readers.
std::string partition_dir(const std::string& root, std::string_view table, int rank);
std::string profile_file(const std::string& root, std::string_view table, int rank, std::string_view profile_id);

// One file of a table as found on disk.
struct TableFile {
    std::string path;
    std::optional<int64_t> rank;   // from its rank=<r> folder; empty for the null partition
    std::string profile_id;        // the id its name spells (dataset_names.h)
};
// Every file of `table` under `root`, by rank then profile id.  Files that
// do not follow the layout (another partition key, a non-numeric rank, a
// hidden name, as a writer's temporary file; a name nx would not write) are
// not the dataset's and are left out; a symbolic link is not followed, and
// named in `skipped`.  A missing table folder is an empty table.
struct TableListing {
    std::vector<TableFile> files;
    std::vector<std::string> skipped;
};
TableListing list_table(const std::string& root, std::string_view table);

// True when `dir` holds a dataset (a profiles folder, or a plan whose
// profiles are all still to convert).
bool is_dataset(const std::string& dir);

}  // namespace nx::dataset
