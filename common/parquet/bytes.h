// The integers Parquet's encodings and Thrift's compact protocol are built
// of, written to a byte vector and read from a byte range: little-endian
// fixed-width integers, ULEB128 varints and zigzag.  Reads are bounded: a
// varint that runs past its range or past 10 bytes is reported, and each
// caller says so in its own terms (a page, a footer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace nx::parquet {

// Appends bytes in one copy: inserting a range of char into a vector of
// uint8_t converts element by element.
void append_bytes(std::vector<uint8_t>& out, std::string_view bytes);

// `bytes` low bytes of v, least significant first.
void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes);
inline uint32_t get_le32(const uint8_t* p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
           static_cast<uint32_t>(p[3]) << 24;
}

// ULEB128: seven bits a byte, least significant first, the high bit set on
// every byte but the last.
void put_uleb128(std::vector<uint8_t>& out, uint64_t v);
enum class VarintRead { ok, truncated, too_long };
// Reads one at `p`, moving `p` past what it read (to `end` when truncated).
VarintRead get_uleb128(const uint8_t*& p, const uint8_t* end, uint64_t& v);

// Zigzag: signed integers as unsigned, small magnitudes small (0, -1, 1, -2
// as 0, 1, 2, 3), for varints.
constexpr uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
constexpr int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

}  // namespace nx::parquet
