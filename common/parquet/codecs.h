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

// Decompresses `size` bytes into exactly `expected` bytes, replacing `out`.
void decompress(Codec codec, const uint8_t* data, size_t size, size_t expected, std::vector<uint8_t>& out);

}  // namespace nx::parquet
