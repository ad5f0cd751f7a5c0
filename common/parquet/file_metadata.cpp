#include "common/parquet/file_metadata.h"

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

// Reads an enum-valued i32; unknown values are kept (the caller decides).
template <typename E>
E read_enum(CompactReader& r) {
    return static_cast<E>(r.read_i32());
}

void expect(TType got, TType want, const char* field, CompactReader& r) {
    bool both_bool = (got == TType::bool_true || got == TType::bool_false) &&
                     (want == TType::bool_true || want == TType::bool_false);
    if (got != want && !both_bool)
        throw ThriftError(std::string("corrupt metadata at byte ") + std::to_string(r.offset()) + ": field " + field +
                          " has the wrong type");
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

// A list of structs, each read by `one`.
template <typename T, typename F>
void read_struct_list(CompactReader& r, TType t, const char* field, std::vector<T>& out, F&& one) {
    expect(t, TType::list, field, r);
    TType elem;
    uint32_t n;
    r.read_list_header(elem, n);
    if (elem != TType::structure) throw ThriftError(std::string("corrupt metadata: ") + field + " is not a list of structs");
    out.reserve(n);
    for (uint32_t i = 0; i < n; ++i) out.push_back(one(r));
}

SchemaElement read_schema_element(CompactReader& r) {
    SchemaElement s;
    bool has_name = false;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case 1: expect(t, TType::i32, "SchemaElement.type", r); s.type = read_enum<PhysicalType>(r); return true;
            case 2: expect(t, TType::i32, "SchemaElement.type_length", r); s.type_length = r.read_i32(); return true;
            case 3: expect(t, TType::i32, "SchemaElement.repetition_type", r); s.repetition = read_enum<Repetition>(r); return true;
            case 4: expect(t, TType::binary, "SchemaElement.name", r); s.name = r.read_binary(); has_name = true; return true;
            case 5: expect(t, TType::i32, "SchemaElement.num_children", r); s.num_children = r.read_i32(); return true;
            case 6: expect(t, TType::i32, "SchemaElement.converted_type", r); s.converted_type = r.read_i32(); return true;
            case 10:  // LogicalType: a union; its set field's id says which
                expect(t, TType::structure, "SchemaElement.logicalType", r);
                read_struct(r, [&](int16_t lid, TType lt) {
                    if (lid == 1 || lid == 4 || lid == 12) s.logical_string = true;
                    if (lid == 3) s.logical_list = true;
                    if (lid == 10 && lt == TType::structure) {  // INTEGER: IntType{1: i8 bitWidth, 2: bool isSigned}
                        s.logical_signed = true;  // isSigned is required; a writer that leaves it out is read as signed
                        read_struct(r, [&](int16_t iid, TType it) {
                            if (iid != 2 || (it != TType::bool_true && it != TType::bool_false)) return false;
                            s.logical_signed = CompactReader::bool_value(it);
                            return true;
                        });
                        return true;
                    }
                    r.skip(lt);
                    return true;
                });
                return true;
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

ColumnMetaData read_column_metadata(CompactReader& r) {
    ColumnMetaData m;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case 1: expect(t, TType::i32, "ColumnMetaData.type", r); m.type = read_enum<PhysicalType>(r); return true;
            case 2: {
                expect(t, TType::list, "ColumnMetaData.encodings", r);
                TType elem;
                uint32_t n;
                r.read_list_header(elem, n);
                for (uint32_t i = 0; i < n; ++i) {
                    if (elem != TType::i32) { r.skip(elem); continue; }
                    m.encodings.push_back(read_enum<Encoding>(r));
                }
                return true;
            }
            case 3: {
                expect(t, TType::list, "ColumnMetaData.path_in_schema", r);
                TType elem;
                uint32_t n;
                r.read_list_header(elem, n);
                for (uint32_t i = 0; i < n; ++i) {
                    if (elem != TType::binary) throw ThriftError("corrupt metadata: path_in_schema is not strings");
                    m.path.emplace_back(r.read_binary());
                }
                return true;
            }
            case 4: expect(t, TType::i32, "ColumnMetaData.codec", r); m.codec = read_enum<Codec>(r); return true;
            case 5: expect(t, TType::i64, "ColumnMetaData.num_values", r); m.num_values = r.read_i64(); return true;
            case 6: expect(t, TType::i64, "ColumnMetaData.total_uncompressed_size", r); m.total_uncompressed_size = r.read_i64(); return true;
            case 7: expect(t, TType::i64, "ColumnMetaData.total_compressed_size", r); m.total_compressed_size = r.read_i64(); return true;
            case 9: expect(t, TType::i64, "ColumnMetaData.data_page_offset", r); m.data_page_offset = r.read_i64(); return true;
            case 11: expect(t, TType::i64, "ColumnMetaData.dictionary_page_offset", r); m.dictionary_page_offset = r.read_i64(); return true;
            case 12:
                expect(t, TType::structure, "ColumnMetaData.statistics", r);
                read_struct(r, [&](int16_t sid, TType st) {
                    switch (sid) {
                        case 3: expect(st, TType::i64, "Statistics.null_count", r); m.null_count = r.read_i64(); return true;
                        case 5: expect(st, TType::binary, "Statistics.max_value", r); m.max_value = std::string(r.read_binary()); return true;
                        case 6: expect(st, TType::binary, "Statistics.min_value", r); m.min_value = std::string(r.read_binary()); return true;
                        case 7:
                        case 8:
                            if (st != TType::bool_true && st != TType::bool_false) return false;
                            (sid == 7 ? m.max_value_exact : m.min_value_exact) = CompactReader::bool_value(st);
                            return true;
                        default: return false;
                    }
                });
                return true;
            default: return false;
        }
    });
    return m;
}

