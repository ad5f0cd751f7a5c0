// BYTE_STREAM_SPLIT (Encodings.md), read: a page's fixed-width values with
// their bytes split into one stream per byte position (floats compress
// better so).  nx writes none; the reader gathers the values back into
// PLAIN order and decodes them as PLAIN (plain_encoding.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/parquet/decoding.h"

namespace nx::parquet {

// `count` values of `width` bytes scattered into `width` streams of the
// `size` bytes at `p`; gathered into `out` (count * width bytes).  Throws
// EncodingError when the streams hold fewer values.
void decode_byte_stream_split(const uint8_t* p, size_t size, size_t width, size_t count, uint8_t* out);

}  // namespace nx::parquet
