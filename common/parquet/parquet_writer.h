// A Parquet writer beside nx's reader: a flat schema of primitive columns
// (INT64, INT32, DOUBLE, FLOAT, BOOLEAN, UTF-8 strings), required or
// optional, written as a stream of rows (one at a time, or a run of them a
// column at a time).  Values gather one page at a time;
// a full page is encoded and compressed at once, and a row group is held as
// its compressed pages until it is written (memory bounded by a page of
// values, at most page_bytes of a string column's, and a row group of at
// most row_group_bytes of compressed pages, whatever the file's size);
// each column chunk is a dictionary page when its strings repeat, data pages
// of RLE_DICTIONARY indices, DELTA_BINARY_PACKED integers or PLAIN values
// (page v1, RLE definition levels),
// compressed with ZSTD or Snappy through the Debian libraries, with min/max
// and null-count statistics so readers prune row groups.  The file is written
// to a temporary name and renamed on commit(): an interrupted writer leaves
// nothing (io/atomic_file.h).  What it writes, DuckDB and arrow-rs read
// (test/fixtures/parquet: the cross-checks).  Its parts: the value types
// (value_types.h), a page's body by an encoder per type family
// (column_encoders.h), pages compressed and headed (page_writer.h), column
// chunks, row groups and the footer (row_group_writer.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/io/atomic_file.h"
#include "common/io/dir_handle.h"
#include "common/parquet/file_metadata.h"
#include "common/parquet/value_types.h"

namespace nx::parquet {

struct WriterColumn {
    std::string name;
    ValueType type = ValueType::int64;
    bool nullable = true;
    // Min/max in the footer (readers prune row groups on them); off for
    // long free text, where they only cost.
    bool statistics = true;
    // An INT32 or INT64 column DELTA_BINARY_PACKED rather than PLAIN: for
    // values that change little from row to row (timestamps in order, ids
    // in runs), a few bits each instead of 8 bytes for the codec to look
    // through.  Values that jump about (durations) pack worse than PLAIN
    // compresses.  DuckDB, Trino, Athena, arrow and Spark (from 3.3; before,
    // with its vectorized reader off) read it.
    bool delta = false;
};

struct WriterOptions {
    Codec codec = Codec::zstd;        // zstd, snappy or uncompressed
    int zstd_level = 3;
    int64_t row_group_rows = 122880;  // DuckDB's row group; readers like 100K-1M
    int64_t page_values = 32768;      // values per data page
    // Memory bounds for long values (a profile's args text runs to hundreds
    // of bytes a row): a string column's page also ends at page_bytes of
    // values, and a row group, held as compressed pages until it is written,
    // also ends at row_group_bytes of them.
    int64_t page_bytes = int64_t{1} << 20;
    int64_t row_group_bytes = int64_t{32} << 20;
    std::string created_by = "nx";
    std::vector<std::pair<std::string, std::string>> key_value;
    // Columns the rows come sorted by (RowGroup.sorting_columns): readers may
    // use it; the writer does not sort.
    std::vector<size_t> sorted_by;
    // With several lanes: what the pages being filled may hold, all lanes
    // together, before every lane's page is encoded as it stands (and the
    // memory each lane's pages once grew to, freed).
    int64_t lanes_bytes = int64_t{16} << 20;
};

class ParquetWriter {
public:
    // Creates `path`'s temporary file.  Throws Error when it cannot.
    ParquetWriter(std::string path, std::vector<WriterColumn> columns, WriterOptions options = {});
    // The file `name` in a folder nx owns, its temporary name carrying the
    // writer's `tag` (AtomicFile's folder files), published by the caller
    // after finish().
    ParquetWriter(const DirHandle& dir, std::string name, std::string_view tag, std::vector<WriterColumn> columns,
                  WriterOptions options = {});
    ~ParquetWriter();
    ParquetWriter(const ParquetWriter&) = delete;
    ParquetWriter& operator=(const ParquetWriter&) = delete;

