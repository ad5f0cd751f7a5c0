// Reads one column chunk of one row group a row at a time.  A page is
// decompressed whole (codecs work on pages), but its levels and values are
// decoded in slices of kSlice levels: PLAIN values are taken from the page
// bytes a slice at a time (strings as views into them), dictionary indices
// are decoded a slice at a time and looked up when read, so besides the page
// bytes a cursor holds a fixed number of rows whatever the page size.  Only
// the rare DELTA_* and BYTE_STREAM_SPLIT encodings are decoded a page at a
// time.  A cursor moves on to the next row group with reset(), keeping its
// buffers.  Errors carry "row group R, column C" and the file name.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/parquet/decoding.h"
#include "common/parquet/parquet_file.h"
#include "common/parquet/rle_encoding.h"

namespace nx::parquet {

// Bytes that are reused rather than reallocated and never zero-filled: the
// page buffers of the cursors.  They are mapped from the system, not taken
// from malloc's heap: a buffer that grows frees its old pages at once, where
// the heap would keep a hole and the process's memory would creep up with
// the row groups read.
class PageBuffer {
public:
    PageBuffer() = default;
    PageBuffer(const PageBuffer&) = delete;
    PageBuffer& operator=(const PageBuffer&) = delete;
    ~PageBuffer() { release(); }
    // At least n bytes; earlier contents are not kept when it grows (by an
    // eighth to spare: pages of one column differ by a few bytes).
    uint8_t* reserve(size_t n) {
        if (n > cap_ || !p_) grow(n);
        return p_;
    }
    uint8_t* data() const { return p_; }

private:
    void grow(size_t n);
    void release();
    uint8_t* p_ = nullptr;
    size_t cap_ = 0;
};

// Aligned so that what next_row() and the accessors touch is one cache line:
// a reader walks dozens of cursors per row.
class alignas(64) ColumnCursor {
public:
    // `scratch` holds compressed bytes only while a page is decompressed, so
    // the cursors of one reader share one (nullptr: the cursor has its own).
    ColumnCursor(const ParquetFile& file, size_t row_group, const ColumnInfo& column, PageBuffer* scratch = nullptr);
    // Moves to another column chunk, keeping the buffers.
    void reset(const ParquetFile& file, size_t row_group, const ColumnInfo& column);

    // Moves to the next row.  Call once before reading the first row; throws
    // when the column has fewer rows than its row group.  Inline fast path:
    // a flat column's row within the current slice (next_row_slow() does the
    // rest: slices, pages, lists, errors).
    void next_row() {
        if (li_ < fast_end_) {
            ++rows_read_;
            null_ = def_[li_++] != max_def_;  // def_ is all 0 when max_def_ is
            cur_ = vi_;
            vi_ += !null_;  // the slice holds a value per present level
            return;
        }
        next_row_slow();
    }

    const ColumnInfo& info() const { return col_; }
    bool is_null() const { return null_; }
    // Values of the current (non-null, non-list) row.  Integers: BOOLEAN,
    // INT32 and INT64; reals: FLOAT and DOUBLE; text: BYTE_ARRAY,
    // FIXED_LEN_BYTE_ARRAY and INT96 (its 12 raw bytes).  An unsigned INT32
    // (is_unsigned()) reads zero-extended; an unsigned INT64 above INT64_MAX
    // is negative in i64() (its bits), exact in u64().
    int64_t i64() const { return value<int64_t>(cur_); }
    uint64_t u64() const { return static_cast<uint64_t>(i64()); }
    bool is_unsigned() const { return col_.is_unsigned; }
    double f64() const { return value<double>(cur_); }
    std::string_view str() const { return value<std::string_view>(cur_); }

    // For a flat column's current (non-null) value that came from the
    // chunk's dictionary: which dictionary and which entry.  Equal entries of
    // one dictionary are equal values, so a caller can convert each entry
    // once.  dictionary_id() is unique to one decoded dictionary in the
    // process, and 0 when the value is not a dictionary entry.
    uint64_t dictionary_id() const { return dict_key_; }
    bool from_dictionary() const { return dict_key_ != 0; }
    uint32_t dictionary_index() const { return idxp_[cur_]; }
    size_t dictionary_size() const { return dict_size_; }

    // Lists: the current row's elements.
    size_t list_size() const { return elem_valid_.size(); }
    bool element_null(size_t k) const { return !elem_valid_[k]; }
    int64_t element_i64(size_t k) const { return elem_ints_[k]; }
    uint64_t element_u64(size_t k) const { return static_cast<uint64_t>(elem_ints_[k]); }
    double element_f64(size_t k) const { return elem_reals_[k]; }
    std::string_view element_str(size_t k) const {
        return std::string_view(elem_strs_.bytes).substr(elem_strs_.offsets[k], elem_strs_.offsets[k + 1] - elem_strs_.offsets[k]);
    }

    bool is_list() const { return list_; }
    bool holds_integers() const { return kind_ == Kind::integers; }
    bool holds_reals() const { return kind_ == Kind::reals; }
    bool holds_bytes() const { return kind_ == Kind::bytes; }

    // Pages and dictionary entries larger than these are refused as corrupt.
    static constexpr size_t kMaxPageBytes = 256u << 20;
    static constexpr int64_t kMaxPageValues = 16 << 20;
    // Levels (and so at most values) decoded at a time.
    static constexpr size_t kSlice = 1024;

private:
    enum class Kind : uint8_t { integers, reals, bytes };
    // Where a page's values come from.
    enum class Source : uint8_t {
        plain,         // PLAIN, from the page bytes a slice at a time
        dictionary,    // indices decoded per slice, looked up
        rle_booleans,  // RLE booleans, decoded per slice
        decoded,       // DELTA_* and BYTE_STREAM_SPLIT, decoded for the whole page (m_*)
    };

