// Page decompression for every codec Parquet writers use today, through the
// Debian libraries (snappy, zlib, zstd, lz4, brotli).  The page header says
// how large the result must be: anything else is an error, so a codec that
// fails or a size that lies never yields a short or overlong page.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/parquet/file_metadata.h"

namespace nx::parquet {

class CodecError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Decompresses `size` bytes into exactly `expected` bytes at `out` (which
// has room for them).
void decompress(Codec codec, const uint8_t* data, size_t size, uint8_t* out, size_t expected);
// The same into a vector, resized to `expected`.
inline void decompress(Codec codec, const uint8_t* data, size_t size, size_t expected, std::vector<uint8_t>& out) {
    out.resize(expected);
    decompress(codec, data, size, out.data(), expected);
}

}  // namespace nx::parquet