    // One row: set each column at most once, then end_row().  A column left
    // unset is null (an error for a required column).  Setting a column with
    // a value of another type is an error.
    void set_int64(size_t column, int64_t v);
    void set_int32(size_t column, int32_t v);
    void set_double(size_t column, double v);
    void set_float(size_t column, float v);
    void set_bool(size_t column, bool v);
    void set_string(size_t column, std::string_view v);
    void set_null(size_t column);
    void end_row();

    // Rows a column at a time: begin_rows(n), then each column's n values
    // at most once (a column left out is null; a required one, an error),
    // then end_rows().  The same file as n set_*()/end_row() rows, less the
    // per-row work (a profile's events come a track's run at a time):
    // n is at most rows_to_boundary(), so that the lane's page and the row
    // group end where they would row by row.  `present` (optional): a byte
    // per row, 0 for a null (its value is ignored).  Where row by row would
    // check the memory bounds (row_group_bytes, lanes_bytes) after each row,
    // it checks them at end_rows(): past lanes_bytes, pages may end up to a
    // run later than row by row.  set_*(), end_row(), lane(), end_group()
    // and commit() are refused between begin_rows() and end_rows().
    size_t rows_to_boundary() const;
    void begin_rows(size_t n);
    void put_int64(size_t column, const int64_t* v, const uint8_t* present = nullptr);
    void put_int32(size_t column, const int32_t* v, const uint8_t* present = nullptr);
    void put_double(size_t column, const double* v, const uint8_t* present = nullptr);
    void put_float(size_t column, const float* v, const uint8_t* present = nullptr);
    void put_bool(size_t column, const uint8_t* v, const uint8_t* present = nullptr);
    // Empty strings are values here; `present` makes nulls.
    void put_string(size_t column, const std::string_view* v, const uint8_t* present = nullptr);
    void end_rows();

    // Lanes: rows of several sorted runs filled side by side (a dataset's
    // events as they come, one lane per track), each lane's pages encoded as
    // they fill.  A row group holds every lane's rows so far, lane by lane
    // (lane 0's, then lane 1's, ...), its column chunks one dictionary each
    // shared by the lanes' pages: when each lane's rows come in sorted_by
    // order and the lanes are in that order too, so is the row group, with
    // no sort at the end.  Rows go to lane 0 until lane(k) picks another
    // (between rows).
    void lane(size_t k);
    // Writes the rows so far as a row group now (a caller whose next row
    // would break the sorted_by order of the group being filled).
    void end_group();
    // The row group being filled is not in sorted_by order: it is written
    // without the claim.
    void group_unsorted();

    int64_t rows() const { return rows_; }
    // Row groups written so far.
    size_t row_groups() const;
    const std::vector<WriterColumn>& columns() const { return columns_; }
    // Bytes written so far (row groups flushed).
    int64_t bytes_written() const;

    // Writes what is buffered, the footer, and renames the file into place
    // (into `path` instead, when given: see AtomicFile::commit_as).
    void commit(const std::string& path = {});
    // Writes what is buffered and the footer, and leaves the file complete
    // and synced under its temporary name (folder files): the caller
    // publishes it (AtomicFile::publish) with the files it belongs with.
    AtomicFile& finish();

    struct State;  // the file, the row group being filled, the footer so far

private:
    // set_*() of a fixed-width value; put_*() of a run of them (T: the C++
    // type of a value type's page values, value_types.h).
    template <class T>
    void set_value(size_t column, T v);
    template <class T>
    void put_values(size_t column, const T* v, const uint8_t* present);
    // The bookkeeping after `n` rows of the lane (end_row, end_rows).
    void rows_added(size_t n);
    // Throws while begin_rows() is open: `what` may not come within it.
    void refuse_in_rows(const char* what) const;
    void check_setup(const std::string& path, const WriterOptions& options) const;
    // The state of an empty file: its columns' chunks, the magic.
    void start();
    // The last row group and the footer.
    void write_footer();

    std::unique_ptr<State> s_;
    size_t batch_rows_ = 0;  // begin_rows' n until end_rows
    std::vector<WriterColumn> columns_;
    int64_t rows_ = 0;
};

}  // namespace nx::parquet
