// UTF-8 validation (common/io/utf8.h), the JSON text builder (common/io/json_text.h)
// and JSON Lines reading and field access (common/records/jsonl.h).
#include <gtest/gtest.h>

#include "test/unit/test_support.h"
#include <rapidjson/document.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/io/input.h"
#include "common/io/json_text.h"
#include "common/io/utf8.h"
#include "common/records/jsonl.h"

namespace {

// A temporary directory removed with everything in it.
using nx_test::TempDir;

// Reads every record of a JSONL file: (line, compact JSON).
std::vector<std::pair<int64_t, std::string>> read_jsonl(const std::string& path) {
    auto in = nx::InputSource::open(path);
    nx::JsonlReader reader(*in);
    std::vector<std::pair<int64_t, std::string>> out;
    rapidjson::Document doc;
    while (reader.next(doc)) out.emplace_back(reader.line(), nx::to_json(doc));
    return out;
}

// The Error reading a JSONL file throws (fails the test if none).
nx::Error jsonl_error(const std::string& path) {
    auto in = nx::InputSource::open(path);
    nx::JsonlReader reader(*in);
    rapidjson::Document doc;
    try {
        while (reader.next(doc)) {
        }
    } catch (const nx::Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error reading " << path;
    return nx::Error("no error");
}

bool parses_as_json(std::string_view text) {
    rapidjson::Document d;
    d.Parse(text.data(), text.size());
    return !d.HasParseError();
}

std::string number_text(double v) {
    rapidjson::StringBuffer sb;
    nx::JsonWriter w(sb);
    nx::write_number(w, v);
    return std::string(sb.GetString(), sb.GetSize());
}

}  // namespace

// ---- utf8

TEST(Utf8, AsciiIsValid) {
    EXPECT_TRUE(nx::is_valid_utf8(""));
    EXPECT_TRUE(nx::is_valid_utf8("hello"));
    EXPECT_TRUE(nx::is_valid_utf8("a longer ASCII string that takes the 8-byte fast path"));
}

TEST(Utf8, MultibyteSequencesAreValid) {
    EXPECT_TRUE(nx::is_valid_utf8("\xC3\xA9"));          // U+00E9 e acute, 2 bytes
    EXPECT_TRUE(nx::is_valid_utf8("\xE2\x82\xAC"));      // U+20AC euro, 3 bytes
    EXPECT_TRUE(nx::is_valid_utf8("\xF0\x9F\x98\x80"));  // U+1F600, 4 bytes
    EXPECT_TRUE(nx::is_valid_utf8("12345678\xC3\xA9 after eight ASCII bytes"));
}

TEST(Utf8, BoundaryCodePointsAreValid) {
    EXPECT_TRUE(nx::is_valid_utf8("\xC2\x80"));          // U+0080, smallest 2-byte
    EXPECT_TRUE(nx::is_valid_utf8("\xE0\xA0\x80"));      // U+0800, smallest 3-byte
    EXPECT_TRUE(nx::is_valid_utf8("\xED\x9F\xBF"));      // U+D7FF, just below the surrogates
    EXPECT_TRUE(nx::is_valid_utf8("\xEE\x80\x80"));      // U+E000, just above them
    EXPECT_TRUE(nx::is_valid_utf8("\xF0\x90\x80\x80"));  // U+10000, smallest 4-byte
    EXPECT_TRUE(nx::is_valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF, the last code point
}

TEST(Utf8, OverlongFormsAreInvalid) {
    EXPECT_FALSE(nx::is_valid_utf8("\xC0\xAF"));          // '/' in 2 bytes
    EXPECT_FALSE(nx::is_valid_utf8("\xC1\xBF"));          // U+007F in 2 bytes
    EXPECT_FALSE(nx::is_valid_utf8("\xE0\x80\xAF"));      // '/' in 3 bytes
    EXPECT_FALSE(nx::is_valid_utf8("\xF0\x80\x80\xAF"));  // '/' in 4 bytes
    EXPECT_FALSE(nx::is_valid_utf8("\xF0\x8F\xBF\xBF"));  // U+FFFF in 4 bytes
}

TEST(Utf8, SurrogatesAreInvalid) {
    EXPECT_FALSE(nx::is_valid_utf8("\xED\xA0\x80"));  // U+D800
    EXPECT_FALSE(nx::is_valid_utf8("\xED\xBF\xBF"));  // U+DFFF
    // A CESU-8 style surrogate pair for U+1F600.
    EXPECT_FALSE(nx::is_valid_utf8("\xED\xA0\xBD\xED\xB8\x80"));
}

TEST(Utf8, TruncatedSequencesAreInvalid) {
    EXPECT_FALSE(nx::is_valid_utf8("\xC3"));              // 2-byte lead alone
    EXPECT_FALSE(nx::is_valid_utf8("\xE2\x82"));          // 3-byte sequence cut
    EXPECT_FALSE(nx::is_valid_utf8("\xF0\x9F\x98"));      // 4-byte sequence cut
    EXPECT_FALSE(nx::is_valid_utf8("\xE2\x82x"));         // cut by an ASCII byte
    EXPECT_FALSE(nx::is_valid_utf8("\x80"));              // lone continuation byte
}

TEST(Utf8, CodePointsAboveU10FFFFAreInvalid) {
    EXPECT_FALSE(nx::is_valid_utf8("\xF4\x90\x80\x80"));  // U+110000
    EXPECT_FALSE(nx::is_valid_utf8("\xF5\x80\x80\x80"));
    EXPECT_FALSE(nx::is_valid_utf8("\xF8\x88\x80\x80\x80"));  // old 5-byte form
    EXPECT_FALSE(nx::is_valid_utf8("\xFF"));
    EXPECT_FALSE(nx::is_valid_utf8("\xFE"));
}

TEST(Utf8, InvalidByteAfterTheAsciiFastPathIsFound) {
    EXPECT_FALSE(nx::is_valid_utf8("abcdefgh\xFF"));
    EXPECT_FALSE(nx::is_valid_utf8("abcdefghijklmnop\xC3"));
}

TEST(Utf8, SanitizeLeavesValidTextUnchanged) {
    std::string s = "plain \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";
    EXPECT_EQ(nx::sanitize_utf8(s), s);
}

TEST(Utf8, SanitizeReplacesOneBadByteWithOneReplacementCharacter) {
    EXPECT_EQ(nx::sanitize_utf8("a\xFF" "b"), "a\xEF\xBF\xBD" "b");
}

TEST(Utf8, SanitizeReplacesEachByteOfAnOverlongForm) {
    // C0 can never start a sequence and AF cannot either: two replacements.
    EXPECT_EQ(nx::sanitize_utf8("x\xC0\xAFy"), "x\xEF\xBF\xBD\xEF\xBF\xBDy");
}

TEST(Utf8, SanitizedOutputIsAlwaysValid) {
    for (std::string bad : {"\xE2\x82", "\xED\xA0\x80", "\xF4\x90\x80\x80", "ok\xF0\x9F\x98", "\x80\x80\x80"}) {
        std::string out = nx::sanitize_utf8(bad);
        EXPECT_TRUE(nx::is_valid_utf8(out)) << "for input of " << bad.size() << " bytes";
        EXPECT_NE(out.find("\xEF\xBF\xBD"), std::string::npos);
    }
}

// ---- JsonText

TEST(JsonText, EscapesQuotesAndBackslashes) {
    nx::JsonText j;
    j.string("say \"hi\" C:\\dir");
    EXPECT_EQ(j.view(), R"("say \"hi\" C:\\dir")");
}

TEST(JsonText, EscapesControlCharacters) {
    nx::JsonText j;
    j.string(std::string("\n\r\t\b\f\x01\x1f", 7));
    EXPECT_EQ(j.view(), R"("\n\r\t\b\f\u0001\u001f")");
}

TEST(JsonText, ThePlainAsciiRunEndsAtTheFirstByteToEscapeOrAboveAscii) {
    // Every stopping byte at every place of every length to 40: the 16-byte
    // steps, the last 16 bytes read again, the 8-byte words of short
    // strings and the bytes after them; a second stop after the first, and
    // bytes that are not stops but neighbour one (space, 0x7F, 0x81).
    for (unsigned char stop : {'"', '\\', '\0', '\x01', '\x1f', '\x80', '\xc3', '\xff'}) {
        for (size_t len = 0; len <= 40; ++len) {
            for (size_t at = 0; at <= len; ++at) {
                std::string s(len, 'a');
                for (size_t i = 0; i < len; i += 3) s[i] = i % 2 ? ' ' : '\x7f';
                if (at < len) s[at] = static_cast<char>(stop);
                if (at + 2 < len) s[at + 2] = '"';
                const char* b = s.data();
                const char* e = b + s.size();
                size_t ascii_stop = at + 2 < len ? std::min(at, at + 2) : std::min(at, len);
                EXPECT_EQ(nx::json_plain_ascii_prefix(b, e), ascii_stop) << int(stop) << " at " << at << " of " << len;
                size_t plain_stop = stop < 0x80 ? ascii_stop : (at + 2 < len ? at + 2 : len);
                EXPECT_EQ(nx::json_plain_prefix(b, e), plain_stop) << int(stop) << " at " << at << " of " << len;
            }
        }
    }
    std::string high(20, '\x81');
    EXPECT_EQ(nx::json_plain_prefix(high.data(), high.data() + high.size()), high.size());
    EXPECT_EQ(nx::json_plain_ascii_prefix(high.data(), high.data() + high.size()), 0u);
    std::string plain(33, '~');  // 0x7E, and 0x20 below
    plain[5] = ' ';
    EXPECT_EQ(nx::json_plain_ascii_prefix(plain.data(), plain.data() + plain.size()), plain.size());
}

TEST(JsonText, AKeptKeyAndAPlainStringWriteWhatKeyAndStringWrite) {
    nx::JsonText a, b;
    a.start_object();
    a.key("k");
    a.string("v");
    a.key("n");
    a.int64(1);
    a.end_object();
    b.start_object();
    b.key_text("\"k\":");
    b.plain_string("v");
    b.key_text("\"n\":");
    b.int64(1);
    b.end_object();
    EXPECT_EQ(a.view(), b.view());
    EXPECT_EQ(b.view(), R"({"k":"v","n":1})");
}

TEST(JsonText, EscapesNulInsideAString) {
    nx::JsonText j;
    j.string(std::string("a\0b", 3));
    EXPECT_EQ(j.view(), R"("a\u0000b")");
}

TEST(JsonText, KeepsUtf8AsIs) {
    nx::JsonText j;
    j.string("\xC3\xA9t\xC3\xA9");
    EXPECT_EQ(j.view(), "\"\xC3\xA9t\xC3\xA9\"");
}

// The escape scan goes sixteen bytes at a time: every byte that needs an
// escape, at every position of strings shorter and longer than a block,
// next to UTF-8 (bytes above 0x7F, which a signed compare would take for
// control characters), round-trips through RapidJSON's parser.
TEST(JsonText, StringsRoundTripWhereverTheEscapesFall) {
    const std::string specials[] = {"\"", "\\", "\n", std::string(1, '\0'), "\x1f", "\x7f", "\xC3\xA9", "\xF0\x9F\x98\x80"};
    for (size_t len = 0; len <= 40; ++len) {
        for (size_t at = 0; at <= len; ++at) {
            for (const std::string& special : specials) {
                std::string text(len, 'a');
                text.insert(at, special);
                nx::JsonText j;
                j.string(text);
                rapidjson::Document d;
                std::string json(j.view());
                d.Parse(json.data(), json.size());
                ASSERT_FALSE(d.HasParseError()) << json;
                ASSERT_TRUE(d.IsString());
                ASSERT_EQ(std::string(d.GetString(), d.GetStringLength()), text) << json;
                // Only what must be escaped is: the plain bytes are copied as they are.
                bool plain = static_cast<unsigned char>(special[0]) >= 0x20 && special != "\"" && special != "\\";
                if (plain) {
                    ASSERT_EQ(json, "\"" + text + "\"");
                }
            }
        }
    }
}

TEST(JsonText, ObjectMembersAreSeparatedByCommas) {
    nx::JsonText j;
    j.start_object();
    j.key("a");
    j.int64(-5);
    j.key("b");
    j.string("x");
    j.key("c");
    j.boolean(false);
    j.key("d");
    j.null();
    j.end_object();
    EXPECT_EQ(j.view(), R"({"a":-5,"b":"x","c":false,"d":null})");
}

TEST(JsonText, NestedArraysAndObjectsGetCommasRight) {
    // {"arr":[1,[2,3],{"k":true},[]],"o":{},"n":{"x":{"y":[null]}}}
    nx::JsonText j;
    j.start_object();
    j.key("arr");
    j.start_array();
    j.int64(1);
    j.start_array();
    j.int64(2);
    j.int64(3);
    j.end_array();
    j.start_object();
    j.key("k");
    j.boolean(true);
    j.end_object();
    j.start_array();
    j.end_array();
    j.end_array();
    j.key("o");
    j.start_object();
    j.end_object();
    j.key("n");
    j.start_object();
    j.key("x");
    j.start_object();
    j.key("y");
    j.start_array();
    j.null();
    j.end_array();
    j.end_object();
    j.end_object();
    j.end_object();
    EXPECT_EQ(j.view(), R"({"arr":[1,[2,3],{"k":true},[]],"o":{},"n":{"x":{"y":[null]}}})");
    EXPECT_TRUE(parses_as_json(j.view()));
}

TEST(JsonText, NonFiniteRealsBecomeNull) {
    nx::JsonText j;
    j.start_array();
    j.real(std::numeric_limits<double>::quiet_NaN());
    j.real(std::numeric_limits<double>::infinity());
    j.real(-std::numeric_limits<double>::infinity());
    j.real(1.5);
    j.end_array();
    EXPECT_EQ(j.view(), "[null,null,null,1.5]");
}

TEST(JsonText, RealsReadBackExactly) {
    nx::JsonText j;
    j.real(0.1);
    EXPECT_EQ(j.view(), "0.1");
    j.clear();
    j.real(1e300);
    rapidjson::Document d;
    d.Parse(j.view().data(), j.view().size());
    ASSERT_TRUE(d.IsNumber());
    EXPECT_EQ(d.GetDouble(), 1e300);
}

TEST(JsonText, Uint64AboveInt64MaxIsWrittenInFull) {
    nx::JsonText j;
    j.uint64(18446744073709551615ull);
    EXPECT_EQ(j.view(), "18446744073709551615");
}

TEST(JsonText, AReopenedObjectGetsMoreMembers) {
    nx::JsonText j;
    j.reopen_object(R"({"a":1,"b":[2,{"c":3}]})");
    j.key("d");
    j.raw(R"({"e":[4]})");
    j.key("f");
    j.string("g\"h");
    j.end_object();
    EXPECT_EQ(j.view(), R"({"a":1,"b":[2,{"c":3}],"d":{"e":[4]},"f":"g\"h"})");
    // An empty object gets no leading comma, and reopening forgets the last one.
    j.reopen_object("{ }");
    j.key("x");
    j.boolean(true);
    j.end_object();
    EXPECT_EQ(j.view(), R"({ "x":true})");
}

TEST(JsonText, ClearStartsAFreshDocument) {
    nx::JsonText j;
    j.start_array();
    j.int64(1);
    j.end_array();
    j.clear();
    EXPECT_TRUE(j.empty());
    j.start_object();
    j.end_object();
    EXPECT_EQ(j.view(), "{}");  // no stray comma from the earlier document
}

// ---- JsonlReader

TEST(JsonlReader, SkipsBlankLinesButCountsThem) {
    // line 1 record, 2 empty, 3 spaces, 4 record, 5 tab, 6 record (no final newline)
    TempDir dir;
    std::string p = dir.write("a.jsonl", "{\"a\":1}\n\n   \n{\"b\":2}\n\t\n{\"c\":3}");
    auto records = read_jsonl(p);
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(records[0], (std::pair<int64_t, std::string>{1, R"({"a":1})"}));
    EXPECT_EQ(records[1], (std::pair<int64_t, std::string>{4, R"({"b":2})"}));
    EXPECT_EQ(records[2], (std::pair<int64_t, std::string>{6, R"({"c":3})"}));
}

TEST(JsonlReader, AcceptsCrlfLineEnds) {
    TempDir dir;
    std::string p = dir.write("crlf.jsonl", "{\"a\":\"x\"}\r\n\r\n{\"b\":2}\r\n");
    auto in = nx::InputSource::open(p);
    nx::JsonlReader reader(*in);
    std::string line;
    ASSERT_TRUE(reader.next_line(line));
    EXPECT_EQ(line, R"({"a":"x"})");  // no trailing '\r'
    ASSERT_TRUE(reader.next_line(line));
    EXPECT_EQ(line, R"({"b":2})");
    EXPECT_EQ(reader.line(), 3);
    EXPECT_FALSE(reader.next_line(line));
}

TEST(JsonlReader, EmptyFileHasNoRecords) {
    TempDir dir;
    EXPECT_TRUE(read_jsonl(dir.write("empty.jsonl", "")).empty());
    EXPECT_TRUE(read_jsonl(dir.write("blank.jsonl", "\n\n  \n")).empty());
}

TEST(JsonlReader, LongLinesAcrossReadChunksAreWhole) {
    // A 200 KB record is longer than the reader's 64 KiB chunk.
    TempDir dir;
    std::string big(200000, 'x');
    std::string p = dir.write("big.jsonl", "{\"s\":\"" + big + "\"}\n{\"n\":1}\n");
    auto records = read_jsonl(p);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].second.size(), big.size() + 8);
    EXPECT_EQ(records[1], (std::pair<int64_t, std::string>{2, R"({"n":1})"}));
}

