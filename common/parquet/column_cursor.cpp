#include "common/parquet/column_cursor.h"

#include <bit>
#include <cstring>

#include "common/error.h"
#include "common/parquet/codecs.h"
#include "common/parquet/thrift_compact.h"
#include "common/utf8.h"

namespace nx::parquet {

namespace {

int bit_width(int max_level) { return max_level == 0 ? 0 : std::bit_width(static_cast<unsigned>(max_level)); }

uint32_t le32(const uint8_t* p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
           static_cast<uint32_t>(p[3]) << 24;
}

size_t value_width(PhysicalType t, int32_t type_length) {
    switch (t) {
        case PhysicalType::int32:
        case PhysicalType::float32: return 4;
        case PhysicalType::int64:
        case PhysicalType::float64: return 8;
        case PhysicalType::int96: return 12;
        case PhysicalType::fixed_len_byte_array: return static_cast<size_t>(type_length);
        default: return 0;
    }
}

}  // namespace

ColumnCursor::ColumnCursor(const ParquetFile& file, size_t row_group, const ColumnInfo& column)
    : file_(file), row_group_(row_group), col_(column) {
    const RowGroup& g = file.metadata().row_groups.at(row_group);
    const ColumnMetaData& m = *g.columns.at(column.leaf).meta;
    codec_ = m.codec;
    rows_total_ = g.num_rows;
    pos_ = m.data_page_offset;
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < pos_)
        pos_ = *m.dictionary_page_offset;
    end_ = pos_ + m.total_compressed_size;
    if (pos_ < 4 || m.total_compressed_size < 0 || end_ > file.data_end() || end_ < pos_)
        fail("column chunk at bytes " + std::to_string(pos_) + ".." + std::to_string(end_) +
             " lies outside the file's data (4.." + std::to_string(file.data_end()) + ")");
    if (col_.type == PhysicalType::fixed_len_byte_array && (col_.type_length <= 0 || col_.type_length > (1 << 20)))
        fail("FIXED_LEN_BYTE_ARRAY of length " + std::to_string(col_.type_length));
}

void ColumnCursor::fail(const std::string& message) const {
    throw Error("row group " + std::to_string(row_group_) + ", column " + col_.name + ": " + message, file_.path());
}

bool ColumnCursor::holds_integers() const {
    return col_.type == PhysicalType::boolean || col_.type == PhysicalType::int32 || col_.type == PhysicalType::int64;
}
bool ColumnCursor::holds_reals() const {
    return col_.type == PhysicalType::float32 || col_.type == PhysicalType::float64;
}

void ColumnCursor::read_page_header(int64_t& pos, PageHeader& h, size_t& header_len) {
    // Headers are small, but statistics can make them larger: read a little,
    // and more when the decoder runs out.
    size_t want = 256;
    for (;;) {
        size_t n = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(want), end_ - pos));
        raw_.resize(n);
        file_.read_at(pos, n, raw_.data());
        try {
            h = decode_page_header(raw_.data(), n, header_len);
            pos += static_cast<int64_t>(header_len);
            return;
        } catch (const ThriftError& e) {
            if (static_cast<int64_t>(n) >= end_ - pos || want >= (16u << 20)) fail(std::string("page header: ") + e.what());
            want *= 4;
        }
    }
}

