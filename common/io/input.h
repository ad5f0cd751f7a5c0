// Reading inputs: files or stdin ("-"), gzip-compressed or plain (zlib detects
// which), with a look-ahead window for format sniffing.  JSON is read from
// them through json_input_stream.h.
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

    gzFile file_;           // null for an in-memory source and a plain file
    // A regular file that is not gzip, read with read(2): zlib would copy
    // it through its own buffer whenever a read is not aligned to it (and
    // peeked bytes leave every read unaligned): a copy of the whole input.
    int plain_fd_ = -1;
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

}  // namespace nx
