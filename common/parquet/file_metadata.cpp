#include "common/parquet/file_metadata.h"

#include <optional>
#include <string>
#include <type_traits>

#include "common/parquet/parquet_thrift.h"
#include "common/parquet/thrift_compact.h"

namespace nx::parquet {

std::string to_string(PhysicalType t) {
    static const char* kNames[] = {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
                                   "FIXED_LEN_BYTE_ARRAY"};
    auto i = static_cast<size_t>(t);
    return i < std::size(kNames) ? kNames[i] : "type " + std::to_string(i);
}

std::string to_string(Codec c) {
    static const char* kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"};
    auto i = static_cast<size_t>(c);
    return i < std::size(kNames) ? kNames[i] : "codec " + std::to_string(i);
}

std::string to_string(Encoding e) {
    static const char* kNames[] = {"PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED",
                                   "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
                                   "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
    auto i = static_cast<size_t>(e);
    return i < std::size(kNames) ? kNames[i] : "encoding " + std::to_string(i);
}

bool SchemaElement::is_unsigned() const {
    if (!type || (*type != PhysicalType::int32 && *type != PhysicalType::int64)) return false;
    if (logical_signed) return !*logical_signed;
    return converted_type && *converted_type >= kConvertedUint8 && *converted_type <= kConvertedUint64;
}

namespace {

namespace T = thrift;

// Reads an enum-valued i32; unknown values are kept (the caller decides).
template <typename E>
E read_enum(CompactReader& r) {
    return static_cast<E>(r.read_i32());
}

bool is_bool(TType t) { return t == TType::bool_true || t == TType::bool_false; }

// Whether a field's type is the one its description says.
template <TType Want>
bool matches(TType got, ThriftField<Want>) {
    return got == Want || (is_bool(got) && is_bool(Want));
}

template <TType Want>
void expect(TType got, ThriftField<Want> field, CompactReader& r) {
    if (!matches(got, field))
        throw ThriftError(std::string("corrupt metadata at byte ") + std::to_string(r.offset()) + ": field " + field.name +
                          " has the wrong type");
}

// Reads field `f` into `out`, its type checked; true (read), as a struct's
// on_field returns.  Enums keep values they do not name (the caller decides).
bool read_field(CompactReader& r, TType t, ThriftField<TType::i32> f, int32_t& out) {
    expect(t, f, r);
    out = r.read_i32();
    return true;
}

bool read_field(CompactReader& r, TType t, ThriftField<TType::i64> f, int64_t& out) {
    expect(t, f, r);
    out = r.read_i64();
    return true;
}

bool read_field(CompactReader& r, TType t, ThriftField<TType::binary> f, std::string& out) {
    expect(t, f, r);
    out = r.read_binary();
    return true;
}

template <typename E>
    requires std::is_enum_v<E>
bool read_field(CompactReader& r, TType t, ThriftField<TType::i32> f, E& out) {
    expect(t, f, r);
    out = read_enum<E>(r);
    return true;
}

template <TType W, typename V>
bool read_field(CompactReader& r, TType t, ThriftField<W> f, std::optional<V>& out) {
    V v{};
    read_field(r, t, f, v);
    out = std::move(v);
    return true;
}

// A struct field, read by `read`.
template <typename V, typename Read>
bool read_field(CompactReader& r, TType t, ThriftField<TType::structure> f, V& out, Read&& read) {
    expect(t, f, r);
    out = read(r);
    return true;
}

// Walks one struct, calling on_field(id, type) for each field; the callback
// returns false for fields it does not read, which are skipped.
template <typename F>
void read_struct(CompactReader& r, F&& on_field) {
    r.begin_struct();
    int16_t id;
    TType t;
    while (r.next_field(id, t))
        if (!on_field(id, t)) r.skip(t);
    r.end_struct();
}

// A list field, each element read by one(element type).
template <typename F>
bool read_list(CompactReader& r, TType t, ThriftField<TType::list> field, F&& one) {
    expect(t, field, r);
    TType elem;
    uint32_t n;
    r.read_list_header(elem, n);
    for (uint32_t i = 0; i < n; ++i) one(elem);
    return true;
}

// A list of structs, each read by `one`.
template <typename V, typename F>
bool read_struct_list(CompactReader& r, TType t, ThriftField<TType::list> field, std::vector<V>& out, F&& one) {
    expect(t, field, r);
    TType elem;
    uint32_t n;
    r.read_list_header(elem, n);
    if (elem != TType::structure) throw ThriftError(std::string("corrupt metadata: ") + field.name + " is not a list of structs");
    out.reserve(n);
    for (uint32_t i = 0; i < n; ++i) out.push_back(one(r));
    return true;
}

// LogicalType: a union; its set field's id says which.
void read_logical_type(CompactReader& r, SchemaElement& s) {
    read_struct(r, [&](int16_t id, TType t) {
        if (id == T::LogicalType::STRING.id || id == T::LogicalType::ENUM.id || id == T::LogicalType::JSON.id)
            s.logical_string = true;
        if (id == T::LogicalType::LIST.id) s.logical_list = true;
        if (id == T::LogicalType::INTEGER.id && t == TType::structure) {
            s.logical_signed = true;  // isSigned is required; a writer that leaves it out is read as signed
            read_struct(r, [&](int16_t iid, TType it) {
                if (iid != T::IntType::isSigned.id || !is_bool(it)) return false;
                s.logical_signed = CompactReader::bool_value(it);
                return true;
            });
            return true;
        }
        r.skip(t);
        return true;
    });
}

SchemaElement read_schema_element(CompactReader& r) {
    namespace F = T::SchemaElement;
    SchemaElement s;
    bool has_name = false;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case F::type.id: return read_field(r, t, F::type, s.type);
            case F::type_length.id: return read_field(r, t, F::type_length, s.type_length);
            case F::repetition_type.id: return read_field(r, t, F::repetition_type, s.repetition);
            case F::name.id: has_name = true; return read_field(r, t, F::name, s.name);
            case F::num_children.id: return read_field(r, t, F::num_children, s.num_children);
            case F::converted_type.id: return read_field(r, t, F::converted_type, s.converted_type);
            case F::logicalType.id: expect(t, F::logicalType, r); read_logical_type(r, s); return true;
            default: return false;
        }
    });
    if (!has_name) throw ThriftError("corrupt metadata: a schema element without a name");
    if (s.num_children < 0) throw ThriftError("corrupt metadata: negative num_children");
    if (s.type && (static_cast<int32_t>(*s.type) < 0 || static_cast<int32_t>(*s.type) > 7))
        throw ThriftError("corrupt metadata: unknown physical type " + std::to_string(static_cast<int32_t>(*s.type)) +
                          " for '" + s.name + "'");
    if (s.repetition && (static_cast<int32_t>(*s.repetition) < 0 || static_cast<int32_t>(*s.repetition) > 2))
        throw ThriftError("corrupt metadata: unknown repetition for '" + s.name + "'");
    return s;
}

