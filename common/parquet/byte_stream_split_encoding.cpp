#include "common/parquet/byte_stream_split_encoding.h"

namespace nx::parquet {

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
