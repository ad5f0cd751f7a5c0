// The RLE / bit-packed hybrid, both ways: the encoding of definition and
// repetition levels, dictionary indices and RLE booleans (Encodings.md).
// Runs of one value are a count and the value; other values are bit-packed
// in groups of 8.  The writer encodes levels and dictionary indices
// (rle_hybrid); the reader decodes every use of it (RleDecoder).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/parquet/bit_packing.h"

namespace nx::parquet {

// The bits a level takes in a column whose levels go up to max_level: 0 for
// a column without levels (nothing is stored).
int level_bit_width(int max_level);
// The bits a dictionary index takes in a dictionary of `entries` entries: at
// least 1, as a data page's bit width byte says it even for one entry.
int index_bit_width(size_t entries);

// Appends `n` values of `width` bits: runs of 8 or more equal values as RLE
// runs, the rest bit-packed in groups of 8 (the last group padded with zeros;
// readers stop at the page's value count).  T: uint8_t (definition levels) or
// uint32_t (dictionary indices), read where they are; `literals` is the
// caller's scratch, so a page allocates nothing.
template <class T>
void rle_hybrid(const T* v, size_t n, int width, std::vector<uint32_t>& literals, std::vector<uint8_t>& out);

// Decodes the hybrid a run at a time (repeated values are filled,
// bit-packed ones unpacked eight at a time); throws EncodingError on runs
// past the data and on values wider than the bit width.
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

}  // namespace nx::parquet
