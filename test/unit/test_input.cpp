// Reading inputs (common/io/input.h): plain and gzip files, peek, truncated
// gzip, and the line-counting RapidJSON stream.
#include <gtest/gtest.h>

#include "test/unit/test_support.h"
#include <stdlib.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "common/io/error.h"
#include "common/io/input.h"
#include "common/io/json_input_stream.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace {

using nx_test::TempDir;

// Text that does not compress to nothing: so that cutting the compressed file
// in half really cuts the deflate stream.
std::string noisy_text(size_t n) {
    std::mt19937 rng(42);
    std::string s;
    s.reserve(n);
    for (size_t i = 0; i < n; ++i) s += static_cast<char>('a' + rng() % 26);
    return s;
}

// Everything the source yields, read in chunks of `chunk` bytes.
std::string read_all(nx::InputSource& in, size_t chunk = 4096) {
    std::string out, buf(chunk, '\0');
    for (;;) {
        size_t n = in.read(buf.data(), buf.size());
        if (n == 0) break;
        out.append(buf.data(), n);
    }
    return out;
}

void cut_file(const std::string& path, uintmax_t keep) { std::filesystem::resize_file(path, keep); }

// Line of each position: 1 + the number of '\n' before it.
int64_t expected_line(const std::string& text, size_t pos) {
    int64_t n = 1;
    for (size_t i = 0; i < pos; ++i) n += text[i] == '\n';
    return n;
}

}  // namespace

TEST(InputSource, ReadsAPlainFile) {
    TempDir dir;
    std::string p = dir.write("plain.txt", "hello world\nsecond line\n");
    auto in = nx::InputSource::open(p);
    EXPECT_EQ(in->name(), p);
    EXPECT_FALSE(in->is_stdin());
    EXPECT_EQ(read_all(*in), "hello world\nsecond line\n");
}

TEST(InputSource, ReadsAGzipFileTransparently) {
    TempDir dir;
    std::string text = noisy_text(300000);  // several zlib buffers
    std::string p = dir.write_gzip("data.gz", text);
    ASSERT_LT(std::filesystem::file_size(p), text.size());  // it is compressed
    auto in = nx::InputSource::open(p);
    EXPECT_EQ(read_all(*in, 1000), text);
}

TEST(InputSource, APlainFileAndItsGzipGiveTheSameBytesWhateverTheReads) {
    // A plain file is read with read(2), a gzip one through zlib: peeks,
    // skips, odd read sizes and a second reader give the same bytes.
    TempDir dir;
    std::string text = noisy_text(700000);
    for (const std::string& p : {dir.write("data.txt", text), dir.write_gzip("data.gz", text)}) {
        auto in = nx::InputSource::open(p);
        EXPECT_EQ(in->peek(3), text.substr(0, 3)) << p;
        in->skip(1);
        std::string got = text.substr(0, 1);
        std::string buf(262144, '\0');
        for (size_t want : {size_t{7}, size_t{262144}, size_t{1}, size_t{100000}}) got.append(buf.data(), in->read(buf.data(), want));
        got += read_all(*in, 262144);
        EXPECT_EQ(got, text) << p;
        EXPECT_GT(in->position(), 0u) << p;
        auto again = in->reopen();
        ASSERT_TRUE(again) << p;
        EXPECT_EQ(read_all(*again, 5000), text) << p;
    }
    // One byte, and the gzip magic's first byte alone, are plain.
    for (const char* one : {"x", "\x1f"}) {
        auto in = nx::InputSource::open(dir.write("one", one));
        EXPECT_EQ(read_all(*in), one);
    }
}

TEST(InputSource, ReadsAnEmptyFile) {
    TempDir dir;
    auto in = nx::InputSource::open(dir.write("empty", ""));
    char c;
    EXPECT_EQ(in->read(&c, 1), 0u);
    EXPECT_EQ(in->peek(10), "");
}

TEST(InputSource, MissingFileThrowsNamingIt) {
    TempDir dir;
    std::string p = dir.path("nope.json");
    try {
        nx::InputSource::open(p);
        FAIL() << "no error";
    } catch (const nx::Error& e) {
        EXPECT_EQ(e.where(), p);
        EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
    }
}

TEST(InputSource, PeekThenReadReturnsTheSameBytes) {
    TempDir dir;
    auto in = nx::InputSource::open(dir.write("p.txt", "0123456789abcdef"));
    EXPECT_EQ(in->peek(5), "01234");
    EXPECT_EQ(in->peek(3), "012");     // a shorter peek sees the same start
    EXPECT_EQ(in->peek(8), "01234567");  // a longer one extends the window
    EXPECT_EQ(read_all(*in, 3), "0123456789abcdef");
}

TEST(InputSource, PeekOnGzipSeesDecompressedBytes) {
    TempDir dir;
    auto in = nx::InputSource::open(dir.write_gzip("p.gz", "{\"traceEvents\": []}"));
    EXPECT_EQ(in->peek(4), "{\"tr");
    EXPECT_EQ(read_all(*in), "{\"traceEvents\": []}");
}

