// The Thrift structures of Parquet's footer and page headers, as the format
// specification's parquet.thrift defines them: each field nx reads or
// writes, its id and its type, named as the IDL names it.  The one
// description file_metadata.cpp decodes the footer and page headers with and
// encodes them with; fields nx neither reads nor writes are left out (a
// reader skips them).
#pragma once

#include "common/parquet/thrift_compact.h"

// A field of `structure`: ThriftField<TType::type> `name` with id `id`.
#define NX_THRIFT_FIELD(structure, type, name, id) \
    inline constexpr ThriftField<TType::type> name{id, #structure "." #name};

namespace nx::parquet::thrift {

namespace SchemaElement {
NX_THRIFT_FIELD(SchemaElement, i32, type, 1)
NX_THRIFT_FIELD(SchemaElement, i32, type_length, 2)
NX_THRIFT_FIELD(SchemaElement, i32, repetition_type, 3)
NX_THRIFT_FIELD(SchemaElement, binary, name, 4)
NX_THRIFT_FIELD(SchemaElement, i32, num_children, 5)
NX_THRIFT_FIELD(SchemaElement, i32, converted_type, 6)
NX_THRIFT_FIELD(SchemaElement, structure, logicalType, 10)
}  // namespace SchemaElement

// A union: the one field set says which logical type.
namespace LogicalType {
NX_THRIFT_FIELD(LogicalType, structure, STRING, 1)
NX_THRIFT_FIELD(LogicalType, structure, LIST, 3)
NX_THRIFT_FIELD(LogicalType, structure, ENUM, 4)
NX_THRIFT_FIELD(LogicalType, structure, INTEGER, 10)
NX_THRIFT_FIELD(LogicalType, structure, JSON, 12)
}  // namespace LogicalType

namespace IntType {
NX_THRIFT_FIELD(IntType, bool_true, isSigned, 2)
}  // namespace IntType

namespace Statistics {
NX_THRIFT_FIELD(Statistics, i64, null_count, 3)
NX_THRIFT_FIELD(Statistics, binary, max_value, 5)
NX_THRIFT_FIELD(Statistics, binary, min_value, 6)
NX_THRIFT_FIELD(Statistics, bool_true, is_max_value_exact, 7)
NX_THRIFT_FIELD(Statistics, bool_true, is_min_value_exact, 8)
}  // namespace Statistics

namespace ColumnMetaData {
NX_THRIFT_FIELD(ColumnMetaData, i32, type, 1)
NX_THRIFT_FIELD(ColumnMetaData, list, encodings, 2)
NX_THRIFT_FIELD(ColumnMetaData, list, path_in_schema, 3)
NX_THRIFT_FIELD(ColumnMetaData, i32, codec, 4)
NX_THRIFT_FIELD(ColumnMetaData, i64, num_values, 5)
NX_THRIFT_FIELD(ColumnMetaData, i64, total_uncompressed_size, 6)
NX_THRIFT_FIELD(ColumnMetaData, i64, total_compressed_size, 7)
NX_THRIFT_FIELD(ColumnMetaData, i64, data_page_offset, 9)
NX_THRIFT_FIELD(ColumnMetaData, i64, dictionary_page_offset, 11)
NX_THRIFT_FIELD(ColumnMetaData, structure, statistics, 12)
}  // namespace ColumnMetaData

namespace ColumnChunk {
NX_THRIFT_FIELD(ColumnChunk, binary, file_path, 1)
NX_THRIFT_FIELD(ColumnChunk, i64, file_offset, 2)
NX_THRIFT_FIELD(ColumnChunk, structure, meta_data, 3)
}  // namespace ColumnChunk

namespace SortingColumn {
NX_THRIFT_FIELD(SortingColumn, i32, column_idx, 1)
NX_THRIFT_FIELD(SortingColumn, bool_true, descending, 2)
NX_THRIFT_FIELD(SortingColumn, bool_true, nulls_first, 3)
}  // namespace SortingColumn

namespace RowGroup {
NX_THRIFT_FIELD(RowGroup, list, columns, 1)
NX_THRIFT_FIELD(RowGroup, i64, total_byte_size, 2)
NX_THRIFT_FIELD(RowGroup, i64, num_rows, 3)
NX_THRIFT_FIELD(RowGroup, list, sorting_columns, 4)
NX_THRIFT_FIELD(RowGroup, i64, file_offset, 5)
NX_THRIFT_FIELD(RowGroup, i64, total_compressed_size, 6)
}  // namespace RowGroup

namespace KeyValue {
NX_THRIFT_FIELD(KeyValue, binary, key, 1)
NX_THRIFT_FIELD(KeyValue, binary, value, 2)
}  // namespace KeyValue

// A union: TYPE_ORDER, min and max compared as the column's type orders.
namespace ColumnOrder {
NX_THRIFT_FIELD(ColumnOrder, structure, TYPE_ORDER, 1)
}  // namespace ColumnOrder

namespace FileMetaData {
NX_THRIFT_FIELD(FileMetaData, i32, version, 1)
NX_THRIFT_FIELD(FileMetaData, list, schema, 2)
NX_THRIFT_FIELD(FileMetaData, i64, num_rows, 3)
NX_THRIFT_FIELD(FileMetaData, list, row_groups, 4)
NX_THRIFT_FIELD(FileMetaData, list, key_value_metadata, 5)
NX_THRIFT_FIELD(FileMetaData, binary, created_by, 6)
NX_THRIFT_FIELD(FileMetaData, list, column_orders, 7)
}  // namespace FileMetaData

namespace DataPageHeader {
NX_THRIFT_FIELD(DataPageHeader, i32, num_values, 1)
NX_THRIFT_FIELD(DataPageHeader, i32, encoding, 2)
NX_THRIFT_FIELD(DataPageHeader, i32, definition_level_encoding, 3)
NX_THRIFT_FIELD(DataPageHeader, i32, repetition_level_encoding, 4)
}  // namespace DataPageHeader

namespace DictionaryPageHeader {
NX_THRIFT_FIELD(DictionaryPageHeader, i32, num_values, 1)
NX_THRIFT_FIELD(DictionaryPageHeader, i32, encoding, 2)
}  // namespace DictionaryPageHeader

namespace DataPageHeaderV2 {
NX_THRIFT_FIELD(DataPageHeaderV2, i32, num_values, 1)
NX_THRIFT_FIELD(DataPageHeaderV2, i32, num_nulls, 2)
NX_THRIFT_FIELD(DataPageHeaderV2, i32, num_rows, 3)
NX_THRIFT_FIELD(DataPageHeaderV2, i32, encoding, 4)
NX_THRIFT_FIELD(DataPageHeaderV2, i32, definition_levels_byte_length, 5)
NX_THRIFT_FIELD(DataPageHeaderV2, i32, repetition_levels_byte_length, 6)
NX_THRIFT_FIELD(DataPageHeaderV2, bool_true, is_compressed, 7)
}  // namespace DataPageHeaderV2

namespace PageHeader {
NX_THRIFT_FIELD(PageHeader, i32, type, 1)
NX_THRIFT_FIELD(PageHeader, i32, uncompressed_page_size, 2)
NX_THRIFT_FIELD(PageHeader, i32, compressed_page_size, 3)
NX_THRIFT_FIELD(PageHeader, structure, data_page_header, 5)
NX_THRIFT_FIELD(PageHeader, structure, dictionary_page_header, 7)
NX_THRIFT_FIELD(PageHeader, structure, data_page_header_v2, 8)
}  // namespace PageHeader

}  // namespace nx::parquet::thrift

#undef NX_THRIFT_FIELD
