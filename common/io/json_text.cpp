#include "common/io/json_text.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace nx {

namespace {

#if defined(__SSE2__)
// A bit per byte of 16 that ends a plain run (kAscii: bytes above 0x7F too).
template <bool kAscii>
struct Stops16 {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i control_max = _mm_set1_epi8(0x1F);

    unsigned operator()(const char* p) const {
        const __m128i s = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(s, quote), _mm_cmpeq_epi8(s, backslash)),
                                    _mm_cmpeq_epi8(_mm_max_epu8(s, control_max), control_max));
        auto mask = static_cast<unsigned>(_mm_movemask_epi8(stop));
        if (kAscii) mask |= static_cast<unsigned>(_mm_movemask_epi8(s));  // each byte's top bit
        return mask;
    }
};
#endif

// The same for the 8 bytes of w (little-endian), as the top bit of each
// byte.  Only the lowest bit set is exact (a borrow from a stopping byte can
// mark the bytes above it), which is all a prefix needs.
template <bool kAscii>
uint64_t stops8(uint64_t w) {
    constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    auto zero_bytes = [&](uint64_t x) { return (x - ones) & ~x & highs; };
    uint64_t m = zero_bytes(w ^ (ones * '"')) | zero_bytes(w ^ (ones * '\\')) | ((w - ones * 0x20) & ~w & highs);
    if (kAscii) m |= w & highs;
    return m;
}

// Fewer than 16 bytes (and every length without SSE2): words, then bytes.
// Apart from the loop over 16-byte blocks so that one keeps its registers.
template <bool kAscii>
__attribute__((noinline)) size_t short_plain_prefix(const char* p, const char* end) {
    const char* start = p;
    while (end - p >= 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        if (uint64_t m = stops8<kAscii>(w)) return static_cast<size_t>(p - start) + static_cast<size_t>(__builtin_ctzll(m) / 8);
        p += 8;
    }
    while (p < end) {
        auto c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\' || c < 0x20 || (kAscii && c > 0x7F)) break;
        ++p;
    }
    return static_cast<size_t>(p - start);
}

template <bool kAscii>
size_t plain_prefix(const char* p, const char* end) {
#if defined(__SSE2__)
    if (end - p >= 16) {
        const char* start = p;
        const Stops16<kAscii> stops16;
        while (end - p >= 16) {
            if (unsigned mask = stops16(p)) return static_cast<size_t>(p - start) + static_cast<size_t>(__builtin_ctz(mask));
            p += 16;
        }
        if (p == end) return static_cast<size_t>(end - start);
        // The last bytes: one load ending at `end`, over some already checked.
        const char* last = end - 16;
        unsigned mask = stops16(last) >> (p - last);
        if (mask) return static_cast<size_t>(p - start) + static_cast<size_t>(__builtin_ctz(mask));
        return static_cast<size_t>(end - start);
    }
#endif
    return short_plain_prefix<kAscii>(p, end);
}

}  // namespace

size_t json_plain_prefix(const char* p, const char* end) { return plain_prefix<false>(p, end); }

size_t json_plain_ascii_prefix(const char* p, const char* end) { return plain_prefix<true>(p, end); }

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

namespace {

// std::to_chars's text of v (for a double the shortest that reads back as
// the same), appended by length: append(first, last) goes through
// std::string's general replace.
template <class T>
void append_number(std::string& out, T v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<size_t>(r.ptr - buf));
}

}  // namespace

void JsonText::int64(int64_t v) {
    separator();
    append_number(out_, v);
}

void JsonText::uint64(uint64_t v) {
    separator();
    append_number(out_, v);
}

void JsonText::real(double v) {
    separator();
    if (!std::isfinite(v)) {
        out_ += "null";
        return;
    }
    append_number(out_, v);
}

}  // namespace nx