void read_statistics(CompactReader& r, ColumnMetaData& m) {
    namespace F = T::Statistics;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case F::null_count.id: return read_field(r, t, F::null_count, m.null_count);
            case F::max_value.id: return read_field(r, t, F::max_value, m.max_value);
            case F::min_value.id: return read_field(r, t, F::min_value, m.min_value);
            case F::is_max_value_exact.id:
            case F::is_min_value_exact.id:
                if (!is_bool(t)) return false;
                (id == F::is_max_value_exact.id ? m.max_value_exact : m.min_value_exact) = CompactReader::bool_value(t);
                return true;
            default: return false;
        }
    });
}

ColumnMetaData read_column_metadata(CompactReader& r) {
    namespace F = T::ColumnMetaData;
    ColumnMetaData m;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case F::type.id: return read_field(r, t, F::type, m.type);
            case F::encodings.id:
                return read_list(r, t, F::encodings, [&](TType elem) {
                    if (elem != TType::i32) r.skip(elem);
                    else m.encodings.push_back(read_enum<Encoding>(r));
                });
            case F::path_in_schema.id:
                return read_list(r, t, F::path_in_schema, [&](TType elem) {
                    if (elem != TType::binary) throw ThriftError("corrupt metadata: path_in_schema is not strings");
                    m.path.emplace_back(r.read_binary());
                });
            case F::codec.id: return read_field(r, t, F::codec, m.codec);
            case F::num_values.id: return read_field(r, t, F::num_values, m.num_values);
            case F::total_uncompressed_size.id: return read_field(r, t, F::total_uncompressed_size, m.total_uncompressed_size);
            case F::total_compressed_size.id: return read_field(r, t, F::total_compressed_size, m.total_compressed_size);
            case F::data_page_offset.id: return read_field(r, t, F::data_page_offset, m.data_page_offset);
            case F::dictionary_page_offset.id: return read_field(r, t, F::dictionary_page_offset, m.dictionary_page_offset);
            case F::statistics.id: expect(t, F::statistics, r); read_statistics(r, m); return true;
            default: return false;
        }
    });
    return m;
}

