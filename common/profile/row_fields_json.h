// Rows as the profile record writes them (nx(7) RECORDS): an object per row,
// a key per field of its description (row_fields.h), a null field left out;
// and back, reading each field under its name (or the name an older nx
// wrote), a row whose key does not parse dropped.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <type_traits>
#include <vector>

#include "common/profile/row_fields.h"
#include "common/records/jsonl.h"

namespace nx {

void write_field_value(JsonWriter& w, const FieldValue& v);
// The member `name` (else `was`) of `obj` as a value of `type`; null when
// absent.  Throws Error naming the key for a value of another type.
FieldValue read_field_value(const rapidjson::Value& obj, std::string_view name, std::string_view was, FieldType type,
                            std::string& text_buffer);

// The row's fields as keys of the object being written.
template <class Row>
void write_fields(JsonWriter& w, const Row& row, std::type_identity_t<Fields<Row>> fields) {
    for (const Field<Row>& f : fields) {
        FieldValue v = f.get(row);
        if (std::holds_alternative<std::monostate>(v)) continue;
        w.Key(f.name.data(), static_cast<rapidjson::SizeType>(f.name.size()));
        write_field_value(w, v);
    }
}

template <class Row>
void write_row(JsonWriter& w, const Row& row, std::type_identity_t<Fields<Row>> fields) {
    w.StartObject();
    write_fields(w, row, fields);
    w.EndObject();
}

template <class Row>
void write_rows(JsonWriter& w, std::string_view key, const std::vector<Row>& rows,
                std::type_identity_t<Fields<Row>> fields) {
    w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
    w.StartArray();
    for (const Row& r : rows) write_row(w, r, fields);
    w.EndArray();
}

// False when a field's value does not parse (the row is not one to keep).
template <class Row>
bool read_row(const rapidjson::Value& obj, Row& row, std::type_identity_t<Fields<Row>> fields) {
    if (!obj.IsObject()) return false;
    std::string buffer;
    for (const Field<Row>& f : fields) {
        if (!f.set) continue;
        FieldValue v = read_field_value(obj, f.name, f.was, f.type, buffer);
        if (f.required && std::holds_alternative<std::monostate>(v)) return false;
        if (!f.set(row, v)) return false;
    }
    return true;
}

// The rows of the array `key` of `record` (none when it is absent).
template <class Row>
std::vector<Row> read_rows(const rapidjson::Value& record, const char* key, std::type_identity_t<Fields<Row>> fields) {
    std::vector<Row> rows;
    const rapidjson::Value* arr = find_member(record, key);
    if (!arr || !arr->IsArray()) return rows;
    for (const rapidjson::Value& obj : arr->GetArray()) {
        Row r{};
        if (read_row(obj, r, fields)) rows.push_back(std::move(r));
    }
    return rows;
}

}  // namespace nx