bool ColumnCursor::load_page() {
    for (;;) {
        if (pos_ >= end_) return false;
        int64_t at = pos_;
        PageHeader h;
        size_t hlen = 0;
        read_page_header(pos_, h, hlen);
        if (static_cast<int64_t>(h.compressed_page_size) > end_ - pos_)
            fail("page at byte " + std::to_string(at) + " claims " + std::to_string(h.compressed_page_size) +
                 " bytes but its column chunk has " + std::to_string(end_ - pos_) + " left");
        if (static_cast<size_t>(h.uncompressed_page_size) > kMaxPageBytes)
            fail("page at byte " + std::to_string(at) + " claims " + std::to_string(h.uncompressed_page_size) +
                 " bytes uncompressed (more than nx reads in one page)");
        raw_.resize(static_cast<size_t>(h.compressed_page_size));
        file_.read_at(pos_, raw_.size(), raw_.data());
        pos_ += h.compressed_page_size;
        try {
            if (h.type == PageType::dictionary) {
                if (!h.dictionary) fail("dictionary page without its header");
                if (have_dict_) fail("a second dictionary page");
                decompress(codec_, raw_.data(), raw_.size(), static_cast<size_t>(h.uncompressed_page_size), page_);
                decode_dictionary(page_.data(), page_.size(), h.dictionary->num_values, h.dictionary->encoding);
                have_dict_ = true;
                continue;
            }
            if (h.type == PageType::index) continue;
            size_t count = 0;
            Encoding enc;
            const uint8_t* values = nullptr;
            size_t values_len = 0;
            if (h.type == PageType::data) {
                if (!h.data) fail("data page without its header");
                if (h.data->num_values < 0 || h.data->num_values > kMaxPageValues) fail("data page with " + std::to_string(h.data->num_values) + " values");
                count = static_cast<size_t>(h.data->num_values);
                enc = h.data->encoding;
                decompress(codec_, raw_.data(), raw_.size(), static_cast<size_t>(h.uncompressed_page_size), page_);
                const uint8_t* p = page_.data();
                const uint8_t* e = p + page_.size();
                if (h.data->repetition_level_encoding != Encoding::rle && col_.max_rep > 0)
                    fail("repetition levels in " + to_string(h.data->repetition_level_encoding) + " are not supported");
                if (h.data->definition_level_encoding != Encoding::rle && col_.max_def > 0)
                    fail("definition levels in " + to_string(h.data->definition_level_encoding) + " are not supported");
                decode_levels(p, e, col_.max_rep, count, rep_, true, 0);
                decode_levels(p, e, col_.max_def, count, def_, true, 0);
                values = p;
                values_len = static_cast<size_t>(e - p);
            } else if (h.type == PageType::data_v2) {
                if (!h.data_v2) fail("data page v2 without its header");
                const DataPageHeaderV2& d = *h.data_v2;
                if (d.num_values < 0 || d.num_values > kMaxPageValues) fail("data page with " + std::to_string(d.num_values) + " values");
                if (d.repetition_levels_byte_length < 0 || d.definition_levels_byte_length < 0 ||
                    static_cast<int64_t>(d.repetition_levels_byte_length) + d.definition_levels_byte_length > h.compressed_page_size ||
                    static_cast<int64_t>(d.repetition_levels_byte_length) + d.definition_levels_byte_length > h.uncompressed_page_size)
                    fail("data page v2 level lengths larger than the page");
                count = static_cast<size_t>(d.num_values);
                enc = d.encoding;
                size_t rl = static_cast<size_t>(d.repetition_levels_byte_length);
                size_t dl = static_cast<size_t>(d.definition_levels_byte_length);
                const uint8_t* p = raw_.data();
                decode_levels(p, p + rl, col_.max_rep, count, rep_, false, rl);
                p = raw_.data() + rl;
                decode_levels(p, p + dl, col_.max_def, count, def_, false, dl);
                size_t body = raw_.size() - rl - dl;
                size_t body_raw = static_cast<size_t>(h.uncompressed_page_size) - rl - dl;
                if (d.is_compressed && codec_ != Codec::uncompressed) {
                    decompress(codec_, raw_.data() + rl + dl, body, body_raw, page_);
                } else {
                    if (body != body_raw) fail("uncompressed data page v2 whose sizes disagree");
                    page_.assign(raw_.begin() + static_cast<ptrdiff_t>(rl + dl), raw_.end());
                }
                values = page_.data();
                values_len = page_.size();
            } else {
                fail("unknown page type " + std::to_string(static_cast<int>(h.type)));
            }
            // The compressed bytes are not needed once decoded: with many
            // columns open at once (every column of a wide table), keeping
            // each one's last compressed page would double what a cursor holds.
            std::vector<uint8_t>().swap(raw_);
            levels_ = count;
            li_ = 0;
            vi_ = 0;
            size_t present = 0;
            if (col_.max_def == 0) present = count;
            else
                for (size_t i = 0; i < count; ++i) present += def_[i] == static_cast<uint32_t>(col_.max_def);
            decode_values(values, values_len, present, enc);
            // next_row() takes one value per present level without checking.
            if (values_in_page() < present) fail("fewer values than definition levels");
            if (count == 0) continue;
            return true;
        } catch (const CodecError& e) {
            fail(std::string("page at byte ") + std::to_string(at) + ": " + e.what());
        } catch (const EncodingError& e) {
            fail(std::string("page at byte ") + std::to_string(at) + ": " + e.what());
        }
    }
}

