// Reads one column chunk of one row group a row at a time, decoding one page
// at a time: memory is one page (plus the dictionary) whatever the file size.
// Levels and values are decoded per page into plain arrays; next_row() walks
// them.  Errors carry "row group R, column C" and the file name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/parquet/encodings.h"
#include "common/parquet/parquet_file.h"

namespace nx::parquet {

class ColumnCursor {
public:
    ColumnCursor(const ParquetFile& file, size_t row_group, const ColumnInfo& column);

    // Moves to the next row.  Call once before reading the first row; throws
    // when the column has fewer rows than its row group.  Inline fast path:
    // a flat column's row within the current page (next_row_slow() does the
    // rest: pages, lists, errors).
    void next_row() {
        if (li_ < levels_ && rows_read_ < rows_total_ && !col_.is_list && col_.max_rep == 0) {
            ++rows_read_;
            null_ = col_.max_def != 0 && def_[li_] != static_cast<uint32_t>(col_.max_def);
            if (!null_) cur_ = vi_++;  // load_page() checked there are enough values
            ++li_;
            return;
        }
        next_row_slow();
    }

    const ColumnInfo& info() const { return col_; }
    bool is_null() const { return null_; }
    // Values of the current (non-null, non-list) row.  Integers: BOOLEAN,
    // INT32 and INT64; reals: FLOAT and DOUBLE; text: BYTE_ARRAY,
    // FIXED_LEN_BYTE_ARRAY and INT96 (its 12 raw bytes).
    int64_t i64() const { return int_at(cur_); }
    double f64() const { return real_at(cur_); }
    std::string_view str() const { return strings().at(str_index(cur_)); }

    // Lists: the current row's elements.
    size_t list_size() const { return elem_valid_.size(); }
    bool element_null(size_t k) const { return !elem_valid_[k]; }
    int64_t element_i64(size_t k) const { return elem_ints_[k]; }
    double element_f64(size_t k) const { return elem_reals_[k]; }
    std::string_view element_str(size_t k) const {
        return std::string_view(elem_strs_.bytes).substr(elem_strs_.offsets[k], elem_strs_.offsets[k + 1] - elem_strs_.offsets[k]);
    }

    bool holds_integers() const;
    bool holds_reals() const;
    bool holds_bytes() const { return !holds_integers() && !holds_reals(); }

    // Pages and dictionary entries larger than these are refused as corrupt.
    static constexpr size_t kMaxPageBytes = 256u << 20;
    static constexpr int64_t kMaxPageValues = 16 << 20;

private:
    struct Strings {
        const ByteArrays* arrays = nullptr;
        std::string_view at(uint32_t i) const {
            return std::string_view(arrays->bytes).substr(arrays->offsets[i], arrays->offsets[i + 1] - arrays->offsets[i]);
        }
    };
    Strings strings() const { return Strings{from_dict_ ? &dict_strs_ : &page_strs_}; }
    uint32_t str_index(size_t value) const { return from_dict_ ? indices_[value] : static_cast<uint32_t>(value); }
    // Dictionary pages are not expanded: a value is looked up through its index.
    int64_t int_at(size_t value) const { return from_dict_ ? dict_ints_[indices_[value]] : ints_[value]; }
    double real_at(size_t value) const { return from_dict_ ? dict_reals_[indices_[value]] : reals_[value]; }
    size_t values_in_page() const {
        return from_dict_ ? indices_.size() : holds_integers() ? ints_.size() : holds_reals() ? reals_.size() : page_strs_.size();
    }

    [[noreturn]] void fail(const std::string& message) const;
    void next_row_slow();
    bool load_page();  // false when the chunk has no more pages
    void read_page_header(int64_t& pos, PageHeader& h, size_t& header_len);
    void decode_dictionary(const uint8_t* p, size_t n, int32_t count, Encoding enc);
    void decode_values(const uint8_t* p, size_t n, size_t count, Encoding enc);
    void decode_plain(const uint8_t* p, size_t n, size_t count, std::vector<int64_t>& ints, std::vector<double>& reals,
                      ByteArrays& strs);
    void decode_levels(const uint8_t*& p, const uint8_t* end, int max_level, size_t count, std::vector<uint8_t>& out,
                       bool length_prefixed, size_t v2_length);

    const ParquetFile& file_;
    size_t row_group_;
    ColumnInfo col_;
    Codec codec_;
    int64_t pos_ = 0, end_ = 0;   // the chunk's remaining byte range
    int64_t rows_read_ = 0, rows_total_ = 0;

    std::vector<uint8_t> raw_, page_;  // compressed and decompressed page bytes
    // One byte per level: a page holds as many levels as rows, and levels
    // never exceed the schema's nesting depth (checked: <= 255).
    std::vector<uint8_t> def_, rep_;
    std::vector<uint32_t> level_scratch_;
    size_t levels_ = 0, li_ = 0;      // levels in the page, next level
    size_t vi_ = 0;                   // next value
    bool have_dict_ = false, from_dict_ = false;  // from_dict_: the page's values are indices_
    std::vector<int64_t> dict_ints_;
    std::vector<double> dict_reals_;
    ByteArrays dict_strs_;
    std::vector<uint32_t> indices_;
    std::vector<int64_t> ints_;
    std::vector<double> reals_;
    ByteArrays page_strs_;

    bool null_ = true;
    size_t cur_ = 0;
    std::vector<uint8_t> elem_valid_;
    std::vector<int64_t> elem_ints_;
    std::vector<double> elem_reals_;
    ByteArrays elem_strs_;
};

}  // namespace nx::parquet
