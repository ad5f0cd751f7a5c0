// A table as a reader sees it: one Parquet file, or a numbered split set
// (`Table_0.parquet`, `Table_1.parquet`, ...) read in order as one table, with
// only the columns asked for (projection), or those and then every other.
// The table's columns are the union of its files' (a writer may add a column
// in a later part only): every file's footer is read before the first row,
// and a column a file lacks reads as null in that file's rows.  Rows stream
// one row group at a time through one cursor per column, reused from row
// group to row group and sharing one buffer for compressed pages.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/parquet/column_cursor.h"
#include "common/parquet/parquet_file.h"

namespace nx::parquet {

class TableReader {
public:
    enum class Others { skip, add };
    // `files` in split order; `columns` the names asked for, followed with
    // Others::add by every other column of the files, in the order first
    // seen (the first file's in its order, then those only later files
    // have); a column handle is its index in names().  With Others::add
    // every footer is read here; throws Error when two files give one
    // column incompatible types (naming both).
    TableReader(std::vector<std::string> files, std::vector<std::string> columns, Others others = Others::skip);
    const std::vector<std::string>& names() const { return names_; }

    // Advances to the next row; false after the last one.
    bool next();
    // Moves to row `row` of the table (0-based, counting through the split
    // files in order); false when the table has fewer rows.  Forward within
    // the current row group it only advances; anywhere else it opens the row
    // group that holds the row (rows of a file are found from the footers).
    // Random access for rows kept in place (store/source_rows.h).
    bool seek(int64_t row);
    // The current row's place in the table (0-based; -1 before the first).
    int64_t table_row() const { return group_first_ + row_; }

    // The current row's cursor for column handle `i`, or nullptr when the
    // current file has no such column (its values are null).
    const ColumnCursor* column(size_t i) const { return view_[i]; }
    // The column's description in the first file that has it, or nullptr
    // when no file has it (known once first_file() or next() has read the
    // footers; types are checked then, before any row is read).
    const ColumnInfo* info(size_t i) const;

    // Where the current row is, for messages: "FILE", row group, row.
    const std::string& file() const { return files_[file_index_]; }
    size_t row_group() const { return group_; }
    int64_t row() const { return row_; }
    // The first file's footer (schema, created_by), opened if needed, after
    // every file's footer has been read for the table's columns.
    const ParquetFile& first_file();

private:
    // Reads every file's footer once: the columns (with `add`, appending
    // those not asked for), their descriptions and types, the rows of each
    // file.  The first file stays open.
    void scan(bool add);
    bool open_file(size_t index);
    bool open_group();
    // The first table row of each file (from the footers scan() read), and
    // the table's rows after the last: file_first_row(files_.size()).
    int64_t file_first_row(size_t index);
    // Reads rows of the open row group up to table row `target` (in it).
    void advance_to(int64_t target);

    std::vector<std::string> files_;
    std::vector<std::string> names_;
    std::unique_ptr<ParquetFile> file_;
    size_t file_index_ = 0;
    bool scanned_ = false;     // scan() has read every footer
    bool started_ = false;     // the first file is open
    bool group_open_ = false;  // a row group is being read
    size_t group_ = 0;
    int64_t group_rows_ = 0, row_ = -1;
    int64_t group_first_ = 0;              // the table row of the open row group's first row
    std::vector<int64_t> file_first_;      // file_first_row(), filled by scan()
    std::vector<std::unique_ptr<ColumnCursor>> cursors_;  // kept for the next row group
    std::vector<ColumnCursor*> view_;                      // by handle: the cursor, or nullptr when the current file lacks the column
    std::vector<ColumnCursor*> live_;                      // the active cursors, for next()
    PageBuffer scratch_;                                   // compressed pages, for every cursor
    std::vector<std::unique_ptr<ColumnInfo>> infos_;      // by handle: from the first file that has the column
    std::vector<size_t> info_file_;                        // by handle: which file that is
};

}  // namespace nx::parquet