void ColumnCursor::decode_levels(const uint8_t*& p, const uint8_t* end, int max_level, size_t count,
                                 std::vector<uint8_t>& out, bool length_prefixed, size_t v2_length) {
    if (max_level == 0) {
        out.clear();
        return;
    }
    size_t len = v2_length;
    if (length_prefixed) {
        if (end - p < 4) throw EncodingError("levels past the end of the page");
        len = le32(p);
        p += 4;
    }
    if (len > static_cast<size_t>(end - p)) throw EncodingError("levels of " + std::to_string(len) + " bytes past the end of the page");
    if (max_level > 255) throw EncodingError("levels deeper than 255 (schema nesting) are not supported");
    out.resize(count);
    // Decoded in slices through a small scratch buffer, then narrowed.
    constexpr size_t kSlice = 4096;
    level_scratch_.resize(std::min(count, kSlice));
    RleDecoder rle(p, len, bit_width(max_level));
    for (size_t at = 0; at < count; at += kSlice) {
        size_t n = std::min(kSlice, count - at);
        rle.decode(level_scratch_.data(), n);
        for (size_t i = 0; i < n; ++i) {
            uint32_t v = level_scratch_[i];
            if (v > static_cast<uint32_t>(max_level))
                throw EncodingError("a level of " + std::to_string(v) + " above the column's maximum " + std::to_string(max_level));
            out[at + i] = static_cast<uint8_t>(v);
        }
    }
    p += len;
}

void ColumnCursor::decode_plain(const uint8_t* p, size_t n, size_t count, std::vector<int64_t>& ints,
                                std::vector<double>& reals, ByteArrays& strs) {
    ints.clear();
    reals.clear();
    strs.clear();
    auto need = [&](size_t bytes) {
        if (bytes > n) throw EncodingError("PLAIN values need " + std::to_string(bytes) + " bytes, the page has " + std::to_string(n));
    };
    switch (col_.type) {
        case PhysicalType::boolean: {
            need((count + 7) / 8);
            ints.resize(count);
            for (size_t i = 0; i < count; ++i) ints[i] = (p[i / 8] >> (i % 8)) & 1;
            return;
        }
        case PhysicalType::int32: {
            need(count * 4);
            ints.resize(count);
            for (size_t i = 0; i < count; ++i) ints[i] = static_cast<int32_t>(le32(p + 4 * i));
            return;
        }
        case PhysicalType::int64: {
            need(count * 8);
            ints.resize(count);
            if (count > 0) std::memcpy(ints.data(), p, count * 8);  // data() may be null when empty
            return;
        }
        case PhysicalType::float32: {
            need(count * 4);
            reals.resize(count);
            for (size_t i = 0; i < count; ++i) {
                float f;
                std::memcpy(&f, p + 4 * i, 4);
                reals[i] = f;
            }
            return;
        }
        case PhysicalType::float64: {
            need(count * 8);
            reals.resize(count);
            if (count > 0) std::memcpy(reals.data(), p, count * 8);
            return;
        }
        case PhysicalType::int96:
        case PhysicalType::fixed_len_byte_array: {
            size_t w = value_width(col_.type, col_.type_length);
            need(count * w);
            strs.bytes.assign(reinterpret_cast<const char*>(p), count * w);
            strs.offsets.resize(count + 1);
            for (size_t i = 0; i <= count; ++i) strs.offsets[i] = static_cast<uint32_t>(i * w);
            return;
        }
        case PhysicalType::byte_array: {
            const uint8_t* e = p + n;
            strs.offsets.reserve(std::min(count, n / 4) + 1);  // each value needs 4 bytes: never trust count alone
            for (size_t i = 0; i < count; ++i) {
                if (e - p < 4) throw EncodingError("PLAIN byte array " + std::to_string(i) + " past the end of the page");
                uint32_t len = le32(p);
                p += 4;
                if (len > static_cast<size_t>(e - p)) throw EncodingError("PLAIN byte array of " + std::to_string(len) + " bytes past the end of the page");
                strs.add(reinterpret_cast<const char*>(p), len);
                p += len;
            }
            return;
        }
    }
    throw EncodingError("unknown physical type");
}

