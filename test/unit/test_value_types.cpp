// The Parquet writer's value types table (common/parquet/value_types.h):
// its physical types and annotation are the format specification's numbers,
// it is in ValueType order, and each C++ type of page values maps to its one
// value type both ways.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "common/parquet/value_types.h"

namespace {

using namespace nx::parquet;

TEST(ValueTypes, PhysicalTypesAreTheSpecificationsNumbers) {
    // parquet.thrift: BOOLEAN 0, INT32 1, INT64 2, FLOAT 4, DOUBLE 5, BYTE_ARRAY 6.
    EXPECT_EQ(static_cast<int32_t>(info(ValueType::boolean).physical), 0);
    EXPECT_EQ(static_cast<int32_t>(info(ValueType::int32).physical), 1);
    EXPECT_EQ(static_cast<int32_t>(info(ValueType::int64).physical), 2);
    EXPECT_EQ(static_cast<int32_t>(info(ValueType::float32).physical), 4);
    EXPECT_EQ(static_cast<int32_t>(info(ValueType::float64).physical), 5);
    EXPECT_EQ(static_cast<int32_t>(info(ValueType::string).physical), 6);
}

TEST(ValueTypes, OnlyStringsAreAnnotatedUtf8) {
    // parquet.thrift: ConvertedType UTF8 is 0.
    EXPECT_EQ(info(ValueType::string).converted_type(), 0);
    for (const ValueTypeInfo& t : kValueTypes) {
        if (t.type != ValueType::string) {
            EXPECT_FALSE(t.converted_type().has_value()) << t.name;
        }
    }
}

TEST(ValueTypes, TheTableIsInValueTypeOrder) {
    for (size_t k = 0; k < std::size(kValueTypes); ++k)
        EXPECT_EQ(static_cast<size_t>(kValueTypes[k].type), k) << kValueTypes[k].name;
}

TEST(ValueTypes, EachPageValueTypeVisitsBackToItsValueType) {
    for (const ValueTypeInfo& t : kValueTypes) {
        ValueType back = visit_value_type(t.type, [](auto stored) { return value_type_of<typename decltype(stored)::type>(); });
        EXPECT_EQ(back, t.type) << t.name;
    }
}

TEST(ValueTypes, AFixedWidthValueTakesItsSizeInAPage) {
    for (const ValueTypeInfo& t : kValueTypes)
        visit_value_type(t.type, [&](auto stored) {
            using T = typename decltype(stored)::type;
            if constexpr (!std::is_same_v<T, std::string_view>) {
                EXPECT_EQ(t.page_bytes, static_cast<int64_t>(sizeof(T))) << t.name;
            }
        });
}

}  // namespace