ColumnChunk read_column_chunk(CompactReader& r) {
    namespace F = T::ColumnChunk;
    ColumnChunk c;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case F::file_path.id: return read_field(r, t, F::file_path, c.file_path);
            case F::file_offset.id: return read_field(r, t, F::file_offset, c.file_offset);
            case F::meta_data.id: return read_field(r, t, F::meta_data, c.meta, read_column_metadata);
            default: return false;
        }
    });
    return c;
}

// A SortingColumn's column; it sorts ascending, nulls first, as nx writes it.
int32_t read_sorting_column(CompactReader& r) {
    int32_t column = -1;
    read_struct(r, [&](int16_t id, TType t) {
        return id == T::SortingColumn::column_idx.id && read_field(r, t, T::SortingColumn::column_idx, column);
    });
    return column;
}

RowGroup read_row_group(CompactReader& r) {
    namespace F = T::RowGroup;
    RowGroup g;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case F::columns.id: return read_struct_list(r, t, F::columns, g.columns, read_column_chunk);
            case F::total_byte_size.id: return read_field(r, t, F::total_byte_size, g.total_byte_size);
            case F::num_rows.id: return read_field(r, t, F::num_rows, g.num_rows);
            case F::sorting_columns.id: return read_struct_list(r, t, F::sorting_columns, g.sorted_by, read_sorting_column);
            case F::file_offset.id: return read_field(r, t, F::file_offset, g.file_offset);
            case F::total_compressed_size.id: return read_field(r, t, F::total_compressed_size, g.total_compressed_size);
            default: return false;
        }
    });
    if (g.num_rows < 0) throw ThriftError("corrupt metadata: negative row count in a row group");
    return g;
}

// A KeyValue: key and value binary (others skipped).
std::pair<std::string, std::string> read_key_value(CompactReader& r) {
    std::pair<std::string, std::string> kv;
    read_struct(r, [&](int16_t id, TType t) {
        if (t != TType::binary) return false;
        if (id == T::KeyValue::key.id) kv.first = r.read_binary();
        else if (id == T::KeyValue::value.id) kv.second = r.read_binary();
        else return false;
        return true;
    });
    return kv;
}

// A ColumnOrder: a union; TYPE_ORDER or another nx does not know.
ColumnOrder read_column_order(CompactReader& r) {
    ColumnOrder order = ColumnOrder::unknown;
    read_struct(r, [&](int16_t id, TType t) {
        if (id == T::ColumnOrder::TYPE_ORDER.id && t == TType::structure) order = ColumnOrder::type_order;
        return false;
    });
    return order;
}

}  // namespace

