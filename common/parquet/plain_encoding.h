// PLAIN, both ways (Encodings.md): fixed-width values little-endian back to
// back, booleans one bit each (least significant first), byte arrays each
// a 4-byte length and its bytes.  The writer's encoders append a page's
// values; the reader's decoders take them from the page bytes, a slice at a
// time (the cursor) or a page at a time (dictionary pages, BYTE_STREAM_SPLIT
// gathered), and throw EncodingError on a page too short for its values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "common/parquet/decoding.h"
#include "common/parquet/file_metadata.h"

namespace nx::parquet {

// Fixed-width values as they are in memory (nx builds for little-endian
// machines only).  T: int64_t, int32_t, double, float.
template <class T>
void plain_values(const T* v, size_t n, std::vector<uint8_t>& out) {
    const auto* p = reinterpret_cast<const uint8_t*>(v);
    out.insert(out.end(), p, p + n * sizeof(T));
}
// Booleans (a byte each, 0 or not) as bits.
void plain_booleans(const uint8_t* v, size_t n, std::vector<uint8_t>& out);
void plain_byte_array(std::string_view v, std::vector<uint8_t>& out);

// The bytes of one PLAIN value of a physical type: 0 for BYTE_ARRAY (a
// length before each value) and BOOLEAN (bits).
size_t plain_width(PhysicalType t, int32_t type_length);
inline int64_t plain_boolean(const uint8_t* values, size_t i) { return (values[i / 8] >> (i % 8)) & 1; }
// `count` INT32 (sign- or, when unsigned, zero-extended) or INT64 values at `p`.
void decode_plain_ints(PhysicalType t, bool is_unsigned, const uint8_t* p, size_t count, int64_t* out);
// `count` FLOAT or DOUBLE values at `p`.
void decode_plain_reals(PhysicalType t, const uint8_t* p, size_t count, double* out);
// The byte array at `p` (value `index` of the page, for messages), moving
// `p` past it.
std::string_view decode_plain_byte_array(const uint8_t*& p, const uint8_t* end, size_t index);

// A page's `count` values of `type` (`width`: plain_width) from its `n`
// bytes at `p`, into the vector of the type's kind: BOOLEAN, INT32, INT64
// into `ints`, FLOAT, DOUBLE into `reals`, the rest into `strs`.
void decode_plain(PhysicalType type, size_t width, bool is_unsigned, const uint8_t* p, size_t n, size_t count,
                  std::vector<int64_t>& ints, std::vector<double>& reals, ByteArrays& strs);

}  // namespace nx::parquet