void ColumnCursor::decode_dictionary(const uint8_t* p, size_t n, int32_t count, Encoding enc) {
    if (enc != Encoding::plain && enc != Encoding::plain_dictionary)
        throw EncodingError("dictionary page in " + to_string(enc));
    if (count < 0 || count > kMaxPageValues) throw EncodingError("dictionary of " + std::to_string(count) + " entries");
    decode_plain(p, n, static_cast<size_t>(count), dict_ints_, dict_reals_, dict_strs_);
    if (col_.is_string)
        for (size_t i = 0; i < dict_strs_.size(); ++i)
            if (!is_valid_utf8(Strings{&dict_strs_}.at(static_cast<uint32_t>(i))))
                throw EncodingError("dictionary entry " + std::to_string(i) + " is not valid UTF-8");
}

void ColumnCursor::decode_values(const uint8_t* p, size_t n, size_t count, Encoding enc) {
    from_dict_ = false;
    const uint8_t* end = p + n;
    switch (enc) {
        case Encoding::plain: decode_plain(p, n, count, ints_, reals_, page_strs_); break;
        case Encoding::plain_dictionary:
        case Encoding::rle_dictionary: {
            if (!have_dict_) throw EncodingError("dictionary-encoded page without a dictionary page");
            indices_.resize(count);
            if (count > 0) {
                if (n < 1) throw EncodingError("dictionary indices missing");
                RleDecoder(p + 1, n - 1, p[0]).decode(indices_.data(), count);
            }
            size_t dict_size = holds_integers() ? dict_ints_.size() : holds_reals() ? dict_reals_.size() : dict_strs_.size();
            for (size_t i = 0; i < count; ++i)
                if (indices_[i] >= dict_size)
                    throw EncodingError("dictionary index " + std::to_string(indices_[i]) + " out of range (" +
                                        std::to_string(dict_size) + " entries)");
            from_dict_ = true;  // values are looked up through indices_ (int_at, real_at, str_index)
            return;             // strings were checked when the dictionary was read
        }
        case Encoding::rle: {
            if (col_.type != PhysicalType::boolean) throw EncodingError("RLE values for a " + to_string(col_.type) + " column");
            if (n < 4) throw EncodingError("RLE booleans without their length");
            uint32_t len = le32(p);
            if (len > n - 4) throw EncodingError("RLE booleans past the end of the page");
            indices_.resize(count);
            RleDecoder(p + 4, len, 1).decode(indices_.data(), count);
            ints_.assign(indices_.begin(), indices_.end());
            break;
        }
        case Encoding::delta_binary_packed: {
            if (col_.type != PhysicalType::int32 && col_.type != PhysicalType::int64)
                throw EncodingError("DELTA_BINARY_PACKED for a " + to_string(col_.type) + " column");
            ints_.clear();
            decode_delta_binary_packed(p, end, col_.type == PhysicalType::int32, count, ints_);
            if (ints_.size() != count)
                throw EncodingError("DELTA_BINARY_PACKED holds " + std::to_string(ints_.size()) + " values, the page needs " + std::to_string(count));
            break;
        }
        case Encoding::delta_length_byte_array:
        case Encoding::delta_byte_array: {
            if (col_.type != PhysicalType::byte_array && col_.type != PhysicalType::fixed_len_byte_array)
                throw EncodingError(to_string(enc) + " for a " + to_string(col_.type) + " column");
            page_strs_.clear();
            if (enc == Encoding::delta_length_byte_array) decode_delta_length_byte_array(p, end, count, page_strs_);
            else decode_delta_byte_array(p, end, count, page_strs_);
            if (page_strs_.size() != count)
                throw EncodingError(to_string(enc) + " holds " + std::to_string(page_strs_.size()) + " values, the page needs " + std::to_string(count));
            break;
        }
        case Encoding::byte_stream_split: {
            size_t w = value_width(col_.type, col_.type_length);
            if (w == 0) throw EncodingError("BYTE_STREAM_SPLIT for a " + to_string(col_.type) + " column");
            if (count * w != n) throw EncodingError("BYTE_STREAM_SPLIT page of " + std::to_string(n) + " bytes for " + std::to_string(count) + " values");
            std::vector<uint8_t> gathered(count * w);
            decode_byte_stream_split(p, n, w, count, gathered.data());
            decode_plain(gathered.data(), gathered.size(), count, ints_, reals_, page_strs_);
            return;
        }
        default: throw EncodingError("values in " + to_string(enc) + " are not supported");
    }
    if (col_.is_string && !from_dict_)
        for (size_t i = 0; i < page_strs_.size(); ++i)
            if (!is_valid_utf8(Strings{&page_strs_}.at(static_cast<uint32_t>(i))))
                throw EncodingError("value " + std::to_string(i) + " of the page is not valid UTF-8");
}

