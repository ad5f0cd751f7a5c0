// Reading inputs: files or stdin ("-"), gzip-compressed or plain (zlib detects
// which), with a look-ahead window for format sniffing, and a RapidJSON input
// stream that knows the current line number without a per-character cost.
// Standard input on a terminal says so on stderr ("reading standard input;
// Ctrl-D to end") before the tool waits on it.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/io/error.h"

namespace nx {

class InputSource {
public:
    // "-" reads stdin.  Throws Error if the file cannot be opened.
    static std::unique_ptr<InputSource> open(const std::string& path);
    // Bytes already in memory (fuzzing, tests); read as they are (no gzip).
    static std::unique_ptr<InputSource> from_memory(std::string data, std::string name);
    // A file opened under another name for diagnostics (a temporary copy
    // of standard input that errors call "<stdin>").
    static std::unique_ptr<InputSource> open_as(const std::string& path, std::string name);
    // A second reader over the same bytes from their start, for importers
    // that read their input twice: a regular file is opened again, bytes in
    // memory are copied.  nullptr for standard input, pipes and other
    // streams that cannot be read again (copy them first).
    std::unique_ptr<InputSource> reopen() const;
    InputSource(const InputSource&) = delete;
    InputSource& operator=(const InputSource&) = delete;
    ~InputSource();

    // Reads up to n bytes; returns 0 at end of input.  Throws Error on a read
    // error or a damaged/truncated gzip stream.
    size_t read(char* buf, size_t n);
    // The first n bytes (fewer at end of input), without consuming them.
    std::string_view peek(size_t n);
    // Consumes the first n bytes (n <= what peek(n) returned): a prefix that
    // is not the data (log lines before a JSON document).  Readers count lines
    // from the file's first line still (lines_skipped).
    void skip(size_t n);
    int64_t lines_skipped() const { return lines_skipped_; }

    // Bytes of the file consumed so far (compressed bytes for gzip: the
    // share of the file's size read), for progress.
    uint64_t position() const;

    // An error is waiting behind the bytes last returned (see read()).
    bool has_pending_error() const { return pending_ != nullptr; }

    // Name for diagnostics: the path, or "<stdin>".
    const std::string& name() const { return name_; }
    const std::string& path() const { return path_; }
    bool is_stdin() const { return path_ == "-"; }

private:
    InputSource(gzFile file, std::string path, std::string name);
    size_t read_raw(char* buf, size_t n);

    gzFile file_;           // null for an in-memory source
    // An error met after some bytes were read: those bytes are returned first
    // (so readers know how far the input got), the error on the next read.
    std::unique_ptr<class Error> pending_;
    std::string memory_;
    size_t memory_pos_ = 0;
    std::string path_;
    std::string name_;
    std::string lookahead_;     // peeked bytes not yet consumed
    size_t lookahead_pos_ = 0;
    int64_t lines_skipped_ = 0;
    bool regular_file_ = false; // opened from a regular file (reopen() can read it again)
};

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

    // Unused by the reader but required by the concept.
    Ch* PutBegin() { return nullptr; }
    void Put(Ch) {}
    void Flush() {}
    size_t PutEnd(Ch*) { return 0; }

private:
    void advance() {
        if (current_ < last_) ++current_;
        else refill();
    }
    void refill();

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