TEST(JsonlReader, BadJsonNamesFileAndLine) {
    TempDir dir;
    std::string p = dir.write("bad.jsonl", "{\"a\":1}\n\n{\"a\":\n");
    nx::Error e = jsonl_error(p);
    EXPECT_EQ(e.where(), p);
    EXPECT_EQ(e.line(), 3);
    EXPECT_NE(std::string(e.what()).find("not a JSON record"), std::string::npos) << e.what();
    EXPECT_EQ(nx::location_prefix(e.where(), e.line()), p + ":3: ");
}

TEST(JsonlReader, NonObjectLineIsAnError) {
    TempDir dir;
    std::string p = dir.write("arr.jsonl", "{\"a\":1}\n[1,2]\n");
    nx::Error e = jsonl_error(p);
    EXPECT_EQ(e.where(), p);
    EXPECT_EQ(e.line(), 2);
    EXPECT_STREQ(e.what(), "not a JSON object");
}

TEST(JsonlReader, InvalidUtf8IsAnError) {
    TempDir dir;
    std::string p = dir.write("utf.jsonl", "{\"a\":1}\n{\"a\":2}\n{\"s\":\"\xFF\"}\n");
    nx::Error e = jsonl_error(p);
    EXPECT_EQ(e.where(), p);
    EXPECT_EQ(e.line(), 3);
    EXPECT_STREQ(e.what(), "invalid UTF-8");
}

