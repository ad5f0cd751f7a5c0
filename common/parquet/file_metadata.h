// Parquet's footer and page headers as nx reads and writes them: the parts
// of the format specification's FileMetaData, SchemaElement, RowGroup,
// ColumnChunk, ColumnMetaData, Statistics and PageHeader structures nx
// needs, decoded from Thrift compact bytes and encoded to them, both through
// the one description of their fields (parquet_thrift.h).  Indexes, bloom
// filters and encryption are skipped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nx::parquet {

enum class PhysicalType : int32_t {
    boolean = 0, int32 = 1, int64 = 2, int96 = 3, float32 = 4, float64 = 5, byte_array = 6, fixed_len_byte_array = 7,
};
enum class Repetition : int32_t { required = 0, optional = 1, repeated = 2 };
enum class Codec : int32_t {
    uncompressed = 0, snappy = 1, gzip = 2, lzo = 3, brotli = 4, lz4 = 5, zstd = 6, lz4_raw = 7,
};
enum class Encoding : int32_t {
    plain = 0, plain_dictionary = 2, rle = 3, bit_packed = 4, delta_binary_packed = 5,
    delta_length_byte_array = 6, delta_byte_array = 7, rle_dictionary = 8, byte_stream_split = 9,
};
enum class PageType : int32_t { data = 0, index = 1, dictionary = 2, data_v2 = 3 };

// ConvertedType values nx looks at (the rest are passed through as numbers).
constexpr int32_t kConvertedUtf8 = 0;
constexpr int32_t kConvertedList = 3;
// UINT_8, UINT_16, UINT_32, UINT_64: unsigned integers (the legacy annotation).
constexpr int32_t kConvertedUint8 = 11;
constexpr int32_t kConvertedUint64 = 14;

std::string to_string(PhysicalType t);
std::string to_string(Codec c);
std::string to_string(Encoding e);

struct SchemaElement {
    std::string name;
    std::optional<PhysicalType> type;  // set for leaves; a group has num_children instead
    int32_t type_length = 0;
    std::optional<Repetition> repetition;
    int32_t num_children = 0;
    std::optional<int32_t> converted_type;
    bool logical_string = false;  // LogicalType STRING (or ENUM/JSON)
    bool logical_list = false;    // LogicalType LIST
    // LogicalType INTEGER(bitWidth, isSigned): its isSigned; unset without one.
    std::optional<bool> logical_signed;
    // Whether an INT32 or INT64 leaf holds unsigned integers: the logical type
    // says so, or (without one) the converted type UINT_8..UINT_64.
    bool is_unsigned() const;
};

struct ColumnMetaData {
    PhysicalType type = PhysicalType::int32;
    std::vector<std::string> path;
    Codec codec = Codec::uncompressed;
    int64_t num_values = 0;
    int64_t total_uncompressed_size = 0;
    int64_t total_compressed_size = 0;
    int64_t data_page_offset = 0;
    std::optional<int64_t> dictionary_page_offset;
    std::vector<Encoding> encodings;
    // Statistics (min_value/max_value, PLAIN-encoded; the deprecated min/max
    // fields are not read): what a reader prunes row groups by.
    std::optional<int64_t> null_count;
    std::optional<std::string> min_value, max_value;
    // False where the writer kept a bound, not a value (a long string cut:
    // Statistics.is_min_value_exact / is_max_value_exact); unset: not said.
    std::optional<bool> min_value_exact, max_value_exact;
};

struct ColumnChunk {
    std::string file_path;  // set when the column lives in another file (unsupported)
    int64_t file_offset = 0;
    std::optional<ColumnMetaData> meta;
};

struct RowGroup {
    std::vector<ColumnChunk> columns;
    int64_t total_byte_size = 0;  // uncompressed
    int64_t num_rows = 0;
    // RowGroup.sorting_columns: the columns (indexes) its rows come sorted
    // by, as its writer says; empty when it says nothing.  Written ascending,
    // nulls first, the one order nx claims.
    std::vector<int32_t> sorted_by;
    std::optional<int64_t> file_offset;
    std::optional<int64_t> total_compressed_size;
};

// How a column's min and max compare: TYPE_ORDER, as its type orders
// (signed integers, IEEE floats, unsigned bytes), or an order nx does not know.
enum class ColumnOrder { type_order, unknown };

struct FileMetaData {
    int32_t version = 0;
    std::vector<SchemaElement> schema;
    int64_t num_rows = 0;
    std::vector<RowGroup> row_groups;
    std::string created_by;
    std::vector<std::pair<std::string, std::string>> key_value;
    std::vector<ColumnOrder> column_orders;  // one per leaf column when set
};

struct DataPageHeader {
    int32_t num_values = 0;
    Encoding encoding = Encoding::plain;
    Encoding definition_level_encoding = Encoding::rle;
    Encoding repetition_level_encoding = Encoding::rle;
};
struct DictionaryPageHeader {
    int32_t num_values = 0;
    Encoding encoding = Encoding::plain;
};
struct DataPageHeaderV2 {
    int32_t num_values = 0;
    int32_t num_nulls = 0;
    int32_t num_rows = 0;
    Encoding encoding = Encoding::plain;
    int32_t definition_levels_byte_length = 0;
    int32_t repetition_levels_byte_length = 0;
    bool is_compressed = true;
};

struct PageHeader {
    PageType type = PageType::data;
    int32_t uncompressed_page_size = 0;
    int32_t compressed_page_size = 0;
    std::optional<DataPageHeader> data;
    std::optional<DictionaryPageHeader> dictionary;
    std::optional<DataPageHeaderV2> data_v2;
};

// Decode; throw ThriftError on malformed bytes or missing required fields.
FileMetaData decode_file_metadata(const uint8_t* data, size_t size);
// Decodes one page header at `data`; `consumed` is its length in bytes.
PageHeader decode_page_header(const uint8_t* data, size_t size, size_t& consumed);

// Encode: the fields that are set (optional ones when they have a value,
// lists when they are not empty, a logical type when one is said), in the
// order of their ids.  SchemaElement.logical_signed is read only.
std::vector<uint8_t> encode_file_metadata(const FileMetaData& f);
std::vector<uint8_t> encode_page_header(const PageHeader& h);

}  // namespace nx::parquet
