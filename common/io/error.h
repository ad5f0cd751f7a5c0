// Exceptions that carry what a diagnostic needs: the input and the line.
// Tools throw these from the library and turn them into "nx-TOOL: FILE:LINE: msg"
// plus an exit status in one place (cli.cpp: run_tool).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/io/exit_status.h"

namespace nx {

// The work failed (exit 1).  `where` is a file name (or empty); line 0 means
// the message is about the whole input.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message, std::string where = {}, int64_t line = 0)
        : std::runtime_error(message), where_(std::move(where)), line_(line) {}
    const std::string& where() const { return where_; }
    int64_t line() const { return line_; }
    void set_where(std::string where) { where_ = std::move(where); }
    void set_line(int64_t line) { line_ = line; }

private:
    std::string where_;
    int64_t line_;
};

// Where the profile goes failed, not the input (the database, the dataset,
// an output): ProfileBuilder turns a sink's Error into this.  An importer's
// --keep-going, which skips a bad record or the rest of a damaged table,
// lets it through: the profile fails, and is not kept with rows missing.
class SinkError : public Error {
public:
    explicit SinkError(const Error& e) : Error(e) {}
};

// The command line was wrong (exit 2).
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Downstream closed the pipe: stop quietly (exit 0).
class BrokenPipe : public std::exception {
public:
    const char* what() const noexcept override { return "broken pipe"; }
};

// "file:line: " (or "file: " or "") for a message prefix.
std::string location_prefix(const std::string& where, int64_t line);

}  // namespace nx
