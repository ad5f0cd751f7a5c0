// Each encoding's encoder read back by its paired decoder (common/parquet/
// *_encoding.h, bit_packing.h, bytes.h): ULEB128 and zigzag, bit packing at
// every width, PLAIN values, booleans and byte arrays, the RLE hybrid on runs
// and literals, DELTA_BINARY_PACKED on the specification's examples and on
// values whose deltas wrap, at every block and miniblock boundary.  Whole
// files the writer makes are read by DuckDB and arrow-rs in
// test/72-dataset.bats.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/parquet/bit_packing.h"
#include "common/parquet/bytes.h"
#include "common/parquet/decoding.h"
#include "common/parquet/delta_encoding.h"
#include "common/parquet/plain_encoding.h"
#include "common/parquet/rle_encoding.h"

namespace {

using namespace nx::parquet;
using Bytes = std::vector<uint8_t>;

// Every miniblock's bit width of an encoding of n values (blocks of 128, 4
// miniblocks): nx's decoder takes any width up to 64, where an INT32 reader
// (Arrow C++) refuses one above 32.
std::vector<int> miniblock_widths(const Bytes& b, size_t n) {
    const uint8_t* p = b.data();
    const uint8_t* end = b.data() + b.size();
    for (int k = 0; k < 4; ++k) read_uleb128(p, end);  // block size, miniblocks, count, first value
    std::vector<int> widths;
    for (size_t left = n > 0 ? n - 1 : 0; left > 0;) {
        read_uleb128(p, end);  // min delta
        const uint8_t* w = p;
        p += 4;
        for (int m = 0; m < 4 && left > 0; ++m) {
            widths.push_back(w[m]);
            p += 32 * w[m] / 8;
            left -= std::min<size_t>(32, left);
        }
    }
    EXPECT_EQ(p, b.data() + b.size());
    return widths;
}

template <class T>
std::vector<int64_t> round_trip(const std::vector<T>& v, size_t* bytes = nullptr) {
    Bytes b;
    delta_binary_packed(v.data(), v.size(), b);
    for (int w : miniblock_widths(b, v.size())) EXPECT_LE(w, static_cast<int>(8 * sizeof(T)));
    std::vector<int64_t> out;
    const uint8_t* end = decode_delta_binary_packed(b.data(), b.data() + b.size(), sizeof(T) == 4, v.size(), out);
    // Every byte written is the encoding's: nothing left over.
    EXPECT_EQ(end, b.data() + b.size());
    if (bytes) *bytes = b.size();
    return out;
}

template <class T>
void expect_round_trip(const std::vector<T>& v, const char* what) {
    std::vector<int64_t> out = round_trip(v);
    ASSERT_EQ(out.size(), v.size()) << what;
    for (size_t k = 0; k < v.size(); ++k) ASSERT_EQ(out[k], static_cast<int64_t>(v[k])) << what << " value " << k;
}

TEST(DeltaEncoder, TheSpecificationsFirstExample) {
    // The specification's 1, 2, 3, 4, 5 (its blocks of 8, here of 128, 4
    // miniblocks, as parquet-mr writes them): 5 values, first 1 (zigzag 2);
    // one block: min delta 1 (zigzag 2), widths 0: no miniblock bytes.
    std::vector<int64_t> v = {1, 2, 3, 4, 5};
    Bytes b;
    delta_binary_packed(v.data(), v.size(), b);
    EXPECT_EQ(b, (Bytes{0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0}));
}

TEST(DeltaEncoder, TheSpecificationsSecondExample) {
    // Its 7, 5, 3, 1, 2, 3, 4, 5 in blocks of 128: min delta -2 (zigzag 3),
    // relative deltas 0 0 0 3 3 3 3 at 2 bits, the miniblock padded to its
    // 32 values.
    std::vector<int64_t> v = {7, 5, 3, 1, 2, 3, 4, 5};
    Bytes b;
    delta_binary_packed(v.data(), v.size(), b);
    EXPECT_EQ(b, (Bytes{0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00, 0x00,
                        0xC0, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}));
}

TEST(DeltaEncoder, EveryBlockAndMiniblockBoundaryReadsBack) {
    std::mt19937_64 rng(7);
    for (size_t n : {0, 1, 2, 31, 32, 33, 127, 128, 129, 130, 160, 255, 256, 257, 1000}) {
        std::vector<int64_t> v(n);
        for (auto& x : v) x = static_cast<int64_t>(rng() % 100000) - 50000;
        expect_round_trip(v, "int64 small");
        std::vector<int32_t> w(n);
        for (auto& x : w) x = static_cast<int32_t>(rng() % 1000) - 500;
        expect_round_trip(w, "int32 small");
    }
}

TEST(DeltaEncoder, DeltasThatWrapReadBackAtEveryWidth) {
    // Full-range values: deltas overflow T and wrap, up to 64 (32) bits a value.
    std::mt19937_64 rng(11);
    std::vector<int64_t> v(700);
    for (auto& x : v) x = static_cast<int64_t>(rng());
    expect_round_trip(v, "int64 random");
    std::vector<int32_t> w(700);
    for (auto& x : w) x = static_cast<int32_t>(static_cast<uint32_t>(rng()));
    expect_round_trip(w, "int32 random");
    const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
    expect_round_trip(std::vector<int64_t>{lo, hi, lo, hi, 0, -1, hi, lo, lo}, "int64 extremes");
    const int32_t lo32 = std::numeric_limits<int32_t>::min(), hi32 = std::numeric_limits<int32_t>::max();
    expect_round_trip(std::vector<int32_t>{lo32, hi32, lo32, hi32, 0, -1, hi32, lo32}, "int32 extremes");
    // Each miniblock its own width above the block's smallest delta, 0:
    // deltas of 0 and 1, 2^16, 2^56 (57 bits, past the fast path's 56) and
    // INT64_MAX; then deltas of 0 and INT64_MIN, 2^63 apart: 64 bits.  The
    // values are summed as unsigned, wrapping as the encoder's deltas do.
    std::vector<int64_t> mixed;
    uint64_t at = 0;
    for (uint64_t step : {uint64_t{1}, uint64_t{1} << 16, uint64_t{1} << 56, uint64_t{INT64_MAX}, uint64_t{1} << 63})
        for (int k = 0; k < 32; ++k) mixed.push_back(static_cast<int64_t>(at += (k % 2 ? step : 0)));
    Bytes b;
    delta_binary_packed(mixed.data(), mixed.size(), b);
    EXPECT_EQ(miniblock_widths(b, mixed.size()), (std::vector<int>{1, 17, 57, 63, 64}));
    expect_round_trip(mixed, "widths");
}

TEST(DeltaEncoder, EvenlySpacedTimestampsTakeNoBitsAValue) {
    std::vector<int64_t> v(10000);
    for (size_t k = 0; k < v.size(); ++k) v[k] = 1'700'000'000'000'000'000 + static_cast<int64_t>(k) * 100;
    size_t bytes = 0;
    std::vector<int64_t> out = round_trip(v, &bytes);
    EXPECT_EQ(out.back(), v.back());
    // 79 blocks of a min delta (2 bytes) and 4 widths of 0: no miniblock bytes.
    EXPECT_LT(bytes, 600u) << "PLAIN takes 80,000";
}

TEST(RleHybrid, RunsAndLiteralsReadBack) {
    std::vector<uint32_t> v;
    for (int k = 0; k < 20; ++k) v.push_back(3);         // a run
    for (uint32_t k = 0; k < 13; ++k) v.push_back(k);    // literals
    for (int k = 0; k < 9; ++k) v.push_back(12);         // a run after an odd literal count
    Bytes b;
    std::vector<uint32_t> scratch;
    rle_hybrid(v.data(), v.size(), index_bit_width(13), scratch, b);
    RleDecoder d(b.data(), b.size(), index_bit_width(13));
    std::vector<uint32_t> out(v.size());
    d.decode(out.data(), out.size());
    EXPECT_EQ(out, v);
}

TEST(Varint, Uleb128ReadsBackAtEveryLength) {
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{127}, uint64_t{128}, uint64_t{300}, uint64_t{1} << 35,
                       std::numeric_limits<uint64_t>::max()}) {
        Bytes b;
        put_uleb128(b, v);
        const uint8_t* p = b.data();
        uint64_t got = 0;
        ASSERT_EQ(get_uleb128(p, b.data() + b.size(), got), VarintRead::ok) << v;
        EXPECT_EQ(got, v);
        EXPECT_EQ(p, b.data() + b.size()) << v;
    }
}

