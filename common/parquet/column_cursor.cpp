#include "common/parquet/column_cursor.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <new>

#include <sys/mman.h>

#include "common/io/error.h"
#include "common/io/utf8.h"
#include "common/parquet/byte_stream_split_encoding.h"
#include "common/parquet/bytes.h"
#include "common/parquet/codecs.h"
#include "common/parquet/delta_encoding.h"
#include "common/parquet/plain_encoding.h"
#include "common/parquet/thrift_compact.h"

namespace nx::parquet {

namespace {

// Levels are bytes; these scan eight at a time (GCC's -O2 does not
// vectorise the plain loops).
constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHighs = 0x8080808080808080ull;

uint64_t load8(const uint8_t* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}

// Whether a level exceeds `max`.  For max < 128: a byte above max has its
// high bit set after adding 127 - max, or had it already (a carry out of
// such a byte only marks a word that is flagged anyway).
bool any_above(const uint8_t* l, size_t n, uint8_t max) {
    size_t i = 0;
    if (max < 128) {
        uint64_t add = kOnes * (127u - max), flags = 0;
        for (; i + 8 <= n; i += 8) {
            uint64_t w = load8(l + i);
            flags |= ((w + add) | w) & kHighs;
        }
        if (flags) return true;
    }
    for (; i < n; ++i)
        if (l[i] > max) return true;
    return false;
}

// How many levels equal `level`.
size_t count_equal(const uint8_t* l, size_t n, uint8_t level) {
    size_t count = 0, i = 0;
    uint64_t pattern = kOnes * level;
    for (; i + 8 <= n; i += 8) {
        uint64_t x = load8(l + i) ^ pattern;  // 0 where equal
        uint64_t nonzero = (((x & ~kHighs) + ~kHighs) | x) & kHighs;
        // Sums the flags in the top byte (std::popcount is a libgcc call without -mpopcnt).
        count += 8 - static_cast<size_t>(((nonzero >> 7) * kOnes) >> 56);
    }
    for (; i < n; ++i) count += l[i] == level;
    return count;
}

// Dictionaries are numbered across the process, so that a cache keyed by
// dictionary_id() never mistakes one chunk's dictionary for another's.
std::atomic<uint64_t> g_dictionaries{0};

}  // namespace

void PageBuffer::grow(size_t n) {
    release();
    size_t want = n + n / 8 + 64;
    void* p = mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    p_ = static_cast<uint8_t*>(p);
    cap_ = want;
}

void PageBuffer::release() {
    if (p_) munmap(p_, cap_);
    p_ = nullptr;
    cap_ = 0;
}

ColumnCursor::ColumnCursor(const ParquetFile& file, size_t row_group, const ColumnInfo& column, PageBuffer* scratch)
    : scratch_(scratch ? scratch : &own_scratch_) {
    reset(file, row_group, column);
}

void ColumnCursor::reset(const ParquetFile& file, size_t row_group, const ColumnInfo& column) {
    file_ = &file;
    row_group_ = row_group;
    col_ = column;
    const RowGroup& g = file.metadata().row_groups.at(row_group);
    const ColumnMetaData& m = *g.columns.at(column.leaf).meta;
    codec_ = m.codec;
    rows_total_ = g.num_rows;
    rows_read_ = 0;
    pos_ = m.data_page_offset;
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < pos_)
        pos_ = *m.dictionary_page_offset;
    end_ = pos_ + m.total_compressed_size;
    levels_left_ = levels_ = li_ = vi_ = fast_end_ = 0;
    have_dict_ = false;
    dict_id_ = dict_key_ = 0;
    dict_vals_ = nullptr;
    dict_size_ = 0;
    null_ = true;
    if (pos_ < 4 || m.total_compressed_size < 0 || end_ > file.data_end() || end_ < pos_)
        fail("column chunk at bytes " + std::to_string(pos_) + ".." + std::to_string(end_) +
             " lies outside the file's data (4.." + std::to_string(file.data_end()) + ")");
    if (col_.type == PhysicalType::fixed_len_byte_array && (col_.type_length <= 0 || col_.type_length > (1 << 20)))
        fail("FIXED_LEN_BYTE_ARRAY of length " + std::to_string(col_.type_length));
    if (col_.max_def > 255 || col_.max_rep > 255) fail("levels deeper than 255 (schema nesting) are not supported");
    bool ints = col_.type == PhysicalType::boolean || col_.type == PhysicalType::int32 || col_.type == PhysicalType::int64;
    bool reals = col_.type == PhysicalType::float32 || col_.type == PhysicalType::float64;
    kind_ = ints ? Kind::integers : reals ? Kind::reals : Kind::bytes;
    flat_ = !col_.is_list && col_.max_rep == 0;
    max_def_ = static_cast<uint8_t>(col_.max_def);
    if (max_def_ == 0) std::memset(def_, 0, sizeof def_);  // never decoded: every row present
    width_ = plain_width(col_.type, col_.type_length);
    list_ = col_.is_list;
    // Only the slice array of the column's kind is used.
    if (kind_ == Kind::integers) {
        ints_.resize(kSlice);
        vals_ = ints_.data();
    } else if (kind_ == Kind::reals) {
        reals_.resize(kSlice);
        vals_ = reals_.data();
    } else {
        strs_.resize(kSlice);
        vals_ = strs_.data();
    }
    idx_.resize(kSlice);
    idxp_ = idx_.data();
}

