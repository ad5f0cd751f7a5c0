// A small, fast JSON text builder for the hot import path: the args object of
// every event.  RapidJSON's Writer escapes character by character; this copies
// runs of plain characters at once, which matters at millions of events.
// Output is always valid JSON (strings are escaped, non-finite numbers become
// null); the caller supplies a well-formed sequence of calls.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nx {

// How many bytes from p (before end) a JSON string holds as they are: the
// run up to the first quote, backslash or control character (below 0x20),
// the bytes that must be escaped.  Sixteen bytes at a time where SSE2 is.
// The reader (json_input_stream.h) and the writer below scan with it.
size_t json_plain_prefix(const char* p, const char* end);
// The same run, also ended by the first byte above 0x7F: a string that is
// all of it is ASCII, so valid UTF-8, and needs no escaping (one scan where
// validating and escaping took two).
size_t json_plain_ascii_prefix(const char* p, const char* end);

class JsonText {
public:
    void clear() {
        out_.clear();
        depth_ = 0;
        first_ = true;
    }
    bool empty() const { return out_.empty(); }
    std::string_view view() const { return out_; }
    // Hands the text over to `to` (a large one is not copied) and starts over
    // in to's old buffer.
    void move_into(std::string& to) {
        to.swap(out_);
        clear();
    }

    void start_object() { open('{'); }
    void end_object() { close('}'); }
    void start_array() { open('['); }
    void end_array() { close(']'); }
    void key(std::string_view k) {
        separator();
        append_string(k);
        out_ += ':';
        after_key_ = true;
    }
    void string(std::string_view s) {
        separator();
        append_string(s);
    }
    // A string the caller found needs no escaping (json_plain_ascii_prefix).
    void plain_string(std::string_view s) {
        separator();
        out_.reserve(out_.size() + s.size() + 2);
        out_ += '"';
        out_ += s;
        out_ += '"';
    }
    // A key as key() wrote it before ("\"name\":"), kept by a caller that
    // meets the same key again.
    void key_text(std::string_view quoted_key_and_colon) {
        separator();
        out_ += quoted_key_and_colon;
        after_key_ = true;
    }
    void int64(int64_t v);
    void uint64(uint64_t v);
    void real(double v);
    void boolean(bool b) {
        separator();
        out_ += b ? "true" : "false";
    }
    void null() {
        separator();
        out_ += "null";
    }
    // A value that is JSON text already (a nested object or array).
    void raw(std::string_view json) {
        separator();
        out_ += json;
    }
    // Starts over inside `object` (the text of a JSON object, "{...}"): the
    // next key() adds a member, end_object() closes it again.
    void reopen_object(std::string_view object) {
        clear();
        out_.assign(object.data(), object.size() - 1);
        depth_ = 1;
        first_ = object.find_first_not_of(" \t\r\n", 1) == object.size() - 1;
    }

private:
    void separator() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_) out_ += ',';
        first_ = false;
    }
    void open(char c) {
        separator();
        out_ += c;
        ++depth_;
        first_ = true;
    }
    void close(char c) {
        out_ += c;
        --depth_;
        first_ = false;
    }
    void append_string(std::string_view s);

    std::string out_;
    int depth_ = 0;
    bool first_ = true;
    bool after_key_ = false;
};

}  // namespace nx