TEST(InputSource, PeekPastTheEndReturnsWhatThereIs) {
    TempDir dir;
    auto in = nx::InputSource::open(dir.write("short.txt", "abc"));
    EXPECT_EQ(in->peek(100), "abc");
    EXPECT_EQ(read_all(*in), "abc");
}

TEST(InputSource, PeekAfterAPartialReadStartsWhereReadingStopped) {
    TempDir dir;
    auto in = nx::InputSource::open(dir.write("p.txt", "0123456789"));
    char buf[3];
    ASSERT_EQ(in->read(buf, 3), 3u);
    EXPECT_EQ(std::string(buf, 3), "012");
    EXPECT_EQ(in->peek(4), "3456");
    EXPECT_EQ(read_all(*in), "3456789");
}

TEST(InputSource, TruncatedGzipThrowsSayingTruncated) {
    TempDir dir;
    std::string p = dir.write_gzip("cut.gz", noisy_text(200000));
    cut_file(p, std::filesystem::file_size(p) / 2);
    auto in = nx::InputSource::open(p);
    try {
        read_all(*in);
        FAIL() << "a gzip file cut in half read without error";
    } catch (const nx::Error& e) {
        EXPECT_EQ(e.where(), p);
        EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    }
}

TEST(InputSource, GzipWithoutItsTrailerIsTruncated) {
    // The last 8 bytes of a gzip member are the CRC-32 and length; without
    // them the data cannot be checked.
    TempDir dir;
    std::string p = dir.write_gzip("notrailer.gz", "just a little text\n");
    cut_file(p, std::filesystem::file_size(p) - 8);
    auto in = nx::InputSource::open(p);
    EXPECT_THROW(read_all(*in), nx::Error);
}

