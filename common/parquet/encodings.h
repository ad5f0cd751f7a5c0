// Parquet's value and level encodings, as pure functions over byte ranges:
// the RLE/bit-packed hybrid (levels, dictionary indices, booleans),
// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
// BYTE_STREAM_SPLIT.  PLAIN is read where the values are stored
// (column_cursor.cpp).  Every decoder checks its input bounds and throws
// EncodingError on bytes that do not hold what they claim.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nx::parquet {

class EncodingError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads values of `width` bits packed least-significant bit first.
class BitUnpacker {
public:
    // `readable` (at least `size`): bytes from `data` that may be loaded,
    // though only `size` hold values; room past the values lets short runs
    // use 8-byte loads too.
    BitUnpacker(const uint8_t* data, size_t size, size_t readable = 0)
        : data_(data), bits_(size * 8), readable_(readable > size ? readable : size) {}
    // Throws when fewer than `width` bits are left.
    uint64_t get(int width);
    // `n` values of `width` bits (at most 32) into `out`; throws like get().
    template <typename T>
    void get_many(int width, T* out, size_t n);
    size_t bits_left() const { return bits_ - pos_; }
    size_t bytes_used() const { return (pos_ + 7) / 8; }

private:
    const uint8_t* data_;
    size_t bits_;
    size_t readable_;
    size_t pos_ = 0;
};

// The RLE/bit-packed hybrid, decoded a run at a time (repeated values are
// filled, bit-packed ones unpacked eight at a time).
class RleDecoder {
public:
    RleDecoder(const uint8_t* data, size_t size, int bit_width);
    // Decodes `count` values; throws when the data runs out first.  uint8_t
    // output is for levels, whose bit width is at most 8.
    void decode(uint32_t* out, size_t count);
    void decode(uint8_t* out, size_t count);

private:
    template <typename T>
    void decode_into(T* out, size_t count);
    bool next_run();
    const uint8_t* p_;
    const uint8_t* end_;
    int width_;
    // Current run: repeated value or bit-packed values.
    size_t run_left_ = 0;
    bool packed_ = false;
    uint32_t value_ = 0;
    BitUnpacker bits_{nullptr, 0};
};

// DELTA_BINARY_PACKED: appends the values of the block at `p` (all that its
// header counts) to `out`; returns the byte after its last miniblock.
// `is32`: INT32 column, values wrap at 32 bits as the writer computed them.
// A header claiming more than `max_values` (the page's count) is an error.
const uint8_t* decode_delta_binary_packed(const uint8_t* p, const uint8_t* end, bool is32, size_t max_values,
                                          std::vector<int64_t>& out);

// Byte arrays decoded into one buffer: value i is bytes[offsets[i], offsets[i+1]).
struct ByteArrays {
    std::vector<uint32_t> offsets{0};
    std::string bytes;
    size_t size() const { return offsets.size() - 1; }
    void clear() { offsets.assign(1, 0); bytes.clear(); }
    void add(const char* s, size_t n) {
        bytes.append(s, n);
        offsets.push_back(static_cast<uint32_t>(bytes.size()));
    }
    std::string_view view(size_t i) const {
        return std::string_view(bytes).substr(offsets[i], offsets[i + 1] - offsets[i]);
    }
};

void decode_delta_length_byte_array(const uint8_t* p, const uint8_t* end, size_t max_values, ByteArrays& out);
void decode_delta_byte_array(const uint8_t* p, const uint8_t* end, size_t max_values, ByteArrays& out);

// BYTE_STREAM_SPLIT: `count` values of `width` bytes scattered into `width`
// streams; gathered into `out` (count * width bytes).
void decode_byte_stream_split(const uint8_t* p, size_t size, size_t width, size_t count, uint8_t* out);

// ULEB128 as Parquet uses it (bounded).
uint64_t read_uleb128(const uint8_t*& p, const uint8_t* end);

}  // namespace nx::parquet
