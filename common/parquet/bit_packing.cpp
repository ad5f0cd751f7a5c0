#include "common/parquet/bit_packing.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "common/parquet/decoding.h"

namespace nx::parquet {

template <class U>
void bit_pack(const U* v, size_t n, int width, std::vector<uint8_t>& out) {
    if (width == 0) return;
    auto pack = [&](auto acc) {
        int bits = 0;
        for (size_t k = 0; k < n; ++k) {
            acc |= static_cast<decltype(acc)>(v[k]) << bits;
            bits += width;
            while (bits >= 8) {
                out.push_back(static_cast<uint8_t>(acc));
                acc >>= 8;
                bits -= 8;
            }
        }
        if (bits > 0) out.push_back(static_cast<uint8_t>(acc));
    };
    // The accumulator holds up to 7 bits left over plus a value.
    if (width <= 56) pack(uint64_t{0});
    else pack(static_cast<unsigned __int128>(0));
}

template void bit_pack<uint32_t>(const uint32_t*, size_t, int, std::vector<uint8_t>&);
template void bit_pack<uint64_t>(const uint64_t*, size_t, int, std::vector<uint8_t>&);

uint64_t BitUnpacker::get(int width) {
    if (width == 0) return 0;
    if (static_cast<size_t>(width) > bits_ - pos_) throw EncodingError("bit-packed values run past the end of the page");
    // Fast path: one 8-byte little-endian load holds the value (bit offset
    // below 8 plus at most 56 bits) when 8 bytes are left in the data.
    if constexpr (std::endian::native == std::endian::little) {
        size_t byte = pos_ / 8;
        if (width <= 56 && byte + 8 <= readable_) {
            uint64_t word;
            std::memcpy(&word, data_ + byte, 8);
            uint64_t v = (word >> (pos_ % 8)) & ((uint64_t{1} << width) - 1);
            pos_ += static_cast<size_t>(width);
            return v;
        }
    }
    uint64_t v = 0;
    int got = 0;
    while (got < width) {
        size_t byte = pos_ / 8;
        int bit = static_cast<int>(pos_ % 8);
        int take = std::min(8 - bit, width - got);
        uint64_t chunk = (static_cast<uint64_t>(data_[byte]) >> bit) & ((1u << take) - 1);
        v |= chunk << got;
        got += take;
        pos_ += static_cast<size_t>(take);
    }
    return v;
}

template <typename T>
void BitUnpacker::get_many(int width, T* out, size_t n) {
    size_t k = 0;
    if constexpr (std::endian::native == std::endian::little) {
        if (width > 0 && width <= 32 && n * static_cast<size_t>(width) <= bits_ - pos_) {
            const uint64_t mask = (uint64_t{1} << width) - 1;
            const size_t w = static_cast<size_t>(width);
            // Eight values of up to 8 bits lie in one 8-byte load when they
            // start on a byte, as the groups of a bit-packed run do.
            if (w <= 8 && pos_ % 8 == 0) {
                for (; k + 8 <= n && pos_ / 8 + 8 <= readable_; k += 8) {
                    uint64_t word;
                    std::memcpy(&word, data_ + pos_ / 8, 8);
                    for (size_t j = 0; j < 8; ++j) out[k + j] = static_cast<T>((word >> (j * w)) & mask);
                    pos_ += 8 * w;
                }
            }
            for (; k < n && pos_ / 8 + 8 <= readable_; ++k) {
                uint64_t word;
                std::memcpy(&word, data_ + pos_ / 8, 8);
                out[k] = static_cast<T>((word >> (pos_ % 8)) & mask);
                pos_ += w;
            }
        }
    }
    for (; k < n; ++k) out[k] = static_cast<T>(get(width));
}

template void BitUnpacker::get_many<uint32_t>(int, uint32_t*, size_t);
template void BitUnpacker::get_many<uint8_t>(int, uint8_t*, size_t);

}  // namespace nx::parquet
