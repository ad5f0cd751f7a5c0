// What every decoder of a page's values shares: the error it throws on bytes
// that do not hold what they claim, a bounded ULEB128 read that throws it,
// and the buffer byte arrays decode into.  The decoders themselves sit with
// their encoders, one file an encoding (plain_, rle_, delta_,
// byte_stream_split_encoding.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/parquet/bytes.h"

namespace nx::parquet {

class EncodingError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// ULEB128 as Parquet's encodings use it, within the page.
inline uint64_t read_uleb128(const uint8_t*& p, const uint8_t* end) {
    uint64_t v = 0;
    switch (get_uleb128(p, end, v)) {
        case VarintRead::ok: return v;
        case VarintRead::truncated: throw EncodingError("a varint runs past the end of the page");
        case VarintRead::too_long: break;
    }
    throw EncodingError("a varint longer than 10 bytes");
}

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

}  // namespace nx::parquet
