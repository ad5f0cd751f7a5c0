// The Parquet reader's parts on hand-made bytes (common/parquet/): Thrift
// compact decoding, the RLE/bit-packed hybrid, DELTA_BINARY_PACKED (the
// format specification's own examples), BYTE_STREAM_SPLIT, DELTA_BYTE_ARRAY,
// and every codec, including what each does with bytes that lie.  Whole files
// from real writers are checked in test/12-parquet.bats.
#include <gtest/gtest.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common/parquet/byte_stream_split_encoding.h"
#include "common/parquet/codecs.h"
#include "common/parquet/delta_encoding.h"
#include "common/parquet/file_metadata.h"
#include "common/parquet/rle_encoding.h"
#include "common/parquet/thrift_compact.h"

namespace {

using namespace nx::parquet;
using Bytes = std::vector<uint8_t>;

TEST(ThriftCompact, ReadsFieldsByDeltaAndLongForm) {
    // field 1 i32 = -3 (zigzag 5), field 4 (delta 3) binary "ab", field 300
    // (long form) i64 = 1, STOP.
    Bytes b = {0x15, 0x05, 0x38, 0x02, 'a', 'b', 0x06, 0xD8, 0x04, 0x02, 0x00};
    CompactReader r(b.data(), b.size());
    r.begin_struct();
    int16_t id;
    TType t;
    ASSERT_TRUE(r.next_field(id, t));
    EXPECT_EQ(id, 1);
    EXPECT_EQ(r.read_i32(), -3);
    ASSERT_TRUE(r.next_field(id, t));
    EXPECT_EQ(id, 4);
    EXPECT_EQ(r.read_binary(), "ab");
    ASSERT_TRUE(r.next_field(id, t));
    EXPECT_EQ(id, 300);
    EXPECT_EQ(t, TType::i64);
    EXPECT_EQ(r.read_i64(), 1);
    EXPECT_FALSE(r.next_field(id, t));
}

TEST(ThriftCompact, StringLengthPastTheEndIsAnError) {
    Bytes b = {0x18, 0x7F, 'a'};
    CompactReader r(b.data(), b.size());
    r.begin_struct();
    int16_t id;
    TType t;
    ASSERT_TRUE(r.next_field(id, t));
    EXPECT_THROW(r.read_binary(), ThriftError);
}

TEST(ThriftCompact, AbsurdNestingIsRefusedNotRecursedInto) {
    // 10,000 nested structs: field 1 of type struct, again and again.
    Bytes b(10000, 0x1C);
    CompactReader r(b.data(), b.size());
    r.begin_struct();
    int16_t id;
    TType t;
    ASSERT_TRUE(r.next_field(id, t));
    EXPECT_THROW(r.skip(t), ThriftError);
}

TEST(ThriftCompact, UnknownTypeAndHugeListAreErrors) {
    Bytes unknown = {0x1E};
    CompactReader r(unknown.data(), unknown.size());
    r.begin_struct();
    int16_t id;
    TType t;
    EXPECT_THROW(r.next_field(id, t), ThriftError);
    Bytes list = {0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F};  // 4 billion i32s in 6 bytes
    CompactReader l(list.data(), list.size());
    TType elem;
    uint32_t n;
    EXPECT_THROW(l.read_list_header(elem, n), ThriftError);
}

TEST(FileMetadata, PageHeaderWithNegativeSizeIsRefused) {
    // type 0, uncompressed -1, compressed 4, STOP.
    Bytes b = {0x15, 0x00, 0x15, 0x01, 0x15, 0x08, 0x00};
    size_t used = 0;
    EXPECT_THROW(decode_page_header(b.data(), b.size(), used), ThriftError);
}

// A footer of one INT64 leaf `u` with the given annotations, in bytes as a
// writer lays them out: ConvertedType (field 6) and LogicalType (field 10)
// INTEGER (union field 10): IntType{1: i8 bitWidth, 2: bool isSigned}.
Bytes footer_with_int64_leaf(std::optional<int32_t> converted, std::optional<bool> logical_signed) {
    Bytes b = {0x15, 0x02,                                        // 1: version 1
               0x19, 0x2C,                                        // 2: schema, a list of 2 structs
               0x48, 0x01, 'r', 0x15, 0x02, 0x00,                 //   root: name "r", num_children 1
               0x15, 0x04, 0x25, 0x02, 0x18, 0x01, 'u'};          //   leaf: type INT64, OPTIONAL, name "u"
    int16_t last = 4;
    if (converted) {
        b.insert(b.end(), {0x25, static_cast<uint8_t>(*converted * 2)});  // 6: converted_type (zigzag)
        last = 6;
    }
    if (logical_signed) {
        b.push_back(static_cast<uint8_t>((10 - last) << 4 | 0x0C));  // 10: logicalType
        b.insert(b.end(), {0xAC,                                       //   10: INTEGER
                           0x13, 64,                                   //     1: bitWidth (i8) 64
                           static_cast<uint8_t>(*logical_signed ? 0x11 : 0x12),  // 2: isSigned
                           0x00, 0x00});
    }
    b.insert(b.end(), {0x00,          // end of the leaf
                       0x16, 0x00,    // 3: num_rows 0
                       0x00});
    return b;
}

TEST(FileMetadata, UnsignedIntegersByLogicalTypeOrConvertedType) {
    constexpr int32_t kUint64 = 14, kInt64 = 18;
    struct Case {
        std::optional<int32_t> converted;
        std::optional<bool> logical_signed;
        bool is_unsigned;
    };
    for (const Case& c : {Case{std::nullopt, std::nullopt, false},  // plain INT64
                          Case{std::nullopt, false, true},          // LogicalType INTEGER(64, false) alone
                          Case{kUint64, std::nullopt, true},        // ConvertedType UINT_64 alone (DuckDB)
                          Case{kUint64, false, true},               // both (arrow-rs, parquet-go)
                          Case{kInt64, std::nullopt, false},        // INT_64
                          Case{kUint64, true, false}}) {            // the logical type wins
        Bytes b = footer_with_int64_leaf(c.converted, c.logical_signed);
        FileMetaData m = decode_file_metadata(b.data(), b.size());
        ASSERT_EQ(m.schema.size(), 2u);
        EXPECT_EQ(m.schema[1].name, "u");
        EXPECT_EQ(m.schema[1].is_unsigned(), c.is_unsigned)
            << "converted " << c.converted.value_or(-1) << ", logical " << (c.logical_signed ? *c.logical_signed ? "signed" : "unsigned" : "none");
    }
    // Only INT32 and INT64 hold integers the annotation speaks of.
    SchemaElement e;
    e.type = PhysicalType::byte_array;
    e.converted_type = kUint64;
    EXPECT_FALSE(e.is_unsigned());
}

TEST(RleHybrid, RepeatedAndBitPackedRuns) {
    // RLE run: 3 x value 5 (width 3); bit-packed run: one group of 8 values 0..7.
    Bytes b = {0x06, 0x05, 0x03, 0x88, 0xC6, 0xFA};
    uint32_t out[11];
    RleDecoder(b.data(), b.size(), 3).decode(out, 11);
    std::vector<uint32_t> got(out, out + 11);
    EXPECT_EQ(got, (std::vector<uint32_t>{5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(RleHybrid, RunningOutAndOverwideValuesAreErrors) {
    Bytes b = {0x06, 0x05};
    uint32_t out[4];
    EXPECT_THROW(RleDecoder(b.data(), b.size(), 3).decode(out, 4), EncodingError);
    Bytes wide = {0x06, 0x09};  // 9 does not fit in 3 bits
    EXPECT_THROW(RleDecoder(wide.data(), wide.size(), 3).decode(out, 3), EncodingError);
    EXPECT_THROW(RleDecoder(b.data(), b.size(), 40), EncodingError);
}

TEST(DeltaBinaryPacked, SpecExampleConstantDeltas) {
    // 1, 2, 3, 4, 5: block 128, 4 miniblocks, 5 values, first 1; min delta 1, widths 0.
    Bytes b = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
    std::vector<int64_t> v;
    decode_delta_binary_packed(b.data(), b.data() + b.size(), false, 5, v);
    EXPECT_EQ(v, (std::vector<int64_t>{1, 2, 3, 4, 5}));
}

TEST(DeltaBinaryPacked, SpecExampleMixedDeltas) {
    // 7, 5, 3, 1, 2, 3, 4, 5: min delta -2, relative deltas 0 0 0 3 3 3 3 at 2 bits.
    Bytes b = {0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00, 0x00,
               0xC0, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    std::vector<int64_t> v;
    decode_delta_binary_packed(b.data(), b.data() + b.size(), false, 8, v);
    EXPECT_EQ(v, (std::vector<int64_t>{7, 5, 3, 1, 2, 3, 4, 5}));
}

TEST(DeltaBinaryPacked, MoreValuesThanThePageHoldsAndBadHeadersAreErrors) {
    Bytes b = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
    std::vector<int64_t> v;
    EXPECT_THROW(decode_delta_binary_packed(b.data(), b.data() + b.size(), false, 4, v), EncodingError);
    Bytes bad_block = {0x05, 0x04, 0x05, 0x02};  // block size 5
    EXPECT_THROW(decode_delta_binary_packed(bad_block.data(), bad_block.data() + bad_block.size(), false, 5, v),
                 EncodingError);
    Bytes cut = {0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00, 0x00, 0xC0};
    EXPECT_THROW(decode_delta_binary_packed(cut.data(), cut.data() + cut.size(), false, 8, v), EncodingError);
}

TEST(ByteStreamSplit, GathersFloats) {
    float in[2] = {1.5f, -2.25f};
    uint8_t raw[8], split[8];
    std::memcpy(raw, in, 8);
    for (int b = 0; b < 4; ++b)
        for (int i = 0; i < 2; ++i) split[b * 2 + i] = raw[i * 4 + b];
    uint8_t out[8];
    decode_byte_stream_split(split, 8, 4, 2, out);
    float back[2];
    std::memcpy(back, out, 8);
    EXPECT_EQ(back[0], 1.5f);
    EXPECT_EQ(back[1], -2.25f);
    EXPECT_THROW(decode_byte_stream_split(split, 7, 4, 2, out), EncodingError);
}

TEST(DeltaByteArray, PrefixLongerThanThePreviousValueIsAnError) {
    // prefixes: one value 3 (there is no previous value); suffix lengths: one value 0.
    Bytes b = {0x80, 0x01, 0x04, 0x01, 0x06, 0x80, 0x01, 0x04, 0x01, 0x00};
    ByteArrays out;
    EXPECT_THROW(decode_delta_byte_array(b.data(), b.data() + b.size(), 1, out), EncodingError);
}

std::string sample_text() {
    std::string s;
    for (int i = 0; i < 2000; ++i) s += "engine=Vector opcode=TENSOR_TENSOR " + std::to_string(i % 37) + "\n";
    return s;
}

TEST(Codecs, SnappyZstdLz4GzipRoundTrip) {
    std::string text = sample_text();
    Bytes out;
    {
        size_t n = snappy_max_compressed_length(text.size());
        std::string c(n, '\0');
        ASSERT_EQ(snappy_compress(text.data(), text.size(), c.data(), &n), SNAPPY_OK);
        decompress(Codec::snappy, reinterpret_cast<const uint8_t*>(c.data()), n, text.size(), out);
        EXPECT_EQ(std::string(out.begin(), out.end()), text);
        EXPECT_THROW(decompress(Codec::snappy, reinterpret_cast<const uint8_t*>(c.data()), n, text.size() + 1, out),
                     CodecError);
    }
    {
        std::string c(ZSTD_compressBound(text.size()), '\0');
        size_t n = ZSTD_compress(c.data(), c.size(), text.data(), text.size(), 3);
        decompress(Codec::zstd, reinterpret_cast<const uint8_t*>(c.data()), n, text.size(), out);
        EXPECT_EQ(std::string(out.begin(), out.end()), text);
        EXPECT_THROW(decompress(Codec::zstd, reinterpret_cast<const uint8_t*>(c.data()), n / 2, text.size(), out),
                     CodecError);
    }
    {
        std::string c(static_cast<size_t>(LZ4_compressBound(static_cast<int>(text.size()))), '\0');
        int n = LZ4_compress_default(text.data(), c.data(), static_cast<int>(text.size()), static_cast<int>(c.size()));
        decompress(Codec::lz4_raw, reinterpret_cast<const uint8_t*>(c.data()), static_cast<size_t>(n), text.size(), out);
        EXPECT_EQ(std::string(out.begin(), out.end()), text);
        // The same block under the older LZ4 id (no Hadoop framing): accepted.
        decompress(Codec::lz4, reinterpret_cast<const uint8_t*>(c.data()), static_cast<size_t>(n), text.size(), out);
        EXPECT_EQ(std::string(out.begin(), out.end()), text);
        EXPECT_THROW(decompress(Codec::lz4_raw, reinterpret_cast<const uint8_t*>(c.data()), static_cast<size_t>(n),
                                text.size() - 1, out),
                     CodecError);
    }
    {
        z_stream zs{};
        ASSERT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
        std::string c(deflateBound(&zs, text.size()), '\0');
        zs.next_in = reinterpret_cast<Bytef*>(text.data());
        zs.avail_in = static_cast<uInt>(text.size());
        zs.next_out = reinterpret_cast<Bytef*>(c.data());
        zs.avail_out = static_cast<uInt>(c.size());
        ASSERT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
        size_t n = zs.total_out;
        deflateEnd(&zs);
        decompress(Codec::gzip, reinterpret_cast<const uint8_t*>(c.data()), n, text.size(), out);
        EXPECT_EQ(std::string(out.begin(), out.end()), text);
        EXPECT_THROW(decompress(Codec::gzip, reinterpret_cast<const uint8_t*>(c.data()), n - 10, text.size(), out),
                     CodecError);
    }
}

TEST(Codecs, GarbageAndUnsupportedCodecsAreErrors) {
    Bytes junk = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    Bytes out;
    for (Codec c : {Codec::snappy, Codec::gzip, Codec::zstd, Codec::lz4_raw, Codec::lz4, Codec::brotli})
        EXPECT_THROW(decompress(c, junk.data(), junk.size(), 100, out), CodecError) << to_string(c);
    EXPECT_THROW(decompress(Codec::lzo, junk.data(), junk.size(), 9, out), CodecError);
    EXPECT_THROW(decompress(static_cast<Codec>(42), junk.data(), junk.size(), 9, out), CodecError);
    EXPECT_THROW(decompress(Codec::uncompressed, junk.data(), junk.size(), 8, out), CodecError);
}

}  // namespace