void ColumnCursor::fail(const std::string& message) const {
    throw Error("row group " + std::to_string(row_group_) + ", column " + col_.name + ": " + message, file_->path());
}

void ColumnCursor::read_page_header(int64_t& pos, PageHeader& h, size_t& header_len) {
    // Headers are small, but statistics can make them larger: read a little,
    // and more when the decoder runs out.
    size_t want = 256;
    for (;;) {
        size_t n = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(want), end_ - pos));
        uint8_t* buf = scratch_->reserve(n);
        file_->read_at(pos, n, buf);
        try {
            h = decode_page_header(buf, n, header_len);
            pos += static_cast<int64_t>(header_len);
            return;
        } catch (const ThriftError& e) {
            if (static_cast<int64_t>(n) >= end_ - pos || want >= (16u << 20)) fail(std::string("page header: ") + e.what());
            want *= 4;
        }
    }
}

const uint8_t* ColumnCursor::read_page_bytes(int64_t size) {
    uint8_t* buf = scratch_->reserve(static_cast<size_t>(size));
    file_->read_at(pos_, static_cast<size_t>(size), buf);
    return buf;
}

const uint8_t* ColumnCursor::read_whole_page(const PageHeader& h) {
    const size_t full = static_cast<size_t>(h.uncompressed_page_size);
    const uint8_t* raw = read_page_bytes(h.compressed_page_size);
    pos_ += h.compressed_page_size;
    decompress(codec_, raw, static_cast<size_t>(h.compressed_page_size), page_.reserve(full), full);
    return page_.data();
}

void ColumnCursor::load_dictionary_page(const PageHeader& h) {
    if (!h.dictionary) fail("dictionary page without its header");
    if (have_dict_) fail("a second dictionary page");
    const uint8_t* p = read_whole_page(h);
    decode_dictionary(p, static_cast<size_t>(h.uncompressed_page_size), h.dictionary->num_values, h.dictionary->encoding);
    have_dict_ = true;
}

ColumnCursor::PageBody ColumnCursor::open_data_page(const PageHeader& h) {
    if (!h.data) fail("data page without its header");
    if (h.data->num_values < 0 || h.data->num_values > kMaxPageValues) fail("data page with " + std::to_string(h.data->num_values) + " values");
    const uint8_t* p = read_whole_page(h);
    const uint8_t* e = p + h.uncompressed_page_size;
    if (h.data->repetition_level_encoding != Encoding::rle && col_.max_rep > 0)
        fail("repetition levels in " + to_string(h.data->repetition_level_encoding) + " are not supported");
    if (h.data->definition_level_encoding != Encoding::rle && col_.max_def > 0)
        fail("definition levels in " + to_string(h.data->definition_level_encoding) + " are not supported");
    start_levels(p, e, col_.max_rep, rep_dec_);
    start_levels(p, e, col_.max_def, def_dec_);
    return {static_cast<size_t>(h.data->num_values), h.data->encoding, p, e};
}

