// The DELTA encodings (Encodings.md): DELTA_BINARY_PACKED both ways (the
// writer's integer columns, the reader's every use), and the reader's
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY, which are built on it.
// Decoders check their input bounds and throw EncodingError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/parquet/decoding.h"

namespace nx::parquet {

// DELTA_BINARY_PACKED: the first value, then blocks of 128 deltas, each
// block its smallest delta and four miniblocks of 32 deltas above it,
// bit-packed at the narrowest width that holds them (0 bits when they are
// equal: evenly spaced timestamps, a run of one track's id).  Deltas wrap
// in T's width, as the specification asks and int32 readers expect (their
// widths never exceed 32).  T: int64_t or int32_t.
template <class T>
void delta_binary_packed(const T* v, size_t n, std::vector<uint8_t>& out);

// DELTA_BINARY_PACKED: appends the values of the block at `p` (all that its
// header counts) to `out`; returns the byte after its last miniblock.
// `is32`: INT32 column, values wrap at 32 bits as the writer computed them.
// A header claiming more than `max_values` (the page's count) is an error.
const uint8_t* decode_delta_binary_packed(const uint8_t* p, const uint8_t* end, bool is32, size_t max_values,
                                          std::vector<int64_t>& out);

// DELTA_LENGTH_BYTE_ARRAY: the lengths DELTA_BINARY_PACKED, then the bytes.
void decode_delta_length_byte_array(const uint8_t* p, const uint8_t* end, size_t max_values, ByteArrays& out);
// DELTA_BYTE_ARRAY: each value the previous one's prefix (its length
// DELTA_BINARY_PACKED) and a suffix (DELTA_LENGTH_BYTE_ARRAY).
void decode_delta_byte_array(const uint8_t* p, const uint8_t* end, size_t max_values, ByteArrays& out);

}  // namespace nx::parquet
