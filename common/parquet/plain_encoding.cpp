#include "common/parquet/plain_encoding.h"

#include <algorithm>
#include <string>

#include "common/parquet/bytes.h"

namespace nx::parquet {

void plain_booleans(const uint8_t* v, size_t n, std::vector<uint8_t>& out) {
    uint8_t acc = 0;
    int bits = 0;
    for (size_t k = 0; k < n; ++k) {
        acc |= static_cast<uint8_t>((v[k] ? 1 : 0) << bits);
        if (++bits == 8) {
            out.push_back(acc);
            acc = 0;
            bits = 0;
        }
    }
    if (bits) out.push_back(acc);
}

void plain_byte_array(std::string_view v, std::vector<uint8_t>& out) {
    put_le(out, v.size(), 4);
    append_bytes(out, v);
}

size_t plain_width(PhysicalType t, int32_t type_length) {
    switch (t) {
        case PhysicalType::int32:
        case PhysicalType::float32: return 4;
        case PhysicalType::int64:
        case PhysicalType::float64: return 8;
        case PhysicalType::int96: return 12;
        case PhysicalType::fixed_len_byte_array: return static_cast<size_t>(type_length);
        default: return 0;
    }
}

void decode_plain_ints(PhysicalType t, bool is_unsigned, const uint8_t* p, size_t count, int64_t* out) {
    if (t == PhysicalType::int64) {
        if (count > 0) std::memcpy(out, p, count * 8);  // out may be null when count is 0
    } else if (is_unsigned) {
        for (size_t i = 0; i < count; ++i) out[i] = get_le32(p + 4 * i);
    } else {
        for (size_t i = 0; i < count; ++i) out[i] = static_cast<int32_t>(get_le32(p + 4 * i));
    }
}

void decode_plain_reals(PhysicalType t, const uint8_t* p, size_t count, double* out) {
    if (t == PhysicalType::float64) {
        if (count > 0) std::memcpy(out, p, count * 8);
        return;
    }
    for (size_t i = 0; i < count; ++i) {
        float f;
        std::memcpy(&f, p + 4 * i, 4);
        out[i] = f;
    }
}

std::string_view decode_plain_byte_array(const uint8_t*& p, const uint8_t* end, size_t index) {
    if (end - p < 4) throw EncodingError("PLAIN byte array " + std::to_string(index) + " past the end of the page");
    uint32_t len = get_le32(p);
    p += 4;
    if (len > static_cast<size_t>(end - p))
        throw EncodingError("PLAIN byte array of " + std::to_string(len) + " bytes past the end of the page");
    std::string_view v(reinterpret_cast<const char*>(p), len);
    p += len;
    return v;
}

void decode_plain(PhysicalType type, size_t width, bool is_unsigned, const uint8_t* p, size_t n, size_t count,
                  std::vector<int64_t>& ints, std::vector<double>& reals, ByteArrays& strs) {
    ints.clear();
    reals.clear();
    strs.clear();
    auto need = [&](size_t bytes) {
        if (bytes > n) throw EncodingError("PLAIN values need " + std::to_string(bytes) + " bytes, the page has " + std::to_string(n));
    };
    switch (type) {
        case PhysicalType::boolean:
            need((count + 7) / 8);
            ints.resize(count);
            for (size_t i = 0; i < count; ++i) ints[i] = plain_boolean(p, i);
            return;
        case PhysicalType::int32:
        case PhysicalType::int64:
            need(count * width);
            ints.resize(count);
            decode_plain_ints(type, is_unsigned, p, count, ints.data());
            return;
        case PhysicalType::float32:
        case PhysicalType::float64:
            need(count * width);
            reals.resize(count);
            decode_plain_reals(type, p, count, reals.data());
            return;
        case PhysicalType::int96:
        case PhysicalType::fixed_len_byte_array:
            need(count * width);
            strs.bytes.assign(reinterpret_cast<const char*>(p), count * width);
            strs.offsets.resize(count + 1);
            for (size_t i = 0; i <= count; ++i) strs.offsets[i] = static_cast<uint32_t>(i * width);
            return;
        case PhysicalType::byte_array: {
            const uint8_t* e = p + n;
            strs.offsets.reserve(std::min(count, n / 4) + 1);  // each value needs 4 bytes: never trust count alone
            for (size_t i = 0; i < count; ++i) {
                std::string_view v = decode_plain_byte_array(p, e, i);
                strs.add(v.data(), v.size());
            }
            return;
        }
    }
    throw EncodingError("unknown physical type");
}

}  // namespace nx::parquet