// ---- field access

class JsonFields : public ::testing::Test {
protected:
    void SetUp() override {
        doc.Parse(R"({"i": 5, "neg": -7, "r": 1.5, "whole": 3.0, "s": "x", "q": "7", "big": 1e19,
                      "u": 18446744073709551615, "b": true, "n": null, "rank": 0})");
        ASSERT_FALSE(doc.HasParseError());
    }
    rapidjson::Document doc;
};

TEST_F(JsonFields, GetIntReadsIntegers) {
    EXPECT_EQ(nx::get_int(doc, "i"), 5);
    EXPECT_EQ(nx::get_int(doc, "neg"), -7);
    EXPECT_EQ(nx::get_int(doc, "whole"), 3);  // 3.0 is a whole number
    EXPECT_EQ(nx::get_int(doc, "q"), 7);      // numbers in strings are accepted
}

TEST_F(JsonFields, GetIntTreatsAbsentAndNullAsMissing) {
    EXPECT_EQ(nx::get_int(doc, "absent"), std::nullopt);
    EXPECT_EQ(nx::get_int(doc, "n"), std::nullopt);
}

TEST_F(JsonFields, GetIntRejectsNonIntegers) {
    EXPECT_THROW(nx::get_int(doc, "r"), nx::Error);    // 1.5
    EXPECT_THROW(nx::get_int(doc, "s"), nx::Error);    // "x"
    EXPECT_THROW(nx::get_int(doc, "big"), nx::Error);  // 1e19 > INT64_MAX
    EXPECT_THROW(nx::get_int(doc, "u"), nx::Error);    // 2^64 - 1
    EXPECT_THROW(nx::get_int(doc, "b"), nx::Error);    // true
}

