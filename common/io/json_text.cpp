#include "common/io/json_text.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <charconv>
#include <cmath>
#include <cstdio>

namespace nx {

size_t json_plain_prefix(const char* p, const char* end) {
    const char* start = p;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i control_max = _mm_set1_epi8(0x1F);
    while (end - p >= 16) {
        __m128i s = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(s, quote), _mm_cmpeq_epi8(s, backslash)),
                                    _mm_cmpeq_epi8(_mm_max_epu8(s, control_max), control_max));
        auto mask = static_cast<unsigned>(_mm_movemask_epi8(stop));
        if (mask != 0) return static_cast<size_t>(p - start) + static_cast<size_t>(__builtin_ctz(mask));
        p += 16;
    }
#endif
    while (p < end) {
        auto c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\' || c < 0x20) break;
        ++p;
    }
    return static_cast<size_t>(p - start);
}

void JsonText::append_string(std::string_view s) {
    // Room for the plain case at once: growing by doubling, a 64 MiB string
    // took a 128 MiB buffer.
    out_.reserve(out_.size() + s.size() + 2);
    out_ += '"';
    const char* p = s.data();
    const char* end = p + s.size();
    for (;;) {
        size_t plain = json_plain_prefix(p, end);
        out_.append(p, plain);
        p += plain;
        if (p == end) break;
        auto c = static_cast<unsigned char>(*p++);
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