TEST(Varint, Uleb128CutShortIsTruncated) {
    Bytes b;
    put_uleb128(b, 300);
    const uint8_t* p = b.data();
    uint64_t got = 0;
    EXPECT_EQ(get_uleb128(p, b.data() + 1, got), VarintRead::truncated);
    EXPECT_EQ(p, b.data() + 1);
}

TEST(Varint, Uleb128PastTenBytesIsTooLong) {
    Bytes b(11, 0x80);
    const uint8_t* p = b.data();
    uint64_t got = 0;
    EXPECT_EQ(get_uleb128(p, b.data() + b.size(), got), VarintRead::too_long);
}

TEST(Varint, ZigzagMapsSmallMagnitudesToSmallNumbers) {
    EXPECT_EQ(zigzag(0), 0u);
    EXPECT_EQ(zigzag(-1), 1u);
    EXPECT_EQ(zigzag(1), 2u);
    EXPECT_EQ(zigzag(-2), 3u);
    for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{12345}, std::numeric_limits<int64_t>::min(),
                      std::numeric_limits<int64_t>::max()})
        EXPECT_EQ(unzigzag(zigzag(v)), v);
}

TEST(Varint, LittleEndianReadsBack) {
    Bytes b;
    put_le(b, 0xA1B2C3D4, 4);
    EXPECT_EQ(b, (Bytes{0xD4, 0xC3, 0xB2, 0xA1}));
    EXPECT_EQ(get_le32(b.data()), 0xA1B2C3D4u);
}

