#include "common/io/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace nx {

void JsonText::append_string(std::string_view s) {
    // Room for the plain case at once: growing by doubling, a 64 MiB string
    // took a 128 MiB buffer.
    out_.reserve(out_.size() + s.size() + 2);
    out_ += '"';
    size_t run = 0;  // start of the pending run of plain characters
    for (size_t i = 0; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out_.append(s.data() + run, i - run);
        run = i + 1;
        switch (c) {
            case '"': out_ += "\\\""; break;
            case '\\': out_ += "\\\\"; break;
            case '\n': out_ += "\\n"; break;
            case '\r': out_ += "\\r"; break;
            case '\t': out_ += "\\t"; break;
            case '\b': out_ += "\\b"; break;
            case '\f': out_ += "\\f"; break;
            default: {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out_ += buf;
            }
        }
    }
    out_.append(s.data() + run, s.size() - run);
    out_ += '"';
}

void JsonText::int64(int64_t v) {
    separator();
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
}

void JsonText::uint64(uint64_t v) {
    separator();
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
}

void JsonText::real(double v) {
    separator();
    if (!std::isfinite(v)) {
        out_ += "null";
        return;
    }
    // Shortest text that reads back as the same double.
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
}

}  // namespace nx
