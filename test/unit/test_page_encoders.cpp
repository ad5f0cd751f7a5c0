// The Parquet writer's page encoders (common/parquet/page_encoders.h), read
// back by nx's own decoders (encodings.h): DELTA_BINARY_PACKED on the
// specification's example and on values whose deltas wrap, at every
// block and miniblock boundary; the RLE hybrid on runs and literals.
// Whole files the writer makes are read by DuckDB and arrow-rs in
// test/72-dataset.bats.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "common/parquet/encodings.h"
#include "common/parquet/page_encoders.h"

namespace {

using namespace nx::parquet;
using Bytes = std::vector<uint8_t>;

uint64_t uleb(const uint8_t*& p) {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        v |= static_cast<uint64_t>(*p & 0x7f) << shift;
        if (!(*p++ & 0x80)) return v;
    }
}

// Every miniblock's bit width of an encoding of n values (blocks of 128, 4
// miniblocks): nx's decoder takes any width up to 64, where an INT32 reader
// (Arrow C++) refuses one above 32.
std::vector<int> miniblock_widths(const Bytes& b, size_t n) {
    const uint8_t* p = b.data();
    for (int k = 0; k < 4; ++k) uleb(p);  // block size, miniblocks, count, first value
    std::vector<int> widths;
    for (size_t left = n > 0 ? n - 1 : 0; left > 0;) {
        uleb(p);  // min delta
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
    rle_hybrid(v.data(), v.size(), bit_width(12), scratch, b);
    RleDecoder d(b.data(), b.size(), bit_width(12));
    std::vector<uint32_t> out(v.size());
    d.decode(out.data(), out.size());
    EXPECT_EQ(out, v);
}

}  // namespace