TEST(BitPacking, EveryWidthReadsBack) {
    std::mt19937_64 rng(3);
    for (int width = 0; width <= 64; ++width) {
        const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
        std::vector<uint64_t> v(32);
        for (auto& x : v) x = rng() & mask;
        Bytes b;
        bit_pack(v.data(), v.size(), width, b);
        ASSERT_EQ(b.size(), static_cast<size_t>(32 * width / 8)) << width;
        BitUnpacker u(b.data(), b.size());
        for (size_t k = 0; k < v.size(); ++k) ASSERT_EQ(u.get(width), v[k]) << "width " << width << " value " << k;
    }
}

TEST(BitPacking, Uint32ValuesReadBackManyAtATime) {
    std::mt19937 rng(5);
    for (int width = 1; width <= 32; ++width) {
        const uint32_t mask = width == 32 ? ~uint32_t{0} : (uint32_t{1} << width) - 1;
        std::vector<uint32_t> v(24);
        for (auto& x : v) x = static_cast<uint32_t>(rng()) & mask;
        Bytes b;
        bit_pack(v.data(), v.size(), width, b);
        std::vector<uint32_t> out(v.size());
        BitUnpacker(b.data(), b.size()).get_many(width, out.data(), out.size());
        EXPECT_EQ(out, v) << "width " << width;
    }
}

TEST(BitPacking, ReadingPastThePackedBitsIsAnError) {
    const std::vector<uint64_t> v = {5, 6, 7, 1, 2, 3, 4, 0};
    Bytes b;
    bit_pack(v.data(), v.size(), 3, b);
    BitUnpacker u(b.data(), b.size());
    for (uint64_t x : v) EXPECT_EQ(u.get(3), x);
    EXPECT_THROW(u.get(3), EncodingError);
}

TEST(BitWidth, ALevelOfZeroTakesNoBits) {
    EXPECT_EQ(level_bit_width(0), 0);
    EXPECT_EQ(level_bit_width(1), 1);
    EXPECT_EQ(level_bit_width(3), 2);
}

TEST(BitWidth, ADictionaryIndexTakesAtLeastOneBit) {
    EXPECT_EQ(index_bit_width(0), 1);
    EXPECT_EQ(index_bit_width(1), 1);
    EXPECT_EQ(index_bit_width(2), 1);
    EXPECT_EQ(index_bit_width(3), 2);
    EXPECT_EQ(index_bit_width(256), 8);
    EXPECT_EQ(index_bit_width(257), 9);
}