ColumnCursor::PageBody ColumnCursor::open_data_page_v2(const PageHeader& h, int64_t at) {
    if (!h.data_v2) fail("data page v2 without its header");
    const DataPageHeaderV2& d = *h.data_v2;
    if (d.num_values < 0 || d.num_values > kMaxPageValues) fail("data page with " + std::to_string(d.num_values) + " values");
    if (d.repetition_levels_byte_length < 0 || d.definition_levels_byte_length < 0 ||
        static_cast<int64_t>(d.repetition_levels_byte_length) + d.definition_levels_byte_length > h.compressed_page_size ||
        static_cast<int64_t>(d.repetition_levels_byte_length) + d.definition_levels_byte_length > h.uncompressed_page_size)
        fail("data page v2 level lengths larger than the page");
    size_t rl = static_cast<size_t>(d.repetition_levels_byte_length);
    size_t dl = static_cast<size_t>(d.definition_levels_byte_length);
    const uint8_t* raw = read_page_bytes(h.compressed_page_size);
    pos_ += h.compressed_page_size;
    // The page buffer holds the (never compressed) levels, then the values.
    size_t body = static_cast<size_t>(h.compressed_page_size) - rl - dl;
    size_t body_raw = static_cast<size_t>(h.uncompressed_page_size) - rl - dl;
    uint8_t* out = page_.reserve(rl + dl + body_raw);
    std::memcpy(out, raw, rl + dl);
    if (body == 0) {
        // No values at all (parquet-java and Spark write a page of
        // nulls so, with nothing for the codec to decompress).
        if (body_raw != 0)
            fail("data page v2 at byte " + std::to_string(at) + " has no value bytes but claims " +
                 std::to_string(body_raw) + " uncompressed");
    } else if (d.is_compressed && codec_ != Codec::uncompressed) {
        decompress(codec_, raw + rl + dl, body, out + rl + dl, body_raw);
    } else {
        if (body != body_raw) fail("uncompressed data page v2 whose sizes disagree");
        std::memcpy(out + rl + dl, raw + rl + dl, body);
    }
    if (col_.max_rep > 0) rep_dec_ = RleDecoder(out, rl, level_bit_width(col_.max_rep));
    if (col_.max_def > 0) def_dec_ = RleDecoder(out + rl, dl, level_bit_width(col_.max_def));
    return {static_cast<size_t>(d.num_values), d.encoding, out + rl + dl, out + rl + dl + body_raw};
}

bool ColumnCursor::load_page() {
    for (;;) {
        if (pos_ >= end_) return false;
        int64_t at = pos_;
        page_at_ = at;
        PageHeader h;
        size_t hlen = 0;
        read_page_header(pos_, h, hlen);
        if (static_cast<int64_t>(h.compressed_page_size) > end_ - pos_ || h.compressed_page_size < 0)
            fail("page at byte " + std::to_string(at) + " claims " + std::to_string(h.compressed_page_size) +
                 " bytes but its column chunk has " + std::to_string(end_ - pos_) + " left");
        if (h.uncompressed_page_size < 0 || static_cast<size_t>(h.uncompressed_page_size) > kMaxPageBytes)
            fail("page at byte " + std::to_string(at) + " claims " + std::to_string(h.uncompressed_page_size) +
                 " bytes uncompressed (more than nx reads in one page)");
        try {
            PageBody page;
            switch (h.type) {
                case PageType::index: pos_ += h.compressed_page_size; continue;
                case PageType::dictionary: load_dictionary_page(h); continue;
                case PageType::data: page = open_data_page(h); break;
                case PageType::data_v2: page = open_data_page_v2(h, at); break;
                default: fail("unknown page type " + std::to_string(static_cast<int>(h.type)));
            }
            levels_left_ = page.count;
            start_values(page.values, static_cast<size_t>(page.end - page.values), page.count, page.encoding);
            if (page.count == 0) continue;
            return true;
        } catch (const CodecError& e) {
            fail(std::string("page at byte ") + std::to_string(at) + ": " + e.what());
        } catch (const EncodingError& e) {
            fail(std::string("page at byte ") + std::to_string(at) + ": " + e.what());
        }
    }
}

void ColumnCursor::start_levels(const uint8_t*& p, const uint8_t* end, int max_level, RleDecoder& dec) {
    if (max_level == 0) return;
    if (end - p < 4) throw EncodingError("levels past the end of the page");
    size_t len = get_le32(p);
    p += 4;
    if (len > static_cast<size_t>(end - p)) throw EncodingError("levels of " + std::to_string(len) + " bytes past the end of the page");
    dec = RleDecoder(p, len, level_bit_width(max_level));
    p += len;
}

void ColumnCursor::decode_levels(RleDecoder& dec, int max_level, size_t n, uint8_t* out) {
    if (max_level == 0) return;
    dec.decode(out, n);
    if (any_above(out, n, static_cast<uint8_t>(max_level)))
        for (size_t i = 0; i < n; ++i)
            if (out[i] > max_level)
                throw EncodingError("a level of " + std::to_string(out[i]) + " above the column's maximum " +
                                    std::to_string(max_level));
}

