// The JSON side of row descriptions: one field's value written, and read
// with the type its description gives.
#include "common/profile/row_fields_json.h"

#include <string>

namespace nx {

void write_field_value(JsonWriter& w, const FieldValue& v) {
    if (const auto* i = std::get_if<int64_t>(&v)) w.Int64(*i);
    else if (const auto* d = std::get_if<double>(&v)) write_number(w, *d);
    else if (const auto* s = std::get_if<std::string_view>(&v)) w.String(s->data(), static_cast<rapidjson::SizeType>(s->size()));
    else w.Null();
}

FieldValue read_field_value(const rapidjson::Value& obj, std::string_view name, std::string_view was, FieldType type,
                            std::string& text_buffer) {
    std::string key(name);
    if (!find_member(obj, key.c_str()) && !was.empty()) key = std::string(was);
    switch (type) {
        case FieldType::int64:
        case FieldType::int32:
            if (std::optional<int64_t> i = get_int(obj, key.c_str())) return *i;
            return {};
        case FieldType::float64:
            if (std::optional<double> d = get_number(obj, key.c_str())) return *d;
            return {};
        case FieldType::text:
            if (std::optional<std::string> s = get_string(obj, key.c_str())) {
                text_buffer = std::move(*s);
                return std::string_view(text_buffer);
            }
            return {};
    }
    return {};
}

}  // namespace nx