    // Value v of the slice: looked up in the dictionary (dict_vals_) when
    // the page is dictionary-encoded, else the slice's own array.
    template <typename T>
    T value(uint32_t v) const {
        return dict_vals_ ? static_cast<const T*>(dict_vals_)[idxp_[v]] : static_cast<const T*>(vals_)[v];
    }

    [[noreturn]] void fail(const std::string& message) const;
    void next_row_slow();
    bool next_level();  // li_ on a level of the row, loading slices and pages; false at the chunk's end
    bool fill_slice();  // false when the chunk has no more pages
    bool load_page();   // false when the chunk has no more pages
    // A data page's values: `count` levels, the values' encoding and bytes.
    struct PageBody {
        size_t count = 0;
        Encoding encoding = Encoding::plain;
        const uint8_t* values = nullptr;
        const uint8_t* end = nullptr;
    };
    void load_dictionary_page(const PageHeader& h);
    PageBody open_data_page(const PageHeader& h);               // its levels started
    PageBody open_data_page_v2(const PageHeader& h, int64_t at);  // `at`: its offset, for messages
    void read_page_header(int64_t& pos, PageHeader& h, size_t& header_len);
    const uint8_t* read_page_bytes(int64_t size);  // the compressed bytes at pos_, in the scratch
    const uint8_t* read_whole_page(const PageHeader& h);  // the page at pos_ decompressed into page_ (a v1 or dictionary page)
    void start_levels(const uint8_t*& p, const uint8_t* end, int max_level, RleDecoder& dec);
    static void decode_levels(RleDecoder& dec, int max_level, size_t n, uint8_t* out);
    void start_values(const uint8_t* p, size_t n, size_t levels, Encoding enc);
    void decode_slice_values(size_t count);
    void decode_plain_slice(size_t first, size_t count);
    void decode_dictionary(const uint8_t* p, size_t n, int32_t count, Encoding enc);
    size_t count_present(size_t levels) const;

    // What next_row() and the value accessors touch, together (the first
    // cache line).  Slice positions are below kSlice.
    uint32_t li_ = 0, fast_end_ = 0;  // next level of the slice; next_row()'s inline path serves levels before fast_end_
    uint32_t vi_ = 0, cur_ = 0;       // next value of the slice, the current row's
    int64_t rows_read_ = 0;
    const void* vals_ = nullptr;      // the slice's values: ints_, reals_ or strs_ by kind_
    const void* dict_vals_ = nullptr; // or, for a dictionary-encoded page, the entries idx_ points at
    const uint32_t* idxp_ = nullptr;  // idx_
    uint64_t dict_key_ = 0;           // dict_id_ while the page's values are its entries (flat columns)
    uint32_t dict_size_ = 0;
    bool null_ = true;
    uint8_t max_def_ = 0;
    Kind kind_ = Kind::integers;
    bool list_ = false;

    // A value per present level of the slice (only the column kind's array is used).
    std::vector<int64_t> ints_;
    std::vector<double> reals_;
    std::vector<std::string_view> strs_;
    std::vector<uint32_t> idx_;     // dictionary indices of the slice's values
    uint32_t levels_ = 0;           // levels in the slice

    const ParquetFile* file_ = nullptr;
    size_t row_group_ = 0;
    ColumnInfo col_;
    bool flat_ = true;         // neither a list nor repeated: one level per row
    size_t width_ = 0;         // bytes of a fixed-width PLAIN value (0: BYTE_ARRAY)
    Codec codec_ = Codec::uncompressed;
    int64_t pos_ = 0, end_ = 0;   // the chunk's remaining byte range
    int64_t rows_total_ = 0;

    PageBuffer own_scratch_;
    PageBuffer* scratch_;      // compressed bytes, while decompressing
    PageBuffer page_;          // the decompressed page ([v2 levels] values)
    int64_t page_at_ = 0;      // the page's byte offset, for messages

    // The current page: levels still to slice, decoders over page_.
    size_t levels_left_ = 0;
    RleDecoder rep_dec_{nullptr, 0, 0}, def_dec_{nullptr, 0, 0}, val_dec_{nullptr, 0, 0};
    Source source_ = Source::plain;
    const uint8_t* vp_ = nullptr;   // PLAIN: next value's bytes
    const uint8_t* vend_ = nullptr;
    const uint8_t* vbegin_ = nullptr;
    size_t page_value_ = 0;         // values of the page taken so far

    // The current slice: levels, and a value per present level.
    uint8_t def_[kSlice] = {}, rep_[kSlice] = {};
    uint32_t value_scratch_[kSlice] = {};  // RLE booleans

    bool have_dict_ = false;
    uint64_t dict_id_ = 0;
    std::vector<int64_t> dict_ints_;
    std::vector<double> dict_reals_;
    ByteArrays dict_strs_;
    std::vector<std::string_view> dict_views_;

    std::vector<int64_t> m_ints_;   // Source::decoded values of the page
    std::vector<double> m_reals_;
    ByteArrays m_strs_;

    std::vector<uint8_t> elem_valid_;
    std::vector<int64_t> elem_ints_;
    std::vector<double> elem_reals_;
    ByteArrays elem_strs_;
};

}  // namespace nx::parquet
