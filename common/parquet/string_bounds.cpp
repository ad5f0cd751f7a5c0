#include "common/parquet/string_bounds.h"

#include <cstdint>

namespace nx::parquet {

namespace {

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The code point of the UTF-8 sequence `s` (one character), or -1.
int32_t decode(std::string_view s) {
    unsigned char c = static_cast<unsigned char>(s[0]);
    if (s.size() == 1) return c < 0x80 ? c : -1;
    int32_t cp = s.size() == 2 ? (c & 0x1F) : s.size() == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t i = 1; i < s.size(); ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
    return cp;
}

std::string encode(int32_t cp) {
    std::string out;
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return out;
}

}  // namespace

std::string_view utf8_prefix(std::string_view s, size_t limit) {
    if (s.size() <= limit) return s;
    size_t end = limit;
    // Back to the start of the character the limit falls in (at most 3
    // bytes back in UTF-8; bytes that are not UTF-8 are cut where they fall).
    for (size_t back = 0; end > 0 && back < 3 && continuation(static_cast<unsigned char>(s[end])); ++back) --end;
    if (continuation(static_cast<unsigned char>(s[end]))) end = limit;
    return s.substr(0, end);
}

std::optional<std::string> upper_bound_of(std::string_view s, size_t limit) {
    if (s.size() <= limit) return std::string(s);
    std::string p(utf8_prefix(s, limit));
    while (!p.empty()) {
        // The last character: its lead byte and continuation bytes.
        size_t start = p.size() - 1;
        while (start > 0 && continuation(static_cast<unsigned char>(p[start])) && p.size() - start < 4) --start;
        std::string_view last = std::string_view(p).substr(start);
        int32_t cp = decode(last);
        if (cp >= 0) {
            int32_t next = cp + 1;
            if (next == 0xD800) next = 0xE000;  // past the surrogates
            if (next <= 0x10FFFF) {
                std::string raised = encode(next);
                if (start + raised.size() <= limit) return p.substr(0, start) + raised;
            }
        } else if (last.size() == 1 && static_cast<unsigned char>(last[0]) < 0xFF) {
            // Not UTF-8: raise the byte itself.
            p.back() = static_cast<char>(static_cast<unsigned char>(p.back()) + 1);
            return p;
        }
        p.resize(start);  // cannot be raised: drop it, raise the one before
    }
    return std::nullopt;
}

void StringBounds::add(std::string_view x) {
    // A cut of x is <= x, and x < min: the cut is the new lower bound.
    if (!any || x < min) {
        std::string_view cut = utf8_prefix(x);
        min.assign(cut);
        min_exact = cut.size() == x.size();
    }
    if (has_max && (!any || x > max)) {
        std::optional<std::string> up = upper_bound_of(x);
        if (!up) {
            has_max = false;
            max.clear();
        } else {
            max_exact = *up == x;
            max = std::move(*up);
        }
    }
    any = true;
}

}  // namespace nx::parquet
