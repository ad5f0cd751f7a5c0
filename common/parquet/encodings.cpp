#include "common/parquet/encodings.h"

#include <bit>
#include <cstring>

namespace nx::parquet {

uint64_t BitUnpacker::get(int width) {
    if (width == 0) return 0;
    if (static_cast<size_t>(width) > bits_ - pos_) throw EncodingError("bit-packed values run past the end of the page");
    // Fast path: one 8-byte little-endian load holds the value (bit offset
    // below 8 plus at most 56 bits) when 8 bytes are left in the data.
    if constexpr (std::endian::native == std::endian::little) {
        size_t byte = pos_ / 8;
        if (width <= 56 && byte + 8 <= readable_) {
            uint64_t word;
            std::memcpy(&word, data_ + byte, 8);
            uint64_t v = (word >> (pos_ % 8)) & ((uint64_t{1} << width) - 1);
            pos_ += static_cast<size_t>(width);
            return v;
        }
    }
    uint64_t v = 0;
    int got = 0;
    while (got < width) {
        size_t byte = pos_ / 8;
        int bit = static_cast<int>(pos_ % 8);
        int take = std::min(8 - bit, width - got);
        uint64_t chunk = (static_cast<uint64_t>(data_[byte]) >> bit) & ((1u << take) - 1);
        v |= chunk << got;
        got += take;
        pos_ += static_cast<size_t>(take);
    }
    return v;
}

template <typename T>
void BitUnpacker::get_many(int width, T* out, size_t n) {
    size_t k = 0;
    if constexpr (std::endian::native == std::endian::little) {
        if (width > 0 && width <= 32 && n * static_cast<size_t>(width) <= bits_ - pos_) {
            const uint64_t mask = (uint64_t{1} << width) - 1;
            const size_t w = static_cast<size_t>(width);
            // Eight values of up to 8 bits lie in one 8-byte load when they
            // start on a byte, as the groups of a bit-packed run do.
            if (w <= 8 && pos_ % 8 == 0) {
                for (; k + 8 <= n && pos_ / 8 + 8 <= readable_; k += 8) {
                    uint64_t word;
                    std::memcpy(&word, data_ + pos_ / 8, 8);
                    for (size_t j = 0; j < 8; ++j) out[k + j] = static_cast<T>((word >> (j * w)) & mask);
                    pos_ += 8 * w;
                }
            }
            for (; k < n && pos_ / 8 + 8 <= readable_; ++k) {
                uint64_t word;
                std::memcpy(&word, data_ + pos_ / 8, 8);
                out[k] = static_cast<T>((word >> (pos_ % 8)) & mask);
                pos_ += w;
            }
        }
    }
    for (; k < n; ++k) out[k] = static_cast<T>(get(width));
}

template void BitUnpacker::get_many<uint32_t>(int, uint32_t*, size_t);
template void BitUnpacker::get_many<uint8_t>(int, uint8_t*, size_t);

uint64_t read_uleb128(const uint8_t*& p, const uint8_t* end) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p >= end) throw EncodingError("a varint runs past the end of the page");
        uint8_t b = *p++;
        v |= static_cast<uint64_t>(b & 0x7F) << shift;
        if (!(b & 0x80)) return v;
    }
    throw EncodingError("a varint longer than 10 bytes");
}

static int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

RleDecoder::RleDecoder(const uint8_t* data, size_t size, int bit_width)
    : p_(data), end_(data + size), width_(bit_width) {
    if (bit_width < 0 || bit_width > 32) throw EncodingError("RLE bit width " + std::to_string(bit_width) + " above 32");
}

bool RleDecoder::next_run() {
    if (p_ >= end_) return false;
    uint64_t header = read_uleb128(p_, end_);
    if (header & 1) {
        uint64_t groups = header >> 1;
        if (groups == 0 || groups > (static_cast<uint64_t>(end_ - p_) + 1)) throw EncodingError("a bit-packed run past the end of its data");
        size_t bytes = static_cast<size_t>(groups) * static_cast<size_t>(width_);  // 8 values * width bits / 8
        // The last run may be cut short by writers that end the page there.
        size_t avail = std::min(bytes, static_cast<size_t>(end_ - p_));
        bits_ = BitUnpacker(p_, avail, static_cast<size_t>(end_ - p_));
        p_ += avail;
        run_left_ = static_cast<size_t>(groups) * 8;
        packed_ = true;
    } else {
        run_left_ = static_cast<size_t>(header >> 1);
        size_t nbytes = static_cast<size_t>((width_ + 7) / 8);
        if (static_cast<size_t>(end_ - p_) < nbytes) throw EncodingError("an RLE run past the end of its data");
        uint32_t v = 0;
        for (size_t i = 0; i < nbytes; ++i) v |= static_cast<uint32_t>(p_[i]) << (8 * i);
        p_ += nbytes;
        if (width_ < 32 && (v >> width_) != 0) throw EncodingError("an RLE value wider than its bit width");
        value_ = v;
        packed_ = false;
        if (run_left_ == 0) return next_run();
    }
    return true;
}

template <typename T>
void RleDecoder::decode_into(T* out, size_t count) {
    size_t i = 0;
    while (i < count) {
        if (run_left_ == 0 && !next_run()) throw EncodingError("RLE data ends after " + std::to_string(i) + " of " +
                                                               std::to_string(count) + " values");
        size_t n = std::min(run_left_, count - i);
        if (packed_) {
            bits_.get_many(width_, out + i, n);
        } else {
            std::fill(out + i, out + i + n, static_cast<T>(value_));
        }
        i += n;
        run_left_ -= n;
    }
}