ColumnChunk read_column_chunk(CompactReader& r) {
    ColumnChunk c;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case 1: expect(t, TType::binary, "ColumnChunk.file_path", r); c.file_path = r.read_binary(); return true;
            case 3: expect(t, TType::structure, "ColumnChunk.meta_data", r); c.meta = read_column_metadata(r); return true;
            default: return false;
        }
    });
    return c;
}

int32_t read_sorting_column(CompactReader& r) {
    int32_t column = -1;
    read_struct(r, [&](int16_t id, TType t) {
        if (id != 1) return false;
        expect(t, TType::i32, "SortingColumn.column_idx", r);
        column = r.read_i32();
        return true;
    });
    return column;
}

RowGroup read_row_group(CompactReader& r) {
    RowGroup g;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case 1: read_struct_list(r, t, "RowGroup.columns", g.columns, read_column_chunk); return true;
            case 3: expect(t, TType::i64, "RowGroup.num_rows", r); g.num_rows = r.read_i64(); return true;
            case 4: read_struct_list(r, t, "RowGroup.sorting_columns", g.sorted_by, read_sorting_column); return true;
            default: return false;
        }
    });
    if (g.num_rows < 0) throw ThriftError("corrupt metadata: negative row count in a row group");
    return g;
}

}  // namespace

