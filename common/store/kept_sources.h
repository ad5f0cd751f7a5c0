// Source tables a study database refers to instead of copying (Neuron
// Explorer's Parquet): where each kept table's files are, checked against the
// size and time they had at import, and read back by row when asked.  An
// event keeps (src_tbl, src_row), its table's id and its row there; its args
// are that row's columns no event column holds, rendered as the JSON the
// import would have stored.  Carried tables (Flow, TensorInfo, ...) are read
// whole (scan_kept_rows, the explorer_<Table> views).  A moved, changed or
// deleted source is an error naming the file and what to do, never a silent
// empty answer.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/profile_sink.h"

namespace nx::parquet {
class TableReader;
}

namespace nx {

// A file as import found it: its absolute path, size and modification time.
struct FileStamp {
    std::string path;
    int64_t bytes = -1;
    int64_t mtime_ns = -1;
};
// `path` made absolute and stamped; throws Error when it cannot be read.
FileStamp stamp_file(const std::string& path);
// Throws Error naming the file when it is gone or no longer the one stamped
// (`table` and `profile` say what reads it).
void check_stamp(const FileStamp& expected, std::string_view table, std::string_view profile);

// One kept table of one profile, from the database (schema "main", "db1"...):
// its files, checked when first read, and its rows by number.
class KeptTable {
public:
    // Loads source_ref `ref_id` (local to `schema`) and its files; throws
    // Error when the database has no such ref.
    KeptTable(sqlite3* db, const std::string& schema, int64_t ref_id);
    ~KeptTable();

    const std::string& table() const { return table_; }
    bool events() const { return events_; }  // its rows are events (columns: their args), else a carried table
    const std::vector<std::string>& columns() const { return columns_; }
    int64_t rows() const { return rows_; }
    // Its files' paths in split order, each checked against its stamp.
    std::vector<std::string> files() const {
        check();
        std::vector<std::string> paths;
        for (const FileStamp& f : files_) paths.push_back(f.path);
        return paths;
    }
    // Row `row` as a JSON object of its non-null kept columns (the event's
    // args for event tables, every column for carried ones); empty when all
    // are null.  Valid until the next call.  Throws Error for a changed
    // source or a row past the table's end.
    std::string_view row_json(int64_t row);
    // Every row in order, as row_json gives them ("{}" for an all-null row).
    void scan(const std::function<void(std::string_view)>& fn);
    // Every row in order, as the files type them: `fn` gets a reader of just
    // `columns` (in that order) on each row, without a row's JSON.
    void scan_columns(const std::vector<std::string>& columns,
                      const std::function<void(const parquet::TableReader&)>& fn);

private:
    void check() const;  // every file still the one stamped at import
    void open();         // the reader row_json seeks in

    std::string table_, profile_;
    bool events_ = false;
    int64_t rows_ = 0;
    std::vector<std::string> columns_;  // read, in this order (the args' order)
    std::vector<FileStamp> files_;
    struct Reader;
    std::unique_ptr<Reader> reader_;
};

// Registers source_args(src_tbl, src_row) on the connection: the args JSON of
// an event whose source is kept in place, NULL when src_tbl is NULL.  Ids
// are those of the (maybe merged, store.h) database.
void register_source_functions(sqlite3* db);

// Whether the event table has the columns of kept sources (src_tbl: schema
// 5 on) in `schema` ("main", "db1"...), or as an unqualified name resolves
// (the merged temp view) when `schema` is empty.
bool has_kept_columns(sqlite3* db, const std::string& schema);

// The SQL for an event's args JSON in `schema` ("e" the event's alias):
// from source_args() where the database keeps sources in place, the args
// column in a database from before (no src_tbl column).
std::string event_args_sql(sqlite3* db, const std::string& schema, const std::string& alias);

// A stored profile's kept sources as an importer announced them (KeptSource:
// id is the source_ref id here), each file checked against its stamp (throws
// Error naming a moved or changed one); none in a database from before.
std::vector<KeptSource> stored_kept_sources(sqlite3* db, int64_t profile_rowid);

// The files of kept source `ref_id` (local to `schema`) in split order,
// each checked against its stamp (throws Error naming a moved or changed one).
std::vector<std::string> kept_files(sqlite3* db, const std::string& schema, int64_t ref_id);

// Every row of kept table `tbl` of a profile (local id in `schema`), as
// row_json gives them; false when the profile keeps no such table in place.
bool scan_kept_rows(sqlite3* db, const std::string& schema, int64_t profile_local, std::string_view tbl,
                    const std::function<void(std::string_view)>& fn);
// The same rows through KeptTable::scan_columns.
bool scan_kept_columns(sqlite3* db, const std::string& schema, int64_t profile_local, std::string_view tbl,
                       const std::vector<std::string>& columns,
                       const std::function<void(const parquet::TableReader&)>& fn);

}  // namespace nx
