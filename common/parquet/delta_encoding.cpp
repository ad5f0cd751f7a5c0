#include "common/parquet/delta_encoding.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <type_traits>

#include "common/parquet/bit_packing.h"
#include "common/parquet/bytes.h"

namespace nx::parquet {

template <class T>
void delta_binary_packed(const T* v, size_t n, std::vector<uint8_t>& out) {
    using U = std::make_unsigned_t<T>;
    constexpr size_t kBlock = 128, kMiniblocks = 4, kPerMiniblock = kBlock / kMiniblocks;
    put_uleb128(out, kBlock);
    put_uleb128(out, kMiniblocks);
    put_uleb128(out, n);
    put_uleb128(out, zigzag(n ? static_cast<int64_t>(v[0]) : 0));
    U deltas[kBlock];
    for (size_t at = 1; at < n; at += kBlock) {
        const size_t m = std::min(kBlock, n - at);
        T min_delta = 0;
        for (size_t k = 0; k < m; ++k) {
            deltas[k] = static_cast<U>(static_cast<U>(v[at + k]) - static_cast<U>(v[at + k - 1]));
            const auto d = static_cast<T>(deltas[k]);
            if (k == 0 || d < min_delta) min_delta = d;
        }
        // The last miniblock is padded with zeros to its 32 values.
        std::fill(deltas + m, deltas + (m + kPerMiniblock - 1) / kPerMiniblock * kPerMiniblock, U{0});
        put_uleb128(out, zigzag(static_cast<int64_t>(min_delta)));
        const size_t used = (m + kPerMiniblock - 1) / kPerMiniblock;
        uint8_t widths[kMiniblocks] = {};
        for (size_t j = 0; j < used; ++j) {
            U any = 0;
            for (size_t k = j * kPerMiniblock; k < (j + 1) * kPerMiniblock; ++k) {
                if (k < m) deltas[k] = static_cast<U>(deltas[k] - static_cast<U>(min_delta));
                any |= deltas[k];
            }
            widths[j] = static_cast<uint8_t>(std::bit_width(any));
        }
        // Unused miniblocks of the last block keep a width (0) and no bytes.
        out.insert(out.end(), widths, widths + kMiniblocks);
        for (size_t j = 0; j < used; ++j) bit_pack(deltas + j * kPerMiniblock, kPerMiniblock, widths[j], out);
    }
}

template void delta_binary_packed<int64_t>(const int64_t*, size_t, std::vector<uint8_t>&);
template void delta_binary_packed<int32_t>(const int32_t*, size_t, std::vector<uint8_t>&);

const uint8_t* decode_delta_binary_packed(const uint8_t* p, const uint8_t* end, bool is32, size_t max_values,
                                          std::vector<int64_t>& out) {
    uint64_t block_size = read_uleb128(p, end);
    uint64_t miniblocks = read_uleb128(p, end);
    uint64_t total = read_uleb128(p, end);
    int64_t first = unzigzag(read_uleb128(p, end));
    if (block_size == 0 || block_size % 128 != 0 || miniblocks == 0 || block_size % miniblocks != 0 ||
        (block_size / miniblocks) % 32 != 0 || block_size > (1u << 20))
        throw EncodingError("DELTA_BINARY_PACKED header with block size " + std::to_string(block_size) + " and " +
                            std::to_string(miniblocks) + " miniblocks");
    // Values can take zero bits each, so the bytes do not bound the count:
    // the page's own value count does.
    if (total > max_values)
        throw EncodingError("DELTA_BINARY_PACKED claims " + std::to_string(total) + " values where the page has " +
                            std::to_string(max_values));
    if (total == 0) return p;
    uint64_t per_mini = block_size / miniblocks;
    auto wrap = [is32](uint64_t v) -> int64_t {
        return is32 ? static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v))) : static_cast<int64_t>(v);
    };
    uint64_t value = static_cast<uint64_t>(first);
    out.push_back(wrap(value));
    uint64_t left = total - 1;
    std::vector<uint8_t> widths(static_cast<size_t>(miniblocks));
    while (left > 0) {
        uint64_t min_delta = static_cast<uint64_t>(unzigzag(read_uleb128(p, end)));
        if (static_cast<uint64_t>(end - p) < miniblocks) throw EncodingError("DELTA_BINARY_PACKED bit widths past the end");
        std::memcpy(widths.data(), p, widths.size());
        p += miniblocks;
        for (uint64_t m = 0; m < miniblocks && left > 0; ++m) {
            int w = widths[m];
            if (w > 64) throw EncodingError("DELTA_BINARY_PACKED bit width " + std::to_string(w) + " above 64");
            size_t bytes = static_cast<size_t>(per_mini * static_cast<uint64_t>(w) / 8);
            uint64_t n = std::min(per_mini, left);
            // The last miniblock may be cut short to the values it holds.
            size_t need = static_cast<size_t>((n * static_cast<uint64_t>(w) + 7) / 8);
            if (static_cast<size_t>(end - p) < need) throw EncodingError("DELTA_BINARY_PACKED miniblock past the end");
            BitUnpacker bits(p, std::min(bytes, static_cast<size_t>(end - p)));
            for (uint64_t k = 0; k < n; ++k) {
                value += min_delta + bits.get(w);
                out.push_back(wrap(value));
            }
            p += std::min(bytes, static_cast<size_t>(end - p));
            left -= n;
        }
    }
    return p;
}

void decode_delta_length_byte_array(const uint8_t* p, const uint8_t* end, size_t max_values, ByteArrays& out) {
    std::vector<int64_t> lengths;
    p = decode_delta_binary_packed(p, end, true, max_values, lengths);
    for (int64_t n : lengths) {
        if (n < 0 || n > end - p) throw EncodingError("DELTA_LENGTH_BYTE_ARRAY value length " + std::to_string(n) + " past the end");
        out.add(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
        p += n;
    }
}

void decode_delta_byte_array(const uint8_t* p, const uint8_t* end, size_t max_values, ByteArrays& out) {
    std::vector<int64_t> prefixes;
    p = decode_delta_binary_packed(p, end, true, max_values, prefixes);
    ByteArrays suffixes;
    decode_delta_length_byte_array(p, end, max_values, suffixes);
    if (suffixes.size() != prefixes.size())
        throw EncodingError("DELTA_BYTE_ARRAY has " + std::to_string(prefixes.size()) + " prefixes but " +
                            std::to_string(suffixes.size()) + " suffixes");
    std::string prev;
    for (size_t i = 0; i < prefixes.size(); ++i) {
        int64_t n = prefixes[i];
        if (n < 0 || static_cast<size_t>(n) > prev.size())
            throw EncodingError("DELTA_BYTE_ARRAY prefix " + std::to_string(n) + " longer than the previous value");
        prev.resize(static_cast<size_t>(n));
        prev.append(suffixes.bytes, suffixes.offsets[i], suffixes.offsets[i + 1] - suffixes.offsets[i]);
        out.add(prev.data(), prev.size());
    }
}

}  // namespace nx::parquet
