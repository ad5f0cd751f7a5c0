// The Parquet writer's units on their own (common/parquet/): a chunk's
// statistics, a string chunk's dictionary, and a data page's body as each
// type family's encoder makes it, read back by the reader's decoders.  The
// writer whole is in test_parquet_writer.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parquet/bytes.h"
#include "common/parquet/column_encoders.h"
#include "common/parquet/column_statistics.h"
#include "common/parquet/delta_encoding.h"
#include "common/parquet/plain_encoding.h"
#include "common/parquet/rle_encoding.h"
#include "common/parquet/string_bounds.h"
#include "common/parquet/string_dictionary.h"

namespace {

using namespace nx::parquet;
using Bytes = std::vector<uint8_t>;

template <class T>
T from_plain(const std::optional<std::string>& bytes) {
    T v{};
    EXPECT_TRUE(bytes && bytes->size() == sizeof(T));
    if (bytes && bytes->size() == sizeof(T)) std::memcpy(&v, bytes->data(), sizeof(T));
    return v;
}

TEST(ColumnStatistics, NumbersKeepTheirBoundsAcrossPages) {
    ColumnStatistics s;
    const std::vector<int32_t> a = {5, -3, 9}, b = {12, 0};
    s.add_numbers(a.data(), a.size());
    s.add_numbers(b.data(), b.size());
    s.add_nulls(2);
    ColumnMetaData m;
    s.fill(m);
    EXPECT_EQ(from_plain<int32_t>(m.min_value), -3);
    EXPECT_EQ(from_plain<int32_t>(m.max_value), 12);
    EXPECT_EQ(m.null_count, 2);
    EXPECT_FALSE(m.min_value_exact.has_value());
}

TEST(ColumnStatistics, NaNIsLeftOut) {
    ColumnStatistics s;
    const std::vector<double> v = {std::nan(""), 2.5, std::nan(""), -1.0};
    s.add_numbers(v.data(), v.size());
    ColumnMetaData m;
    s.fill(m);
    EXPECT_EQ(from_plain<double>(m.min_value), -1.0);
    EXPECT_EQ(from_plain<double>(m.max_value), 2.5);
}

TEST(ColumnStatistics, APageOfNaNOnlyHasNoBounds) {
    ColumnStatistics s;
    const std::vector<float> v = {std::nanf("")};
    s.add_numbers(v.data(), v.size());
    ColumnMetaData m;
    s.fill(m);
    EXPECT_FALSE(m.min_value.has_value());
    EXPECT_EQ(m.null_count, 0);
}

TEST(ColumnStatistics, ALongStringIsBoundedAndSaidInexact) {
    ColumnStatistics s;
    const std::string longest(kStatBytes + 10, 'q');
    s.add_string("b");
    s.add_string(longest);
    ColumnMetaData m;
    s.fill(m);
    EXPECT_EQ(m.min_value, "b");
    EXPECT_EQ(m.max_value, upper_bound_of(longest));
    EXPECT_EQ(m.max_value_exact, false);
    EXPECT_FALSE(m.min_value_exact.has_value());
}

std::vector<std::string> repeated(size_t n, size_t distinct) {
    std::vector<std::string> v;
    for (size_t k = 0; k < n; ++k) v.push_back("engine_" + std::to_string(k % distinct));
    return v;
}

TEST(StringDictionary, RepeatedValuesTurnItOn) {
    const std::vector<std::string> v = repeated(100, 5);
    StringDictionary d;
    d.decide(v.size(), [&](size_t k) { return std::string_view(v[k]); });
    EXPECT_TRUE(d.on());
}

TEST(StringDictionary, MostlyDistinctValuesTurnItOff) {
    const std::vector<std::string> v = repeated(100, 100);
    StringDictionary d;
    d.decide(v.size(), [&](size_t k) { return std::string_view(v[k]); });
    EXPECT_FALSE(d.on());
}

TEST(StringDictionary, IndicesAreInFirstSeenOrderAndNewEntriesAreSaid) {
    const std::vector<std::string> v = {"b", "a", "b", "b", "c", "a"};
    StringDictionary d;
    auto value = [&](size_t k) { return std::string_view(v[k]); };
    d.decide(v.size(), value);
    std::vector<uint32_t> indices;
    std::vector<std::string> entered;
    d.index(v.size(), value, indices, [&](std::string_view x) { entered.emplace_back(x); });
    EXPECT_EQ(indices, (std::vector<uint32_t>{0, 1, 0, 0, 2, 1}));
    EXPECT_EQ(entered, (std::vector<std::string>{"b", "a", "c"}));
    EXPECT_EQ(d.size(), 3u);
}

TEST(StringDictionary, AFullDictionaryTurnsOffAtTheFirstValueThatDoesNotFit) {
    std::vector<std::string> v = repeated(StringDictionary::kMaxEntries, StringDictionary::kMaxEntries);
    v.insert(v.begin(), 3 * v.size(), "x");  // repeats enough to turn it on
    v.push_back("one too many");
    StringDictionary d;
    auto value = [&](size_t k) { return std::string_view(v[k]); };
    d.decide(v.size(), value);
    ASSERT_TRUE(d.on());
    std::vector<uint32_t> indices;
    d.index(v.size(), value, indices, [](std::string_view) {});
    EXPECT_FALSE(d.on());
    EXPECT_EQ(d.size(), StringDictionary::kMaxEntries);
    // Every "x", then each distinct value but the last, which did not fit.
    EXPECT_EQ(indices.size(), v.size() - 2);
}

TEST(StringDictionary, ThePageBodyIsTheEntriesPlain) {
    const std::vector<std::string> v = {"ab", "ab", "c"};
    StringDictionary d;
    auto value = [&](size_t k) { return std::string_view(v[k]); };
    d.decide(v.size(), value);
    std::vector<uint32_t> indices;
    d.index(v.size(), value, indices, [](std::string_view) {});
    EXPECT_EQ(d.page_body(), (Bytes{2, 0, 0, 0, 'a', 'b', 1, 0, 0, 0, 'c'}));
}

// A page of `n` rows of an int64 column: row k is k * 10, null when k % 4 == 1.
PageValues int64_page(size_t n) {
    PageValues page;
    for (size_t k = 0; k < n; ++k) {
        page.defined.push_back(k % 4 == 1 ? 0 : 1);
        if (k % 4 != 1) page.values<int64_t>().push_back(static_cast<int64_t>(k) * 10);
    }
    return page;
}

// The levels at the front of a nullable column's body, decoded; `p` moves past them.
Bytes read_levels(const uint8_t*& p, size_t rows) {
    const uint32_t len = get_le32(p);
    Bytes levels(rows);
    RleDecoder(p + 4, len, 1).decode(levels.data(), rows);
    p += 4 + len;
    return levels;
}

TEST(ColumnEncoders, DeltaIntegersReadBackAfterTheirLevels) {
    const WriterColumn col{"ts", ValueType::int64, true, true, true};
    const PageValues page = int64_page(300);
    ChunkState chunk;
    EncoderScratch scratch;
    Bytes body;
    ASSERT_EQ(encode_data_page(col, chunk, page, scratch, body), Encoding::delta_binary_packed);
    const uint8_t* p = body.data();
    EXPECT_EQ(read_levels(p, 300), page.defined);
    std::vector<int64_t> values;
    decode_delta_binary_packed(p, body.data() + body.size(), false, 300, values);
    EXPECT_EQ(values, page.values<int64_t>());
}

TEST(ColumnEncoders, ARequiredColumnHasNoLevels) {
    const WriterColumn col{"id", ValueType::int64, false};
    PageValues page;
    page.defined = {1, 1};
    page.values<int64_t>() = {7, 8};
    ChunkState chunk;
    EncoderScratch scratch;
    Bytes body;
    ASSERT_EQ(encode_data_page(col, chunk, page, scratch, body), Encoding::plain);
    EXPECT_EQ(body, (Bytes{7, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(ColumnEncoders, AnIntegerPageOfNullsOnlyIsPlain) {
    const WriterColumn col{"ts", ValueType::int32, true, true, true};
    PageValues page;
    page.defined = {0, 0, 0};
    ChunkState chunk;
    EncoderScratch scratch;
    Bytes body;
    EXPECT_EQ(encode_data_page(col, chunk, page, scratch, body), Encoding::plain);
}

TEST(ColumnEncoders, BooleansArePlainBits) {
    const WriterColumn col{"b", ValueType::boolean, false};
    PageValues page;
    page.defined = {1, 1, 1};
    page.values<uint8_t>() = {1, 0, 1};
    ChunkState chunk;
    EncoderScratch scratch;
    Bytes body;
    ASSERT_EQ(encode_data_page(col, chunk, page, scratch, body), Encoding::plain);
    EXPECT_EQ(body, Bytes{0x05});
}

TEST(ColumnEncoders, RepeatedStringsAreDictionaryIndices) {
    const WriterColumn col{"name", ValueType::string, false};
    PageValues page;
    for (const char* s : {"mm", "act", "mm", "mm", "act", "mm"}) {
        page.defined.push_back(1);
        page.arena += s;
        page.ends.push_back(static_cast<uint32_t>(page.arena.size()));
    }
    ChunkState chunk;
    EncoderScratch scratch;
    Bytes body;
    ASSERT_EQ(encode_data_page(col, chunk, page, scratch, body), Encoding::rle_dictionary);
    ASSERT_EQ(body.at(0), 1);  // the indices' bit width
    std::vector<uint32_t> indices(6);
    RleDecoder(body.data() + 1, body.size() - 1, body[0]).decode(indices.data(), indices.size());
    EXPECT_EQ(indices, (std::vector<uint32_t>{0, 1, 0, 0, 1, 0}));
    EXPECT_EQ(chunk.dictionary.size(), 2u);
}

TEST(ColumnEncoders, DistinctStringsArePlain) {
    const WriterColumn col{"text", ValueType::string, false};
    PageValues page;
    for (int k = 0; k < 40; ++k) {
        page.defined.push_back(1);
        page.arena += "row " + std::to_string(k);
        page.ends.push_back(static_cast<uint32_t>(page.arena.size()));
    }
    ChunkState chunk;
    EncoderScratch scratch;
    Bytes body;
    ASSERT_EQ(encode_data_page(col, chunk, page, scratch, body), Encoding::plain);
    std::vector<int64_t> ints;
    std::vector<double> reals;
    ByteArrays strs;
    decode_plain(PhysicalType::byte_array, 0, false, body.data(), body.size(), 40, ints, reals, strs);
    ASSERT_EQ(strs.size(), 40u);
    EXPECT_EQ(strs.view(39), "row 39");
    EXPECT_TRUE(chunk.dictionary.empty());
}

}  // namespace
