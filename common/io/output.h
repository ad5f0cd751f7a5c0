// Buffered writer for a tool's data stream (stdout or a file).
// A closed downstream pipe (`nx-query ... | head`) surfaces as BrokenPipe so the
// tool ends quietly; any other write error is an Error naming the output.
#pragma once

#include <zlib.h>

#include <cstdio>
#include <string>
#include <string_view>

namespace nx {

class Output {
public:
    // Writes to stdout.
    Output();
    // Writes to an already open stream; `name` is used in diagnostics.
    Output(std::FILE* stream, std::string name);
    // Writes gzip-compressed through zlib (the owner closes the gzFile).
    Output(gzFile gz, std::string name);
    Output(const Output&) = delete;
    Output& operator=(const Output&) = delete;
    ~Output();

    void write(std::string_view text);
    void put(char c) { write(std::string_view(&c, 1)); }
    // Ends one record (a line): flushes when unbuffered mode is on.
    void end_record();
    void flush();
    // Flushes and checks the stream; throws on a write error.
    void close();

    void set_unbuffered(bool on) { unbuffered_ = on; }
    bool is_terminal() const;
    const std::string& name() const { return name_; }

    // The process-wide stdout writer.
    static Output& standard();

private:
    void check();
    void drain();

    std::FILE* stream_ = nullptr;
    gzFile gz_ = nullptr;
    std::string name_;
    std::string buffer_;
    bool unbuffered_ = false;
    bool closed_ = false;
    // Sticky: after a write failed (reported once), nothing more is written
    // and close() does not report it again.
    bool failed_ = false;
};

}  // namespace nx
