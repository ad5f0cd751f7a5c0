// A RapidJSON input stream (the Stream concept: Peek/Take/Tell) over an
// InputSource, read a buffer at a time, and the RapidJSON hooks that let the
// parser skip whitespace and copy a string's plain characters from that
// buffer in runs (with a 16-byte scan) rather than one Take() at a time: that
// per-character path was a quarter of a neuron-profile JSON import's parse
// thread.  Every reader that parses with this stream includes this header, so
// every one gets the same specialisations.
#pragma once

#include <rapidjson/reader.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "common/io/input.h"

namespace nx {

// A RapidJSON input stream (the Stream concept: Peek/Take/Tell) over an
// InputSource.  Newlines are counted per buffer refill with memchr, so line()
// is cheap to ask for and free when nobody asks.
class JsonInputStream {
public:
    typedef char Ch;

    explicit JsonInputStream(InputSource& source, size_t buffer_size = 1 << 18);
    JsonInputStream(const JsonInputStream&) = delete;
    JsonInputStream& operator=(const JsonInputStream&) = delete;

    Ch Peek() const { return *current_; }
    Ch Take() {
        Ch c = *current_;
        advance();
        return c;
    }
    size_t Tell() const { return consumed_before_ + static_cast<size_t>(current_ - buffer_.get()); }

    // 1-based line of the next character to be read.  Counting resumes where
    // the previous call stopped, so asking once per record costs O(input).
    int64_t line() const;

    // A cap on one token (a string, a number, a run of whitespace): the
    // handler calls mark() at every token, and a refill more than `bytes`
    // past the last mark throws Error (limits.h).  0 = no cap.
    void set_token_limit(size_t bytes) { token_limit_ = bytes; }
    void mark() { mark_ = Tell(); }
    // True at the real end of the input (Peek() is '\0' there, but also at a NUL byte).
    bool at_end() const { return eof_ && current_ == last_; }

    // The run of plain string characters at the read position (none of '"',
    // '\\' or a control character), stepped over; it stops before the
    // buffer's last byte, which Take() refills after.  RapidJSON's string
    // parser copies the run at once instead of a character at a time (the
    // ScanCopyUnescapedString specialisation below).
    std::string_view take_plain_run() {
        size_t n = plain_run_length();
        std::string_view run(current_, n);
        current_ += n;
        return run;
    }

    // Steps over JSON whitespace, across refills (RapidJSON's SkipWhitespace,
    // specialised below, would Peek() and Take() each byte).
    void skip_whitespace() {
        for (;;) {
            while (current_ < last_ && is_whitespace(*current_)) ++current_;
            if (current_ < last_ || !is_whitespace(*current_)) return;
            advance();  // the buffer's last byte is whitespace: refill past it
        }
    }

    // Unused by the reader but required by the concept.
    Ch* PutBegin() { return nullptr; }
    void Put(Ch) {}
    void Flush() {}
    size_t PutEnd(Ch*) { return 0; }

private:
    static bool is_whitespace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
    void advance() {
        if (current_ < last_) ++current_;
        else refill();
    }
    void refill();
    size_t plain_run_length() const;

    InputSource& source_;
    size_t size_;
    std::unique_ptr<char[]> buffer_;
    char* current_;
    char* last_;             // last valid character (the '\0' sentinel at EOF)
    size_t consumed_before_ = 0;
    int64_t lines_before_ = 0;  // newlines in buffers already consumed
    mutable const char* counted_to_ = nullptr;  // line() has counted up to here
    mutable int64_t counted_lines_ = 0;         // newlines in [buffer, counted_to_)
    size_t read_count_ = 0;
    bool eof_ = false;
    size_t token_limit_ = 0;
    size_t mark_ = 0;
};

}  // namespace nx

namespace rapidjson {

// RapidJSON skips whitespace between tokens with SkipWhitespace(stream), and
// its string parser first asks for the run of characters it can copy
// as they are (reader.h: ScanCopyUnescapedString; only its own in-memory
// streams answer by default), then handles the character after the run
// itself: an escape, the closing quote, an error, or (at the end of nx's
// buffer) the next character, which refills.  The same bytes reach the
// handler either way; only the copying differs.
template <>
inline void SkipWhitespace(nx::JsonInputStream& is) {
    is.skip_whitespace();
}

template <>
template <>
inline void GenericReader<UTF8<>, UTF8<>, CrtAllocator>::ScanCopyUnescapedString(
    nx::JsonInputStream& is, GenericReader<UTF8<>, UTF8<>, CrtAllocator>::StackStream<char>& os) {
    std::string_view run = is.take_plain_run();
    if (!run.empty()) std::memcpy(os.Push(static_cast<SizeType>(run.size())), run.data(), run.size());
}

}  // namespace rapidjson
