// One Parquet file: its footer decoded and its schema flattened into the
// columns a table reader sees.  Top-level primitive fields and top-level
// LISTs of primitives (the standard 3-level form and the legacy 2-level
// forms) are columns; other nested fields are listed by their dotted path.
// Reading happens with pread, one page at a time (column_cursor.h), so a
// file is never held in memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/parquet/file_metadata.h"

namespace nx::parquet {

struct ColumnInfo {
    std::string name;      // the top-level field name (dotted path for deeper leaves)
    size_t leaf = 0;       // index among the file's leaf columns (= ColumnChunk index)
    PhysicalType type = PhysicalType::int32;
    int32_t type_length = 0;
    int max_def = 0;
    int max_rep = 0;
    bool is_list = false;
    // Lists: definition level at which the list itself is present (below it
    // the row's list is null) and at which an element exists (below it, empty).
    int list_def = 0;
    int element_def = 0;
    bool is_string = false;  // UTF-8 text (checked when read)
    // INT32 or INT64 annotated unsigned (SchemaElement::is_unsigned()): INT32
    // values read zero-extended, INT64 values as their 64 bits (u64()).
    bool is_unsigned = false;
    bool nullable() const { return max_def > (is_list ? element_def : 0); }
};

class ParquetFile {
public:
    // Opens and decodes the footer; throws Error(path) when the file is not
    // Parquet or its footer is corrupt.
    static std::unique_ptr<ParquetFile> open(const std::string& path);
    ~ParquetFile();
    ParquetFile(const ParquetFile&) = delete;
    ParquetFile& operator=(const ParquetFile&) = delete;

    const std::string& path() const { return path_; }
    const FileMetaData& metadata() const { return meta_; }
    const std::vector<ColumnInfo>& columns() const { return columns_; }
    const ColumnInfo* find_column(std::string_view name) const;
    int64_t num_rows() const { return meta_.num_rows; }
    size_t row_groups() const { return meta_.row_groups.size(); }
    // Bytes where column chunks may lie: [4, data_end()).
    int64_t data_end() const { return data_end_; }

    // Reads exactly n bytes at offset; throws Error when the file is shorter.
    void read_at(int64_t offset, size_t n, uint8_t* out) const;

    // Footers larger than this are refused (real ones are kilobytes).
    static constexpr uint32_t kMaxFooterBytes = 64u << 20;

private:
    ParquetFile() = default;
    void build_columns();

    std::string path_;
    int fd_ = -1;
    int64_t size_ = 0;
    int64_t data_end_ = 0;
    FileMetaData meta_;
    std::vector<ColumnInfo> columns_;
};

}  // namespace nx::parquet