void ColumnCursor::next_row_slow() {
    if (rows_read_ >= rows_total_) fail("read past the row group's " + std::to_string(rows_total_) + " rows");
    if (li_ >= levels_ && !load_page())
        fail("column ends after " + std::to_string(rows_read_) + " of its row group's " + std::to_string(rows_total_) + " rows");
    ++rows_read_;
    auto def_at = [&](size_t i) { return col_.max_def == 0 ? 0u : def_[i]; };
    auto rep_at = [&](size_t i) { return col_.max_rep == 0 ? 0u : rep_[i]; };
    if (rep_at(li_) != 0) fail("a row starts with repetition level " + std::to_string(rep_at(li_)));
    if (!col_.is_list) {
        uint32_t d = def_at(li_);
        null_ = d != static_cast<uint32_t>(col_.max_def);
        if (!null_) cur_ = vi_++;  // load_page() checked there are enough values
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
    } else {
        for (;;) {
            uint32_t dd = def_at(li_);
            bool present = dd == static_cast<uint32_t>(col_.max_def);
            elem_valid_.push_back(present ? 1 : 0);
            if (present) {
                size_t v = vi_++;
                if (v >= values_in_page()) fail("fewer values than definition levels");
                if (holds_integers()) {
                    elem_ints_.push_back(int_at(v));
                } else if (holds_reals()) {
                    elem_reals_.push_back(real_at(v));
                } else {
                    std::string_view s = strings().at(str_index(v));
                    elem_strs_.add(s.data(), s.size());
                }
            } else {
                elem_ints_.push_back(0);
                elem_reals_.push_back(0);
                elem_strs_.add("", 0);
            }
            ++li_;
            // The row goes on while the next level repeats, maybe on the next page.
            if (li_ >= levels_) {
                if (pos_ >= end_ || !load_page()) break;
            }
            if (rep_at(li_) == 0) break;
        }
    }
}

}  // namespace nx::parquet
