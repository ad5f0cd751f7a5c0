#include "common/parquet/page_encoders.h"

#include <algorithm>
#include <bit>
#include <type_traits>

namespace nx::parquet {

void append_bytes(std::vector<uint8_t>& out, std::string_view bytes) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes.data());
    out.insert(out.end(), p, p + bytes.size());
}

void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void varint(std::vector<uint8_t>& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<uint8_t>(v));
}

int bit_width(uint32_t max_value) {
    int w = 0;
    while (max_value >> w) ++w;
    return std::max(w, 1);
}

namespace {

// Appends n values of `width` bits each (0 to 64), least significant bit
// first, as both the RLE hybrid's literal groups (8 values) and a delta
// miniblock (32) are packed: n x width is whole bytes there.
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

uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

}  // namespace

template <class T>
void rle_hybrid(const T* v, size_t n, int width, std::vector<uint32_t>& literals, std::vector<uint8_t>& out) {
    literals.clear();
    auto flush_literals = [&]() {
        if (literals.empty()) return;
        size_t groups = (literals.size() + 7) / 8;
        literals.resize(groups * 8, 0);
        varint(out, (groups << 1) | 1);
        bit_pack(literals.data(), literals.size(), width, out);
        literals.clear();
    };
    const int value_bytes = (width + 7) / 8;
    size_t i = 0;
    while (i < n) {
        size_t run = 1;
        while (i + run < n && v[i + run] == v[i]) ++run;
        if (run >= 8 && literals.size() % 8 == 0) {
            flush_literals();
            varint(out, static_cast<uint64_t>(run) << 1);
            put_le(out, v[i], value_bytes);
            i += run;
        } else if (run >= 8) {
            // Fill the literal group to a multiple of 8 first.
            size_t take = 8 - literals.size() % 8;
            literals.insert(literals.end(), v + i, v + i + take);
            i += take;
        } else {
            literals.insert(literals.end(), v + i, v + i + run);
            i += run;
        }
    }
    flush_literals();
}

template void rle_hybrid<uint8_t>(const uint8_t*, size_t, int, std::vector<uint32_t>&, std::vector<uint8_t>&);
template void rle_hybrid<uint32_t>(const uint32_t*, size_t, int, std::vector<uint32_t>&, std::vector<uint8_t>&);

template <class T>
void delta_binary_packed(const T* v, size_t n, std::vector<uint8_t>& out) {
    using U = std::make_unsigned_t<T>;
    constexpr size_t kBlock = 128, kMiniblocks = 4, kPerMiniblock = kBlock / kMiniblocks;
    varint(out, kBlock);
    varint(out, kMiniblocks);
    varint(out, n);
    varint(out, zigzag(n ? static_cast<int64_t>(v[0]) : 0));
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
        varint(out, zigzag(static_cast<int64_t>(min_delta)));
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

}  // namespace nx::parquet