TEST(InputSource, CorruptGzipDataThrows) {
    TempDir dir;
    std::string p = dir.write_gzip("bad.gz", noisy_text(10000));
    {
        // Flip bytes in the middle of the deflate stream.
        std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(100);
        f.write("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 8);
    }
    auto in = nx::InputSource::open(p);
    EXPECT_THROW(read_all(*in), nx::Error);
}

// ---- JsonInputStream

TEST(JsonInputStream, TakeReturnsEveryByteThenNul) {
    TempDir dir;
    std::string text = "{\"a\":\n[1,2]}\n";
    auto in = nx::InputSource::open(dir.write("s.json", text));
    nx::JsonInputStream s(*in, 4);
    std::string got;
    while (s.Peek() != '\0') got += s.Take();
    EXPECT_EQ(got, text);
    EXPECT_EQ(s.Tell(), text.size());
    EXPECT_EQ(s.Peek(), '\0');
}

TEST(JsonInputStream, LineCountsAcrossBufferRefills) {
    // Ask for the line before every character, with buffers of 1 to 7 bytes
    // (and a big one): refills land on, before and after newlines.
    std::string text = "ab\ncd\n\n\nefg\nh\n\nijklmnop\nq";
    TempDir dir;
    std::string p = dir.write("lines.txt", text);
    for (size_t size : {1, 2, 3, 4, 5, 7, 1 << 10}) {
        auto in = nx::InputSource::open(p);
        nx::JsonInputStream s(*in, size);
        for (size_t i = 0; i < text.size(); ++i) {
            ASSERT_EQ(s.line(), expected_line(text, i)) << "buffer " << size << ", position " << i;
            ASSERT_EQ(s.Take(), text[i]);
        }
        EXPECT_EQ(s.line(), expected_line(text, text.size())) << "buffer " << size;
    }
}

TEST(JsonInputStream, LineIsRightWhenAskedRarely) {
    // Nobody asks while several buffers go by; the first question still
    // counts every newline before the current character.
    std::string text;
    for (int i = 0; i < 100; ++i) text += "line " + std::to_string(i) + "\n";
    TempDir dir;
    auto in = nx::InputSource::open(dir.write("rare.txt", text));
    nx::JsonInputStream s(*in, 16);
    size_t stop = text.size() / 2;
    for (size_t i = 0; i < stop; ++i) s.Take();
    EXPECT_EQ(s.line(), expected_line(text, stop));
    for (size_t i = stop; i < text.size(); ++i) s.Take();
    EXPECT_EQ(s.line(), 101);  // 100 newlines, then line 101 (empty)
}

TEST(JsonInputStream, LineCountsInGzipInput) {
    std::string text = "{\n\"a\": 1,\n\"b\": [\n2\n]\n}\n";
    TempDir dir;
    auto in = nx::InputSource::open(dir.write_gzip("lines.gz", text));
    nx::JsonInputStream s(*in, 3);
    for (size_t i = 0; i < text.size(); ++i) {
        ASSERT_EQ(s.line(), expected_line(text, i)) << "position " << i;
        s.Take();
    }
}

namespace {

// Every SAX event of a parse, as text: strings and keys with their bytes.
struct SaxLog : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, SaxLog> {
    std::string log;
    bool Default() {
        log += "?";
        return true;
    }
    bool Null() { return add("null"); }
    bool Bool(bool b) { return add(b ? "true" : "false"); }
    bool Int(int i) { return add("i" + std::to_string(i)); }
    bool Uint(unsigned u) { return add("u" + std::to_string(u)); }
    bool Int64(int64_t i) { return add("I" + std::to_string(i)); }
    bool Uint64(uint64_t u) { return add("U" + std::to_string(u)); }
    bool Double(double d) { return add("d" + std::to_string(d)); }
    bool String(const char* s, rapidjson::SizeType n, bool) { return add("s[" + std::string(s, n) + "]"); }
    bool Key(const char* s, rapidjson::SizeType n, bool) { return add("k[" + std::string(s, n) + "]"); }
    bool StartObject() { return add("{"); }
    bool EndObject(rapidjson::SizeType n) { return add("}" + std::to_string(n)); }
    bool StartArray() { return add("["); }
    bool EndArray(rapidjson::SizeType n) { return add("]" + std::to_string(n)); }
    bool add(const std::string& e) {
        log += e + ",";
        return true;
    }
};

// The parse's events, or its error and offset.
std::string sax_of_stream(const std::string& path, size_t buffer) {
    auto in = nx::InputSource::open(path);
    nx::JsonInputStream s(*in, buffer);
    SaxLog h;
    rapidjson::Reader r;
    rapidjson::ParseResult ok = r.Parse<rapidjson::kParseNanAndInfFlag>(s, h);
    return ok ? h.log : "error " + std::to_string(ok.Code()) + " at " + std::to_string(ok.Offset());
}
std::string sax_of_memory(const std::string& text) {
    rapidjson::StringStream s(text.c_str());
    SaxLog h;
    rapidjson::Reader r;
    rapidjson::ParseResult ok = r.Parse<rapidjson::kParseNanAndInfFlag>(s, h);
    return ok ? h.log : "error " + std::to_string(ok.Code()) + " at " + std::to_string(ok.Offset());
}

}  // namespace

TEST(JsonInputStream, StringsParseAsFromMemoryWhateverTheBufferSize) {
    // Strings copied in runs (take_plain_run) must give RapidJSON's own
    // answer: runs cut by the buffer's end at every position, escapes,
    // multi-byte UTF-8 split across refills, runs longer than the 16-byte
    // scan, and the errors (a raw control character, an unterminated string,
    // a bad escape) at the same offset.
    std::string long_run(70, 'x');
    std::vector<std::string> texts = {
        R"({"name":"MATMUL","opcode":"a\"b\\c\/d\n","k":[1,2.5,"x"]})",
        "[\"" + long_run + "\",\"" + long_run + "\\t" + long_run + "\",\"\"]",
        "{\"caf\xC3\xA9\":\"\xE2\x82\xAC\xF0\x9F\x98\x80 tail \xC3\xA9\",\"u\":\"\\u00e9\\ud83d\\ude00\"}",
        "[\"0123456789abcdef\",\"0123456789abcde\\\"\",\"0123456789abcdefg\\\\\"]",
        "[\"tab\there\"]",
        "[\"unterminated",
        "[\"bad \\q escape\"]",
        "{\"" + long_run + "\":\"" + long_run + "\"}",
    };
    TempDir dir;
    for (size_t t = 0; t < texts.size(); ++t) {
        std::string path = dir.write("t" + std::to_string(t) + ".json", texts[t]);
        std::string want = sax_of_memory(texts[t]);
        for (size_t buffer = 1; buffer <= 40; ++buffer)
            ASSERT_EQ(sax_of_stream(path, buffer), want) << "text " << t << ", buffer " << buffer;
        ASSERT_EQ(sax_of_stream(path, 1 << 16), want) << "text " << t;
    }
}

TEST(JsonInputStream, PlainRunStopsAtTheFirstSpecialByteAndBeforeTheBuffersLast) {
    TempDir dir;
    std::string text = "abcdefghijklmnopqrstuvwxyz0123456789\"rest";
    auto in = nx::InputSource::open(dir.write("run.txt", text));
    nx::JsonInputStream s(*in, 1 << 10);
    EXPECT_EQ(s.take_plain_run(), "abcdefghijklmnopqrstuvwxyz0123456789");
    EXPECT_EQ(s.Peek(), '"');
    EXPECT_EQ(s.take_plain_run(), "");
    s.Take();
    // At the end of input the '\0' sentinel is the buffer's last byte: the
    // run stops before it.
    EXPECT_EQ(s.take_plain_run(), "rest");
    EXPECT_EQ(s.Peek(), '\0');
    // A small buffer: the run ends one byte short of the buffer's end.
    auto in2 = nx::InputSource::open(dir.write("run2.txt", "abcdefgh"));
    nx::JsonInputStream s2(*in2, 4);
    EXPECT_EQ(s2.take_plain_run(), "abc");
    EXPECT_EQ(s2.Take(), 'd');
    EXPECT_EQ(s2.take_plain_run(), "efg");
}