FileMetaData decode_file_metadata(const uint8_t* data, size_t size) {
    CompactReader r(data, size);
    FileMetaData f;
    bool has_schema = false;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case 1: expect(t, TType::i32, "FileMetaData.version", r); f.version = r.read_i32(); return true;
            case 2: read_struct_list(r, t, "FileMetaData.schema", f.schema, read_schema_element); has_schema = true; return true;
            case 3: expect(t, TType::i64, "FileMetaData.num_rows", r); f.num_rows = r.read_i64(); return true;
            case 4: read_struct_list(r, t, "FileMetaData.row_groups", f.row_groups, read_row_group); return true;
            case 5: {
                expect(t, TType::list, "FileMetaData.key_value_metadata", r);
                TType elem;
                uint32_t n;
                r.read_list_header(elem, n);
                for (uint32_t i = 0; i < n; ++i) {
                    if (elem != TType::structure) { r.skip(elem); continue; }
                    std::pair<std::string, std::string> kv;
                    read_struct(r, [&](int16_t kid, TType kt) {
                        if (kt != TType::binary) return false;
                        if (kid == 1) kv.first = r.read_binary();
                        else if (kid == 2) kv.second = r.read_binary();
                        else return false;
                        return true;
                    });
                    f.key_value.push_back(std::move(kv));
                }
                return true;
            }
            case 6: expect(t, TType::binary, "FileMetaData.created_by", r); f.created_by = r.read_binary(); return true;
            default: return false;
        }
    });
    if (!has_schema || f.schema.empty()) throw ThriftError("corrupt metadata: no schema");
    if (f.num_rows < 0) throw ThriftError("corrupt metadata: negative row count");
    return f;
}

PageHeader decode_page_header(const uint8_t* data, size_t size, size_t& consumed) {
    CompactReader r(data, size);
    PageHeader h;
    bool has_type = false, has_sizes = false;
    read_struct(r, [&](int16_t id, TType t) {
        switch (id) {
            case 1: expect(t, TType::i32, "PageHeader.type", r); h.type = read_enum<PageType>(r); has_type = true; return true;
            case 2: expect(t, TType::i32, "PageHeader.uncompressed_page_size", r); h.uncompressed_page_size = r.read_i32(); return true;
            case 3: expect(t, TType::i32, "PageHeader.compressed_page_size", r); h.compressed_page_size = r.read_i32(); has_sizes = true; return true;
            case 5: {
                expect(t, TType::structure, "PageHeader.data_page_header", r);
                DataPageHeader d;
                read_struct(r, [&](int16_t did, TType dt) {
                    if (dt != TType::i32) return false;
                    switch (did) {
                        case 1: d.num_values = r.read_i32(); return true;
                        case 2: d.encoding = read_enum<Encoding>(r); return true;
                        case 3: d.definition_level_encoding = read_enum<Encoding>(r); return true;
                        case 4: d.repetition_level_encoding = read_enum<Encoding>(r); return true;
                        default: return false;
                    }
                });
                h.data = d;
                return true;
            }
            case 7: {
                expect(t, TType::structure, "PageHeader.dictionary_page_header", r);
                DictionaryPageHeader d;
                read_struct(r, [&](int16_t did, TType dt) {
                    if (dt != TType::i32) return false;
                    if (did == 1) d.num_values = r.read_i32();
                    else if (did == 2) d.encoding = read_enum<Encoding>(r);
                    else return false;
                    return true;
                });
                h.dictionary = d;
                return true;
            }
            case 8: {
                expect(t, TType::structure, "PageHeader.data_page_header_v2", r);
                DataPageHeaderV2 d;
                read_struct(r, [&](int16_t did, TType dt) {
                    if (did == 7 && (dt == TType::bool_true || dt == TType::bool_false)) {
                        d.is_compressed = CompactReader::bool_value(dt);
                        return true;
                    }
                    if (dt != TType::i32) return false;
                    switch (did) {
                        case 1: d.num_values = r.read_i32(); return true;
                        case 2: d.num_nulls = r.read_i32(); return true;
                        case 3: d.num_rows = r.read_i32(); return true;
                        case 4: d.encoding = read_enum<Encoding>(r); return true;
                        case 5: d.definition_levels_byte_length = r.read_i32(); return true;
                        case 6: d.repetition_levels_byte_length = r.read_i32(); return true;
                        default: return false;
                    }
                });
                h.data_v2 = d;
                return true;
            }
            default: return false;
        }
    });
    if (!has_type || !has_sizes) throw ThriftError("corrupt page header: no type or size");
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0) throw ThriftError("corrupt page header: negative page size");
    consumed = r.offset();
    return h;
}

}  // namespace nx::parquet