// How many of the page's `levels` hold a value: decodes the definition
// levels once more (only for the encodings decoded a page at a time).
size_t ColumnCursor::count_present(size_t levels) const {
    if (col_.max_def == 0) return levels;
    RleDecoder dec = def_dec_;
    uint8_t buf[kSlice];
    size_t present = 0;
    for (size_t at = 0; at < levels; at += kSlice) {
        size_t n = std::min(kSlice, levels - at);
        dec.decode(buf, n);
        present += count_equal(buf, n, max_def_);
    }
    return present;
}

void ColumnCursor::start_values(const uint8_t* p, size_t n, size_t levels, Encoding enc) {
    dict_key_ = 0;
    dict_vals_ = nullptr;
    page_value_ = 0;
    vbegin_ = vp_ = p;
    vend_ = p + n;
    const uint8_t* end = p + n;
    switch (enc) {
        case Encoding::plain:
            source_ = Source::plain;  // taken from the page bytes a slice at a time
            return;
        case Encoding::plain_dictionary:
        case Encoding::rle_dictionary: {
            if (!have_dict_) throw EncodingError("dictionary-encoded page without a dictionary page");
            source_ = Source::dictionary;
            if (flat_) dict_key_ = dict_id_;
            dict_vals_ = kind_ == Kind::integers ? static_cast<const void*>(dict_ints_.data())
                       : kind_ == Kind::reals    ? static_cast<const void*>(dict_reals_.data())
                                                 : static_cast<const void*>(dict_views_.data());
            // An empty page may have no bit width byte.
            val_dec_ = n < 1 ? RleDecoder(p, 0, 0) : RleDecoder(p + 1, n - 1, p[0]);
            if (n < 1 && levels > 0 && count_present(levels) > 0) throw EncodingError("dictionary indices missing");
            return;
        }
        case Encoding::rle: {
            if (col_.type != PhysicalType::boolean) throw EncodingError("RLE values for a " + to_string(col_.type) + " column");
            if (n < 4) throw EncodingError("RLE booleans without their length");
            uint32_t len = get_le32(p);
            if (len > n - 4) throw EncodingError("RLE booleans past the end of the page");
            source_ = Source::rle_booleans;
            val_dec_ = RleDecoder(p + 4, len, 1);
            return;
        }
        default: break;
    }
    // The rest are decoded for the whole page, which needs its value count.
    source_ = Source::decoded;
    size_t count = count_present(levels);
    switch (enc) {
        case Encoding::delta_binary_packed: {
            if (col_.type != PhysicalType::int32 && col_.type != PhysicalType::int64)
                throw EncodingError("DELTA_BINARY_PACKED for a " + to_string(col_.type) + " column");
            m_ints_.clear();
            decode_delta_binary_packed(p, end, col_.type == PhysicalType::int32, count, m_ints_);
            if (m_ints_.size() != count)
                throw EncodingError("DELTA_BINARY_PACKED holds " + std::to_string(m_ints_.size()) + " values, the page needs " + std::to_string(count));
            if (col_.is_unsigned && col_.type == PhysicalType::int32)  // decoded as int32: its 32 bits, zero-extended
                for (int64_t& v : m_ints_) v &= 0xFFFFFFFF;
            return;
        }
        case Encoding::delta_length_byte_array:
        case Encoding::delta_byte_array: {
            if (col_.type != PhysicalType::byte_array && col_.type != PhysicalType::fixed_len_byte_array)
                throw EncodingError(to_string(enc) + " for a " + to_string(col_.type) + " column");
            m_strs_.clear();
            if (enc == Encoding::delta_length_byte_array) decode_delta_length_byte_array(p, end, count, m_strs_);
            else decode_delta_byte_array(p, end, count, m_strs_);
            if (m_strs_.size() != count)
                throw EncodingError(to_string(enc) + " holds " + std::to_string(m_strs_.size()) + " values, the page needs " + std::to_string(count));
            break;
        }
        case Encoding::byte_stream_split: {
            if (width_ == 0) throw EncodingError("BYTE_STREAM_SPLIT for a " + to_string(col_.type) + " column");
            if (count * width_ != n) throw EncodingError("BYTE_STREAM_SPLIT page of " + std::to_string(n) + " bytes for " + std::to_string(count) + " values");
            std::vector<uint8_t> gathered(count * width_);
            decode_byte_stream_split(p, n, width_, count, gathered.data());
            decode_plain(col_.type, width_, col_.is_unsigned, gathered.data(), gathered.size(), count, m_ints_, m_reals_, m_strs_);
            break;
        }
        default: throw EncodingError("values in " + to_string(enc) + " are not supported");
    }
    if (col_.is_string && kind_ == Kind::bytes)
        for (size_t i = 0; i < m_strs_.size(); ++i)
            if (!is_valid_utf8(m_strs_.view(i)))
                throw EncodingError("value " + std::to_string(i) + " of the page is not valid UTF-8");
}

