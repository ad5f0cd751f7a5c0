// Bit packing, both ways: values of `width` bits laid end to end, least
// significant bit first, as the RLE hybrid's literal groups and
// DELTA_BINARY_PACKED's miniblocks hold them (rle_encoding.h,
// delta_encoding.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nx::parquet {

// Appends n values of `width` bits each (0 to 64); n x width is whole bytes
// where the encodings call it (groups of 8 values, miniblocks of 32), else
// the last byte is padded with zeros.  U: uint32_t or uint64_t.
template <class U>
void bit_pack(const U* v, size_t n, int width, std::vector<uint8_t>& out);

// Reads values of `width` bits packed least-significant bit first.
class BitUnpacker {
public:
    // `readable` (at least `size`): bytes from `data` that may be loaded,
    // though only `size` hold values; room past the values lets short runs
    // use 8-byte loads too.
    BitUnpacker(const uint8_t* data, size_t size, size_t readable = 0)
        : data_(data), bits_(size * 8), readable_(readable > size ? readable : size) {}
    // Throws EncodingError when fewer than `width` bits are left.
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

}  // namespace nx::parquet