template <class T>
void expect_plain_round_trip(const std::vector<T>& v, PhysicalType type) {
    Bytes b;
    plain_values(v.data(), v.size(), b);
    std::vector<int64_t> ints;
    std::vector<double> reals;
    ByteArrays strs;
    decode_plain(type, plain_width(type, 0), false, b.data(), b.size(), v.size(), ints, reals, strs);
    ASSERT_EQ(ints.size() + reals.size(), v.size()) << to_string(type);
    for (size_t k = 0; k < v.size(); ++k) {
        if constexpr (std::is_integral_v<T>) EXPECT_EQ(ints[k], static_cast<int64_t>(v[k])) << to_string(type);
        else EXPECT_EQ(reals[k], static_cast<double>(v[k])) << to_string(type);
    }
}

TEST(Plain, FixedWidthValuesReadBack) {
    expect_plain_round_trip(std::vector<int64_t>{0, -1, std::numeric_limits<int64_t>::min(), 42}, PhysicalType::int64);
    expect_plain_round_trip(std::vector<int32_t>{0, -1, std::numeric_limits<int32_t>::max(), 42}, PhysicalType::int32);
    expect_plain_round_trip(std::vector<double>{0.5, -1e300, 3.25}, PhysicalType::float64);
    expect_plain_round_trip(std::vector<float>{0.5f, -2.0f, 1e30f}, PhysicalType::float32);
}

TEST(Plain, UnsignedInt32IsZeroExtended) {
    const std::vector<int32_t> v = {-1, 7};
    Bytes b;
    plain_values(v.data(), v.size(), b);
    std::vector<int64_t> ints;
    std::vector<double> reals;
    ByteArrays strs;
    decode_plain(PhysicalType::int32, 4, true, b.data(), b.size(), v.size(), ints, reals, strs);
    EXPECT_EQ(ints, (std::vector<int64_t>{4294967295, 7}));
}

TEST(Plain, FixedWidthValuesPastThePageAreAnError) {
    const std::vector<int64_t> v = {1, 2, 3};
    Bytes b;
    plain_values(v.data(), v.size(), b);
    std::vector<int64_t> ints;
    std::vector<double> reals;
    ByteArrays strs;
    EXPECT_THROW(decode_plain(PhysicalType::int64, 8, false, b.data(), b.size() - 1, v.size(), ints, reals, strs),
                 EncodingError);
}

TEST(Plain, BooleansAreBitsLeastSignificantFirst) {
    const Bytes v = {1, 0, 1, 1, 0, 0, 0, 0, 7, 0};  // any byte but 0 is true
    Bytes b;
    plain_booleans(v.data(), v.size(), b);
    EXPECT_EQ(b, (Bytes{0x0D, 0x01}));
    std::vector<int64_t> ints;
    std::vector<double> reals;
    ByteArrays strs;
    decode_plain(PhysicalType::boolean, 0, false, b.data(), b.size(), v.size(), ints, reals, strs);
    EXPECT_EQ(ints, (std::vector<int64_t>{1, 0, 1, 1, 0, 0, 0, 0, 1, 0}));
}

TEST(Plain, ByteArraysReadBack) {
    const std::vector<std::string> v = {"", "engine", std::string(300, 'x'), "\xe2\x82\xac"};
    Bytes b;
    for (const std::string& s : v) plain_byte_array(s, b);
    std::vector<int64_t> ints;
    std::vector<double> reals;
    ByteArrays strs;
    decode_plain(PhysicalType::byte_array, 0, false, b.data(), b.size(), v.size(), ints, reals, strs);
    ASSERT_EQ(strs.size(), v.size());
    for (size_t k = 0; k < v.size(); ++k) EXPECT_EQ(strs.view(k), v[k]);
}

TEST(Plain, AByteArrayPastThePageIsAnError) {
    Bytes b;
    plain_byte_array("engine", b);
    b.pop_back();
    const uint8_t* p = b.data();
    EXPECT_THROW(decode_plain_byte_array(p, b.data() + b.size(), 0), EncodingError);
}

TEST(RleHybrid, LevelsReadBackAsBytes) {
    Bytes v;
    for (int k = 0; k < 100; ++k) v.push_back(k % 7 == 3 ? 0 : 1);
    Bytes b;
    std::vector<uint32_t> scratch;
    rle_hybrid(v.data(), v.size(), 1, scratch, b);
    Bytes out(v.size());
    RleDecoder(b.data(), b.size(), 1).decode(out.data(), out.size());
    EXPECT_EQ(out, v);
}

}  // namespace