// The next `count` values of the page into the slice arrays.
void ColumnCursor::decode_slice_values(size_t count) {
    size_t first = page_value_;
    page_value_ += count;
    switch (source_) {
        case Source::plain: decode_plain_slice(first, count); return;
        case Source::dictionary: {
            val_dec_.decode(idx_.data(), count);
            uint32_t over = 0;
            for (size_t i = 0; i < count; ++i) over |= idx_[i] >= dict_size_ ? 1u : 0u;
            if (over)
                for (size_t i = 0; i < count; ++i)
                    if (idx_[i] >= dict_size_)
                        throw EncodingError("dictionary index " + std::to_string(idx_[i]) + " out of range (" +
                                            std::to_string(dict_size_) + " entries)");
            // Values are looked up through the indices (value()); strings
            // were checked when the dictionary was read.
            return;
        }
        case Source::rle_booleans:
            val_dec_.decode(value_scratch_, count);
            for (size_t i = 0; i < count; ++i) ints_[i] = value_scratch_[i];
            return;
        case Source::decoded:
            // start_values() checked the page holds exactly its present values.
            if (kind_ == Kind::integers)
                std::copy(m_ints_.begin() + static_cast<ptrdiff_t>(first), m_ints_.begin() + static_cast<ptrdiff_t>(page_value_), ints_.begin());
            else if (kind_ == Kind::reals)
                std::copy(m_reals_.begin() + static_cast<ptrdiff_t>(first), m_reals_.begin() + static_cast<ptrdiff_t>(page_value_), reals_.begin());
            else
                for (size_t i = 0; i < count; ++i) strs_[i] = m_strs_.view(first + i);
            return;
    }
}

// The next `count` PLAIN values of the page, value `first` on, into the
// slice arrays (strings as views into the page).
void ColumnCursor::decode_plain_slice(size_t first, size_t count) {
    if (col_.type == PhysicalType::boolean) {
        size_t bytes = (page_value_ + 7) / 8;
        if (bytes > static_cast<size_t>(vend_ - vbegin_))
            throw EncodingError("PLAIN values need " + std::to_string(bytes) + " bytes, the page has " +
                                std::to_string(vend_ - vbegin_));
        for (size_t i = 0; i < count; ++i) ints_[i] = plain_boolean(vbegin_, first + i);
        return;
    }
    if (width_ == 0) {  // BYTE_ARRAY: a 4-byte length before each value
        const uint8_t* p = vp_;
        for (size_t i = 0; i < count; ++i) {
            strs_[i] = decode_plain_byte_array(p, vend_, first + i);
            if (col_.is_string && !is_valid_utf8(strs_[i]))
                throw EncodingError("value " + std::to_string(first + i) + " of the page is not valid UTF-8");
        }
        vp_ = p;
        return;
    }
    size_t bytes = count * width_;
    if (bytes > static_cast<size_t>(vend_ - vp_))
        throw EncodingError("PLAIN values need " + std::to_string(page_value_ * width_) + " bytes, the page has " +
                            std::to_string(vend_ - vbegin_));
    const uint8_t* p = vp_;
    vp_ += bytes;
    switch (kind_) {
        case Kind::integers: decode_plain_ints(col_.type, col_.is_unsigned, p, count, ints_.data()); return;
        case Kind::reals: decode_plain_reals(col_.type, p, count, reals_.data()); return;
        case Kind::bytes:  // INT96, FIXED_LEN_BYTE_ARRAY
            for (size_t i = 0; i < count; ++i) {
                strs_[i] = std::string_view(reinterpret_cast<const char*>(p + i * width_), width_);
                if (col_.is_string && !is_valid_utf8(strs_[i]))
                    throw EncodingError("value " + std::to_string(first + i) + " of the page is not valid UTF-8");
            }
            return;
    }
}