void RleDecoder::decode(uint32_t* out, size_t count) { decode_into(out, count); }

void RleDecoder::decode(uint8_t* out, size_t count) {
    if (width_ > 8) throw EncodingError("levels of " + std::to_string(width_) + " bits decoded as bytes");
    decode_into(out, count);
}

const uint8_t* decode_delta_binary_packed(const uint8_t* p, const uint8_t* end, bool is32, size_t max_values,
                                          std::vector<int64_t>& out) {
    uint64_t block_size = read_uleb128(p, end);
    uint64_t miniblocks = read_uleb128(p, end);
    uint64_t total = read_uleb128(p, end);
    int64_t first = unzigzag(read_uleb128(p, end));
    if (block_size == 0 || block_size % 128 != 0 || miniblocks == 0 || block_size % miniblocks != 0 ||
        (block_size / miniblocks) % 32 != 0 || block_size > (1u << 20))
        throw EncodingError("DELTA_BINARY_PACKED header with block size " + std::to_string(block_size) + " and " +
                            std::to_string(miniblocks) + " miniblocks");
    // Values can take zero bits each, so the bytes do not bound the count:
    // the page's own value count does.
    if (total > max_values)
        throw EncodingError("DELTA_BINARY_PACKED claims " + std::to_string(total) + " values where the page has " +
                            std::to_string(max_values));
    if (total == 0) return p;
    uint64_t per_mini = block_size / miniblocks;
    auto wrap = [is32](uint64_t v) -> int64_t {
        return is32 ? static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v))) : static_cast<int64_t>(v);
    };
    uint64_t value = static_cast<uint64_t>(first);
    out.push_back(wrap(value));
    uint64_t left = total - 1;
    std::vector<uint8_t> widths(static_cast<size_t>(miniblocks));
    while (left > 0) {
        uint64_t min_delta = static_cast<uint64_t>(unzigzag(read_uleb128(p, end)));
        if (static_cast<uint64_t>(end - p) < miniblocks) throw EncodingError("DELTA_BINARY_PACKED bit widths past the end");
        std::memcpy(widths.data(), p, widths.size());
        p += miniblocks;
        for (uint64_t m = 0; m < miniblocks && left > 0; ++m) {
            int w = widths[m];
            if (w > 64) throw EncodingError("DELTA_BINARY_PACKED bit width " + std::to_string(w) + " above 64");
            size_t bytes = static_cast<size_t>(per_mini * static_cast<uint64_t>(w) / 8);
            uint64_t n = std::min(per_mini, left);
            // The last miniblock may be cut short to the values it holds.
            size_t need = static_cast<size_t>((n * static_cast<uint64_t>(w) + 7) / 8);
            if (static_cast<size_t>(end - p) < need) throw EncodingError("DELTA_BINARY_PACKED miniblock past the end");
            BitUnpacker bits(p, std::min(bytes, static_cast<size_t>(end - p)));
            for (uint64_t k = 0; k < n; ++k) {
                value += min_delta + bits.get(w);
                out.push_back(wrap(value));
            }
            p += std::min(bytes, static_cast<size_t>(end - p));
            left -= n;
        }
    }
    return p;
}

void decode_delta_length_byte_array(const uint8_t* p, const uint8_t* end, size_t max_values, ByteArrays& out) {
    std::vector<int64_t> lengths;
    p = decode_delta_binary_packed(p, end, true, max_values, lengths);
    for (int64_t n : lengths) {
        if (n < 0 || n > end - p) throw EncodingError("DELTA_LENGTH_BYTE_ARRAY value length " + std::to_string(n) + " past the end");
        out.add(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
        p += n;
    }
}

void decode_delta_byte_array(const uint8_t* p, const uint8_t* end, size_t max_values, ByteArrays& out) {
    std::vector<int64_t> prefixes;
    p = decode_delta_binary_packed(p, end, true, max_values, prefixes);
    ByteArrays suffixes;
    decode_delta_length_byte_array(p, end, max_values, suffixes);
    if (suffixes.size() != prefixes.size())
        throw EncodingError("DELTA_BYTE_ARRAY has " + std::to_string(prefixes.size()) + " prefixes but " +
                            std::to_string(suffixes.size()) + " suffixes");
    std::string prev;
    for (size_t i = 0; i < prefixes.size(); ++i) {
        int64_t n = prefixes[i];
        if (n < 0 || static_cast<size_t>(n) > prev.size())
            throw EncodingError("DELTA_BYTE_ARRAY prefix " + std::to_string(n) + " longer than the previous value");
        prev.resize(static_cast<size_t>(n));
        prev.append(suffixes.bytes, suffixes.offsets[i], suffixes.offsets[i + 1] - suffixes.offsets[i]);
        out.add(prev.data(), prev.size());
    }
}

void decode_byte_stream_split(const uint8_t* p, size_t size, size_t width, size_t count, uint8_t* out) {
    if (width == 0 || count > size / width) throw EncodingError("BYTE_STREAM_SPLIT holds fewer values than the page says");
    // The streams have size/width bytes each; a page may hold more than the
    // non-null values asked for only when padded, which the format forbids.
    size_t stream = size / width;
    for (size_t b = 0; b < width; ++b) {
        const uint8_t* s = p + b * stream;
        for (size_t i = 0; i < count; ++i) out[i * width + b] = s[i];
    }
}

}  // namespace nx::parquet
