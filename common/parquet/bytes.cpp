#include "common/parquet/bytes.h"

namespace nx::parquet {

void append_bytes(std::vector<uint8_t>& out, std::string_view bytes) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes.data());
    out.insert(out.end(), p, p + bytes.size());
}

void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void put_uleb128(std::vector<uint8_t>& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<uint8_t>(v));
}

VarintRead get_uleb128(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p >= end) return VarintRead::truncated;
        uint8_t b = *p++;
        v |= static_cast<uint64_t>(b & 0x7F) << shift;
        if (!(b & 0x80)) return VarintRead::ok;
    }
    return VarintRead::too_long;
}

}  // namespace nx::parquet
