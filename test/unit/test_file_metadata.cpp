// The footer's and page headers' Thrift structures both ways
// (common/parquet/file_metadata.h, parquet_thrift.h): what nx encodes, nx
// decodes back field for field, from the one description of their fields.
// Decoding other writers' footers, and corrupt ones, is in test_parquet.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/parquet/file_metadata.h"
#include "common/parquet/parquet_thrift.h"
#include "common/parquet/thrift_compact.h"

namespace {

using namespace nx::parquet;
using Bytes = std::vector<uint8_t>;

// A footer of a group and two leaves, a row group of two chunks, every field
// nx writes set.
FileMetaData sample_footer() {
    FileMetaData f;
    f.version = 1;
    SchemaElement root;
    root.name = "schema";
    root.num_children = 2;
    SchemaElement id;
    id.name = "id";
    id.type = PhysicalType::int64;
    id.repetition = Repetition::required;
    SchemaElement name;
    name.name = "name";
    name.type = PhysicalType::byte_array;
    name.repetition = Repetition::optional;
    name.converted_type = kConvertedUtf8;
    name.logical_string = true;
    f.schema = {root, id, name};
    f.num_rows = 3;
    RowGroup g;
    g.num_rows = 3;
    g.total_byte_size = 120;
    g.total_compressed_size = 90;
    g.file_offset = 4;
    g.sorted_by = {0};
    for (const SchemaElement* leaf : {&id, &name}) {
        ColumnChunk c;
        c.file_offset = 4;
        ColumnMetaData& m = c.meta.emplace();
        m.type = *leaf->type;
        m.path = {leaf->name};
        m.codec = Codec::zstd;
        m.num_values = 3;
        m.total_uncompressed_size = 60;
        m.total_compressed_size = 45;
        m.data_page_offset = 4;
        m.encodings = {Encoding::plain, Encoding::rle};
        m.null_count = 1;
        m.min_value = "a";
        m.max_value = "z";
        g.columns.push_back(c);
    }
    g.columns[1].meta->dictionary_page_offset = 40;
    g.columns[1].meta->max_value_exact = false;
    g.columns[1].meta->min_value_exact = true;
    f.row_groups = {g};
    f.created_by = "nx test";
    f.key_value = {{"nx.table", "events"}};
    f.column_orders = {ColumnOrder::type_order, ColumnOrder::type_order};
    return f;
}

FileMetaData round_trip(const FileMetaData& f) {
    const Bytes b = encode_file_metadata(f);
    return decode_file_metadata(b.data(), b.size());
}

TEST(FileMetadataEncoding, TheSchemaReadsBack) {
    const FileMetaData f = round_trip(sample_footer());
    ASSERT_EQ(f.schema.size(), 3u);
    EXPECT_EQ(f.schema[0].name, "schema");
    EXPECT_FALSE(f.schema[0].type.has_value());
    EXPECT_EQ(f.schema[0].num_children, 2);
    EXPECT_EQ(f.schema[1].type, PhysicalType::int64);
    EXPECT_EQ(f.schema[1].repetition, Repetition::required);
    EXPECT_FALSE(f.schema[1].converted_type.has_value());
    EXPECT_EQ(f.schema[2].type, PhysicalType::byte_array);
    EXPECT_EQ(f.schema[2].converted_type, kConvertedUtf8);
    EXPECT_TRUE(f.schema[2].logical_string);
}

TEST(FileMetadataEncoding, TheFileFieldsReadBack) {
    const FileMetaData f = round_trip(sample_footer());
    EXPECT_EQ(f.version, 1);
    EXPECT_EQ(f.num_rows, 3);
    EXPECT_EQ(f.created_by, "nx test");
    EXPECT_EQ(f.key_value, (std::vector<std::pair<std::string, std::string>>{{"nx.table", "events"}}));
    EXPECT_EQ(f.column_orders, (std::vector<ColumnOrder>{ColumnOrder::type_order, ColumnOrder::type_order}));
}

TEST(FileMetadataEncoding, TheRowGroupReadsBack) {
    const FileMetaData f = round_trip(sample_footer());
    ASSERT_EQ(f.row_groups.size(), 1u);
    const RowGroup& g = f.row_groups[0];
    EXPECT_EQ(g.num_rows, 3);
    EXPECT_EQ(g.total_byte_size, 120);
    EXPECT_EQ(g.total_compressed_size, 90);
    EXPECT_EQ(g.file_offset, 4);
    EXPECT_EQ(g.sorted_by, std::vector<int32_t>{0});
    ASSERT_EQ(g.columns.size(), 2u);
    EXPECT_EQ(g.columns[0].file_offset, 4);
}

TEST(FileMetadataEncoding, TheColumnMetadataAndStatisticsReadBack) {
    const FileMetaData f = round_trip(sample_footer());
    const ColumnMetaData& m = *f.row_groups.at(0).columns.at(1).meta;
    EXPECT_EQ(m.type, PhysicalType::byte_array);
    EXPECT_EQ(m.path, std::vector<std::string>{"name"});
    EXPECT_EQ(m.codec, Codec::zstd);
    EXPECT_EQ(m.num_values, 3);
    EXPECT_EQ(m.total_uncompressed_size, 60);
    EXPECT_EQ(m.total_compressed_size, 45);
    EXPECT_EQ(m.data_page_offset, 4);
    EXPECT_EQ(m.dictionary_page_offset, 40);
    EXPECT_EQ(m.encodings, (std::vector<Encoding>{Encoding::plain, Encoding::rle}));
    EXPECT_EQ(m.null_count, 1);
    EXPECT_EQ(m.min_value, "a");
    EXPECT_EQ(m.max_value, "z");
    EXPECT_EQ(m.max_value_exact, false);
    EXPECT_EQ(m.min_value_exact, true);
}

TEST(FileMetadataEncoding, UnsetOptionalFieldsStayUnset) {
    FileMetaData in = sample_footer();
    ColumnMetaData& m = *in.row_groups[0].columns[0].meta;
    m.null_count.reset();
    m.min_value.reset();
    m.max_value.reset();
    in.row_groups[0].file_offset.reset();
    in.row_groups[0].sorted_by.clear();
    const FileMetaData f = round_trip(in);
    const ColumnMetaData& back = *f.row_groups[0].columns[0].meta;
    EXPECT_FALSE(back.null_count.has_value());
    EXPECT_FALSE(back.min_value.has_value());
    EXPECT_FALSE(back.dictionary_page_offset.has_value());
    EXPECT_FALSE(back.max_value_exact.has_value());
    EXPECT_FALSE(f.row_groups[0].file_offset.has_value());
    EXPECT_TRUE(f.row_groups[0].sorted_by.empty());
}

TEST(FileMetadataEncoding, FieldsComeInTheOrderOfTheirIds) {
    // A version-only struct with its schema: field 1 (delta 1, i32) = 1, then
    // field 2 (delta 1, list) of one struct: SchemaElement name (field 4,
    // delta 4, binary) "r", num_children (field 5) 0; num_rows (3, i64) 0;
    // row_groups (4) empty; created_by (6, delta 2) "".
    FileMetaData f;
    f.version = 1;
    f.schema.emplace_back().name = "r";
    EXPECT_EQ(encode_file_metadata(f), (Bytes{0x15, 0x02, 0x19, 0x1C, 0x48, 0x01, 'r', 0x15, 0x00, 0x00, 0x16, 0x00,
                                              0x19, 0x0C, 0x28, 0x00, 0x00}));
}

// `h` encoded and decoded again; the decoder reads every byte encoded.
PageHeader read_back(const PageHeader& h) {
    const Bytes b = encode_page_header(h);
    size_t used = 0;
    PageHeader back = decode_page_header(b.data(), b.size(), used);
    EXPECT_EQ(used, b.size());
    return back;
}

TEST(PageHeaderEncoding, ADataPageHeaderReadsBack) {
    PageHeader h;
    h.type = PageType::data;
    h.uncompressed_page_size = 1000;
    h.compressed_page_size = 300;
    h.data = DataPageHeader{77, Encoding::delta_binary_packed, Encoding::rle, Encoding::rle};
    const PageHeader back = read_back(h);
    EXPECT_EQ(back.type, PageType::data);
    EXPECT_EQ(back.uncompressed_page_size, 1000);
    EXPECT_EQ(back.compressed_page_size, 300);
    ASSERT_TRUE(back.data);
    EXPECT_EQ(back.data->num_values, 77);
    EXPECT_EQ(back.data->encoding, Encoding::delta_binary_packed);
    EXPECT_FALSE(back.dictionary || back.data_v2);
}

TEST(PageHeaderEncoding, ADictionaryPageHeaderReadsBack) {
    PageHeader h;
    h.type = PageType::dictionary;
    h.uncompressed_page_size = 20;
    h.compressed_page_size = 20;
    h.dictionary = DictionaryPageHeader{5, Encoding::plain};
    const PageHeader back = read_back(h);
    ASSERT_TRUE(back.dictionary);
    EXPECT_EQ(back.dictionary->num_values, 5);
    EXPECT_EQ(back.dictionary->encoding, Encoding::plain);
}

TEST(PageHeaderEncoding, ADataPageV2HeaderReadsBack) {
    PageHeader h;
    h.type = PageType::data_v2;
    h.uncompressed_page_size = 64;
    h.compressed_page_size = 32;
    h.data_v2 = DataPageHeaderV2{10, 2, 10, Encoding::rle_dictionary, 3, 0, false};
    const PageHeader back = read_back(h);
    ASSERT_TRUE(back.data_v2);
    EXPECT_EQ(back.data_v2->num_nulls, 2);
    EXPECT_EQ(back.data_v2->encoding, Encoding::rle_dictionary);
    EXPECT_EQ(back.data_v2->definition_levels_byte_length, 3);
    EXPECT_FALSE(back.data_v2->is_compressed);
}

TEST(ParquetThrift, FieldNamesSayTheirStructure) {
    EXPECT_STREQ(thrift::ColumnMetaData::total_compressed_size.name, "ColumnMetaData.total_compressed_size");
    EXPECT_EQ(thrift::ColumnMetaData::total_compressed_size.id, 7);
    EXPECT_EQ(thrift::ColumnMetaData::total_compressed_size.type, TType::i64);
}

}  // namespace