FileMetaData decode_file_metadata(const uint8_t* data, size_t size) {
    namespace F = T::FileMetaData;
    CompactReader r(data, size);
    FileMetaData f;
    bool has_schema = false;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case F::version.id: return read_field(r, t, F::version, f.version);
            case F::schema.id: has_schema = true; return read_struct_list(r, t, F::schema, f.schema, read_schema_element);
            case F::num_rows.id: return read_field(r, t, F::num_rows, f.num_rows);
            case F::row_groups.id: return read_struct_list(r, t, F::row_groups, f.row_groups, read_row_group);
            case F::key_value_metadata.id:
                return read_list(r, t, F::key_value_metadata, [&](TType elem) {
                    if (elem != TType::structure) r.skip(elem);
                    else f.key_value.push_back(read_key_value(r));
                });
            case F::created_by.id: return read_field(r, t, F::created_by, f.created_by);
            case F::column_orders.id:
                return read_list(r, t, F::column_orders, [&](TType elem) {
                    if (elem != TType::structure) r.skip(elem);
                    else f.column_orders.push_back(read_column_order(r));
                });
            default: return false;
        }
    });
    if (!has_schema || f.schema.empty()) throw ThriftError("corrupt metadata: no schema");
    if (f.num_rows < 0) throw ThriftError("corrupt metadata: negative row count");
    return f;
}

namespace {

DataPageHeader read_data_page_header(CompactReader& r) {
    namespace F = T::DataPageHeader;
    DataPageHeader d;
    read_struct(r, [&](int16_t id, TType t) {
        if (t != TType::i32) return false;
        switch (id) {
            case F::num_values.id: d.num_values = r.read_i32(); return true;
            case F::encoding.id: d.encoding = read_enum<Encoding>(r); return true;
            case F::definition_level_encoding.id: d.definition_level_encoding = read_enum<Encoding>(r); return true;
            case F::repetition_level_encoding.id: d.repetition_level_encoding = read_enum<Encoding>(r); return true;
            default: return false;
        }
    });
    return d;
}

DictionaryPageHeader read_dictionary_page_header(CompactReader& r) {
    namespace F = T::DictionaryPageHeader;
    DictionaryPageHeader d;
    read_struct(r, [&](int16_t id, TType t) {
        if (t != TType::i32) return false;
        if (id == F::num_values.id) d.num_values = r.read_i32();
        else if (id == F::encoding.id) d.encoding = read_enum<Encoding>(r);
        else return false;
        return true;
    });
    return d;
}

DataPageHeaderV2 read_data_page_header_v2(CompactReader& r) {
    namespace F = T::DataPageHeaderV2;
    DataPageHeaderV2 d;
    read_struct(r, [&](int16_t id, TType t) {
        if (id == F::is_compressed.id && is_bool(t)) {
            d.is_compressed = CompactReader::bool_value(t);
            return true;
        }
        if (t != TType::i32) return false;
        switch (id) {
            case F::num_values.id: d.num_values = r.read_i32(); return true;
            case F::num_nulls.id: d.num_nulls = r.read_i32(); return true;
            case F::num_rows.id: d.num_rows = r.read_i32(); return true;
            case F::encoding.id: d.encoding = read_enum<Encoding>(r); return true;
            case F::definition_levels_byte_length.id: d.definition_levels_byte_length = r.read_i32(); return true;
            case F::repetition_levels_byte_length.id: d.repetition_levels_byte_length = r.read_i32(); return true;
            default: return false;
        }
    });
    return d;
}

}  // namespace

PageHeader decode_page_header(const uint8_t* data, size_t size, size_t& consumed) {
    namespace F = T::PageHeader;
    CompactReader r(data, size);
    PageHeader h;
    bool has_type = false, has_sizes = false;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case F::type.id: has_type = true; return read_field(r, t, F::type, h.type);
            case F::uncompressed_page_size.id: return read_field(r, t, F::uncompressed_page_size, h.uncompressed_page_size);
            case F::compressed_page_size.id: has_sizes = true; return read_field(r, t, F::compressed_page_size, h.compressed_page_size);
            case F::data_page_header.id: return read_field(r, t, F::data_page_header, h.data, read_data_page_header);
            case F::dictionary_page_header.id: return read_field(r, t, F::dictionary_page_header, h.dictionary, read_dictionary_page_header);
            case F::data_page_header_v2.id: return read_field(r, t, F::data_page_header_v2, h.data_v2, read_data_page_header_v2);
            default: return false;
        }
    });
    if (!has_type || !has_sizes) throw ThriftError("corrupt page header: no type or size");
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0) throw ThriftError("corrupt page header: negative page size");
    consumed = r.offset();
    return h;
}