TEST_F(JsonFields, GetIntErrorNamesTheField) {
    try {
        nx::get_int(doc, "r");
        FAIL() << "no error";
    } catch (const nx::Error& e) {
        EXPECT_STREQ(e.what(), "expected an integer for \"r\"");
    }
}

TEST_F(JsonFields, GetStringAcceptsNumbersAsText) {
    EXPECT_EQ(nx::get_string(doc, "s"), "x");
    EXPECT_EQ(nx::get_string(doc, "rank"), "0");
    EXPECT_THROW(nx::get_string(doc, "b"), nx::Error);
}

TEST_F(JsonFields, GetNumberAcceptsNumericStrings) {
    EXPECT_EQ(nx::get_number(doc, "r"), 1.5);
    EXPECT_EQ(nx::get_number(doc, "q"), 7.0);
    EXPECT_THROW(nx::get_number(doc, "s"), nx::Error);
}

// ---- writing

TEST(WriteNumber, WholeNumbersHaveNoFraction) {
    EXPECT_EQ(number_text(3.0), "3");
    EXPECT_EQ(number_text(-42.0), "-42");
    EXPECT_EQ(number_text(0.0), "0");
}

TEST(WriteNumber, FractionsAreKept) {
    EXPECT_EQ(number_text(2.5), "2.5");
    EXPECT_EQ(number_text(0.1), "0.1");
}

TEST(WriteNumber, NonFiniteBecomesNull) {
    EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "null");
    EXPECT_EQ(number_text(std::numeric_limits<double>::infinity()), "null");
}

TEST(WriteNumber, HugeWholeNumbersReadBackExactly) {
    // Above 9e15 a double is written as a double, not truncated to int64.
    for (double v : {1e16, 1e20, 1.5e300}) {
        std::string t = number_text(v);
        rapidjson::Document d;
        d.Parse(t.c_str());
        ASSERT_TRUE(d.IsNumber()) << t;
        EXPECT_EQ(d.GetDouble(), v) << t;
    }
}

TEST(JsonQuote, QuotesAndEscapes) {
    EXPECT_EQ(nx::json_quote("a\"b\\c\n"), R"("a\"b\\c\n")");
    EXPECT_EQ(nx::json_quote(""), "\"\"");
}
