// The value types of nx's Parquet writer, described once: for each, the
// C++ type a page being filled holds its values in, its name in messages,
// its Parquet physical type, its annotation and the bytes a value takes
// while its page fills.  Statistics follow from the C++ type: min and max
// compare as it orders (NaN left out of floats, booleans as 0 and 1) and are
// stored as its PLAIN bytes; strings compare by byte and are bounded
// (column_statistics.h, string_bounds.h).  Every table and switch over value
// types is generated from NX_PARQUET_VALUE_TYPES.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "common/parquet/file_metadata.h"

// X(value type, C++ type of a page's values, name, physical type, UTF-8 text,
//   bytes a value takes in a page being filled: a string's is its end offset,
//   its text counted apart)
#define NX_PARQUET_VALUE_TYPES(X)                                  \
    X(int64, int64_t, "int64", int64, false, 8)                    \
    X(int32, int32_t, "int32", int32, false, 4)                    \
    X(float64, double, "double", float64, false, 8)                \
    X(float32, float, "float", float32, false, 4)                  \
    X(boolean, uint8_t, "boolean", boolean, false, 1)              \
    X(string, std::string_view, "string", byte_array, true, 4)

namespace nx::parquet {

enum class ValueType {
#define NX_VALUE_TYPE_ENUM(type, stored, name, physical, utf8, bytes) type,
    NX_PARQUET_VALUE_TYPES(NX_VALUE_TYPE_ENUM)
#undef NX_VALUE_TYPE_ENUM
};

struct ValueTypeInfo {
    ValueType type;
    const char* name;
    PhysicalType physical;
    // Text: ConvertedType UTF8 and LogicalType STRING in the schema.
    bool utf8;
    int64_t page_bytes;
    std::optional<int32_t> converted_type() const { return utf8 ? std::optional<int32_t>(kConvertedUtf8) : std::nullopt; }
};

// In ValueType order.
inline constexpr ValueTypeInfo kValueTypes[] = {
#define NX_VALUE_TYPE_INFO(type, stored, name, physical, utf8, bytes) \
    {ValueType::type, name, PhysicalType::physical, utf8, bytes},
    NX_PARQUET_VALUE_TYPES(NX_VALUE_TYPE_INFO)
#undef NX_VALUE_TYPE_INFO
};

constexpr const ValueTypeInfo& info(ValueType t) { return kValueTypes[static_cast<size_t>(t)]; }

// The value type whose page values are T (int64_t, int32_t, double, float,
// uint8_t, std::string_view).
template <class T>
constexpr ValueType value_type_of() {
#define NX_VALUE_TYPE_OF(type, stored, name, physical, utf8, bytes) \
    if constexpr (std::is_same_v<T, stored>) return ValueType::type; else
    NX_PARQUET_VALUE_TYPES(NX_VALUE_TYPE_OF)
#undef NX_VALUE_TYPE_OF
    static_assert(sizeof(T) == 0, "not the page values of a value type");
}

// f(std::type_identity<T>{}) with T the C++ type of t's page values: the
// one switch over value types the writer's code takes.
template <class F>
decltype(auto) visit_value_type(ValueType t, F&& f) {
    switch (t) {
#define NX_VALUE_TYPE_CASE(type, stored, name, physical, utf8, bytes) \
    case ValueType::type: return f(std::type_identity<stored>{});
        NX_PARQUET_VALUE_TYPES(NX_VALUE_TYPE_CASE)
#undef NX_VALUE_TYPE_CASE
    }
    return f(std::type_identity<int64_t>{});
}

}  // namespace nx::parquet