namespace {

void write_schema_element(CompactWriter& w, const SchemaElement& s) {
    namespace F = T::SchemaElement;
    w.begin_element_struct();
    if (s.type) w.field(F::type, static_cast<int32_t>(*s.type));
    if (s.type == PhysicalType::fixed_len_byte_array) w.field(F::type_length, s.type_length);
    if (s.repetition) w.field(F::repetition_type, static_cast<int32_t>(*s.repetition));
    w.field(F::name, s.name);
    if (!s.type) w.field(F::num_children, s.num_children);
    if (s.converted_type) w.field(F::converted_type, *s.converted_type);
    if (s.logical_string || s.logical_list) {
        w.begin(F::logicalType);
        w.begin(s.logical_string ? T::LogicalType::STRING : T::LogicalType::LIST);  // an empty struct
        w.end_struct();
        w.end_struct();
    }
    w.end_struct();
}

void write_statistics(CompactWriter& w, const ColumnMetaData& m) {
    namespace F = T::Statistics;
    if (!m.null_count && !m.max_value && !m.min_value) return;
    w.begin(T::ColumnMetaData::statistics);
    if (m.null_count) w.field(F::null_count, *m.null_count);
    if (m.max_value) w.field(F::max_value, *m.max_value);
    if (m.min_value) w.field(F::min_value, *m.min_value);
    if (m.max_value_exact) w.field(F::is_max_value_exact, *m.max_value_exact);
    if (m.min_value_exact) w.field(F::is_min_value_exact, *m.min_value_exact);
    w.end_struct();
}

void write_column_metadata(CompactWriter& w, const ColumnMetaData& m) {
    namespace F = T::ColumnMetaData;
    w.begin(T::ColumnChunk::meta_data);
    w.field(F::type, static_cast<int32_t>(m.type));
    w.begin_list(F::encodings, TType::i32, static_cast<uint32_t>(m.encodings.size()));
    for (Encoding e : m.encodings) w.element_i32(static_cast<int32_t>(e));
    w.begin_list(F::path_in_schema, TType::binary, static_cast<uint32_t>(m.path.size()));
    for (const std::string& p : m.path) w.element_binary(p);
    w.field(F::codec, static_cast<int32_t>(m.codec));
    w.field(F::num_values, m.num_values);
    w.field(F::total_uncompressed_size, m.total_uncompressed_size);
    w.field(F::total_compressed_size, m.total_compressed_size);
    w.field(F::data_page_offset, m.data_page_offset);
    if (m.dictionary_page_offset) w.field(F::dictionary_page_offset, *m.dictionary_page_offset);
    write_statistics(w, m);
    w.end_struct();
}

void write_row_group(CompactWriter& w, const RowGroup& g) {
    namespace F = T::RowGroup;
    w.begin_element_struct();
    w.begin_list(F::columns, TType::structure, static_cast<uint32_t>(g.columns.size()));
    for (const ColumnChunk& c : g.columns) {
        w.begin_element_struct();
        if (!c.file_path.empty()) w.field(T::ColumnChunk::file_path, c.file_path);
        w.field(T::ColumnChunk::file_offset, c.file_offset);
        if (c.meta) write_column_metadata(w, *c.meta);
        w.end_struct();
    }
    w.field(F::total_byte_size, g.total_byte_size);
    w.field(F::num_rows, g.num_rows);
    if (!g.sorted_by.empty()) {
        w.begin_list(F::sorting_columns, TType::structure, static_cast<uint32_t>(g.sorted_by.size()));
        for (int32_t c : g.sorted_by) {
            w.begin_element_struct();
            w.field(T::SortingColumn::column_idx, c);
            w.field(T::SortingColumn::descending, false);
            w.field(T::SortingColumn::nulls_first, true);
            w.end_struct();
        }
    }
    if (g.file_offset) w.field(F::file_offset, *g.file_offset);
    if (g.total_compressed_size) w.field(F::total_compressed_size, *g.total_compressed_size);
    w.end_struct();
}

}  // namespace