void ColumnCursor::decode_dictionary(const uint8_t* p, size_t n, int32_t count, Encoding enc) {
    if (enc != Encoding::plain && enc != Encoding::plain_dictionary)
        throw EncodingError("dictionary page in " + to_string(enc));
    if (count < 0 || count > kMaxPageValues) throw EncodingError("dictionary of " + std::to_string(count) + " entries");
    decode_plain(col_.type, width_, col_.is_unsigned, p, n, static_cast<size_t>(count), dict_ints_, dict_reals_, dict_strs_);
    dict_views_.clear();
    if (kind_ == Kind::bytes) {
        dict_views_.reserve(dict_strs_.size());
        for (size_t i = 0; i < dict_strs_.size(); ++i) {
            dict_views_.push_back(dict_strs_.view(i));
            if (col_.is_string && !is_valid_utf8(dict_views_.back()))
                throw EncodingError("dictionary entry " + std::to_string(i) + " is not valid UTF-8");
        }
    }
    dict_size_ = static_cast<uint32_t>(kind_ == Kind::integers ? dict_ints_.size()
                                       : kind_ == Kind::reals  ? dict_reals_.size()
                                                               : dict_strs_.size());
    dict_id_ = ++g_dictionaries;
}

// A new slice of the page's levels (and their values), loading the next page
// when this one is used up.
bool ColumnCursor::fill_slice() {
    while (levels_left_ == 0)
        if (!load_page()) return false;
    size_t n = std::min(kSlice, levels_left_);
    try {
        decode_levels(rep_dec_, col_.max_rep, n, rep_);
        decode_levels(def_dec_, col_.max_def, n, def_);
        size_t present = col_.max_def != 0 ? count_equal(def_, n, max_def_) : n;
        decode_slice_values(present);
    } catch (const EncodingError& e) {
        fail(std::string("page at byte ") + std::to_string(page_at_) + ": " + e.what());
    }
    levels_left_ -= n;
    levels_ = static_cast<uint32_t>(n);
    li_ = 0;
    vi_ = 0;
    fast_end_ = flat_ ? static_cast<uint32_t>(std::min<int64_t>(static_cast<int64_t>(n), rows_total_ - rows_read_)) : 0;
    return true;
}

bool ColumnCursor::next_level() {
    return li_ < levels_ || fill_slice();
}

void ColumnCursor::next_row_slow() {
    if (rows_read_ >= rows_total_) fail("read past the row group's " + std::to_string(rows_total_) + " rows");
    if (!next_level())
        fail("column ends after " + std::to_string(rows_read_) + " of its row group's " + std::to_string(rows_total_) + " rows");
    ++rows_read_;
    auto def_at = [&](size_t i) { return static_cast<uint32_t>(def_[i]); };  // all 0 when max_def is
    auto rep_at = [&](size_t i) { return col_.max_rep == 0 ? 0u : rep_[i]; };
    if (rep_at(li_) != 0) fail("a row starts with repetition level " + std::to_string(rep_at(li_)));
    if (!col_.is_list) {
        uint32_t d = def_at(li_);
        null_ = d != static_cast<uint32_t>(col_.max_def);
        if (!null_) cur_ = vi_++;
        ++li_;
        return;
    }
    elem_valid_.clear();
    elem_ints_.clear();
    elem_reals_.clear();
    elem_strs_.clear();
    uint32_t d = def_at(li_);
    null_ = d < static_cast<uint32_t>(col_.list_def);
    if (d < static_cast<uint32_t>(col_.element_def)) {
        ++li_;
        return;
    }
    for (;;) {
        uint32_t dd = def_at(li_);
        bool present = dd == static_cast<uint32_t>(col_.max_def);
        elem_valid_.push_back(present ? 1 : 0);
        if (present) {
            uint32_t v = vi_++;
            if (holds_integers()) {
                elem_ints_.push_back(value<int64_t>(v));
            } else if (holds_reals()) {
                elem_reals_.push_back(value<double>(v));
            } else {
                std::string_view s = value<std::string_view>(v);
                elem_strs_.add(s.data(), s.size());
            }
        } else {
            elem_ints_.push_back(0);
            elem_reals_.push_back(0);
            elem_strs_.add("", 0);
        }
        ++li_;
        // The row goes on while the next level repeats, maybe in the next slice or page.
        if (!next_level() || rep_at(li_) == 0) break;
    }
}

}  // namespace nx::parquet
