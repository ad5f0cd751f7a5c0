// parse_int64 (common/io/number_text.h): the whole text is the number, or
// there is none.
#include <gtest/gtest.h>

#include "common/io/number_text.h"

namespace nx {
namespace {

TEST(NumberText, TheWholeTextIsTheNumber) {
    EXPECT_EQ(parse_int64("12"), 12);
    EXPECT_EQ(parse_int64("-3"), -3);
    EXPECT_EQ(parse_int64("0"), 0);
    EXPECT_EQ(parse_int64("9223372036854775807"), INT64_MAX);
    EXPECT_EQ(parse_int64("-9223372036854775808"), INT64_MIN);
}

TEST(NumberText, AnythingElseIsNone) {
    for (const char* text : {"", "12a", " 1", "1 ", "1.0", "+1", "-", "0x10", "9223372036854775808", "null"})
        EXPECT_FALSE(parse_int64(text).has_value()) << '"' << text << '"';
}

}  // namespace
}  // namespace nx