std::vector<uint8_t> encode_file_metadata(const FileMetaData& f) {
    namespace F = T::FileMetaData;
    CompactWriter w;
    w.begin_struct();
    w.field(F::version, f.version);
    w.begin_list(F::schema, TType::structure, static_cast<uint32_t>(f.schema.size()));
    for (const SchemaElement& s : f.schema) write_schema_element(w, s);
    w.field(F::num_rows, f.num_rows);
    w.begin_list(F::row_groups, TType::structure, static_cast<uint32_t>(f.row_groups.size()));
    for (const RowGroup& g : f.row_groups) write_row_group(w, g);
    if (!f.key_value.empty()) {
        w.begin_list(F::key_value_metadata, TType::structure, static_cast<uint32_t>(f.key_value.size()));
        for (const auto& [k, v] : f.key_value) {
            w.begin_element_struct();
            w.field(T::KeyValue::key, k);
            w.field(T::KeyValue::value, v);
            w.end_struct();
        }
    }
    // Optional in the format; nx always names the writer.
    w.field(F::created_by, f.created_by);
    if (!f.column_orders.empty()) {
        w.begin_list(F::column_orders, TType::structure, static_cast<uint32_t>(f.column_orders.size()));
        for (ColumnOrder order : f.column_orders) {
            w.begin_element_struct();
            if (order == ColumnOrder::type_order) {
                w.begin(T::ColumnOrder::TYPE_ORDER);  // an empty struct
                w.end_struct();
            }
            w.end_struct();
        }
    }
    w.end_struct();
    return w.bytes();
}

std::vector<uint8_t> encode_page_header(const PageHeader& h) {
    namespace F = T::PageHeader;
    CompactWriter w;
    w.begin_struct();
    w.field(F::type, static_cast<int32_t>(h.type));
    w.field(F::uncompressed_page_size, h.uncompressed_page_size);
    w.field(F::compressed_page_size, h.compressed_page_size);
    if (const auto& d = h.data) {
        namespace D = T::DataPageHeader;
        w.begin(F::data_page_header);
        w.field(D::num_values, d->num_values);
        w.field(D::encoding, static_cast<int32_t>(d->encoding));
        w.field(D::definition_level_encoding, static_cast<int32_t>(d->definition_level_encoding));
        w.field(D::repetition_level_encoding, static_cast<int32_t>(d->repetition_level_encoding));
        w.end_struct();
    }
    if (const auto& d = h.dictionary) {
        w.begin(F::dictionary_page_header);
        w.field(T::DictionaryPageHeader::num_values, d->num_values);
        w.field(T::DictionaryPageHeader::encoding, static_cast<int32_t>(d->encoding));
        w.end_struct();
    }
    if (const auto& d = h.data_v2) {
        namespace D = T::DataPageHeaderV2;
        w.begin(F::data_page_header_v2);
        w.field(D::num_values, d->num_values);
        w.field(D::num_nulls, d->num_nulls);
        w.field(D::num_rows, d->num_rows);
        w.field(D::encoding, static_cast<int32_t>(d->encoding));
        w.field(D::definition_levels_byte_length, d->definition_levels_byte_length);
        w.field(D::repetition_levels_byte_length, d->repetition_levels_byte_length);
        w.field(D::is_compressed, d->is_compressed);
        w.end_struct();
    }
    w.end_struct();
    return w.bytes();
}

}  // namespace nx::parquet
