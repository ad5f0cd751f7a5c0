#include "common/import/slots.h"

#include <cmath>
#include <cstdio>

namespace nx {

namespace {
constexpr double kMaxNs = 4.6e18;  // ~2^62: leaves room for ts + dur without overflow
}

std::string slot_to_int(const Slot& s, std::string_view field, int64_t& out, bool allow_negative, double scale) {
    double v;
    switch (s.kind) {
        case Slot::integer:
            if (scale == 1.0) {
                if (s.i < 0 && !allow_negative) return "negative \"" + std::string(field) + "\"";
                if (std::fabs(static_cast<double>(s.i)) > kMaxNs) return "\"" + std::string(field) + "\" out of range";
                out = s.i;
                return {};
            }
            v = static_cast<double>(s.i);
            break;
        case Slot::unsigned_big:
            return "\"" + std::string(field) + "\" out of range";
        case Slot::real:
            v = s.d;
            break;
        case Slot::string: {
            // Some tools quote numbers ("size": "4").
            char* end = nullptr;
            v = std::strtod(s.s.c_str(), &end);
            if (s.s.empty() || *end != '\0') return "expected a number for \"" + std::string(field) + "\"";
            break;
        }
        case Slot::none:
        case Slot::null:
            return "missing \"" + std::string(field) + "\"";
        default:
            return "expected a number for \"" + std::string(field) + "\"";
    }
    if (!std::isfinite(v)) return "\"" + std::string(field) + "\" is not a finite number";
    v *= scale;
    if (v < 0 && !allow_negative) return "negative \"" + std::string(field) + "\"";
    if (std::fabs(v) > kMaxNs) return "\"" + std::string(field) + "\" out of range";
    out = std::llround(v);
    return {};
}

std::string slot_to_double(const Slot& s, std::string_view field, double& out) {
    if (s.kind == Slot::string) {
        char* end = nullptr;
        out = std::strtod(s.s.c_str(), &end);
        if (s.s.empty() || *end != '\0') return "expected a number for \"" + std::string(field) + "\"";
    } else if (s.is_number()) {
        out = s.d;
    } else if (!s.present()) {
        return "missing \"" + std::string(field) + "\"";
    } else {
        return "expected a number for \"" + std::string(field) + "\"";
    }
    if (!std::isfinite(out)) return "\"" + std::string(field) + "\" is not a finite number";
    return {};
}

bool decimal_us_to_ns(std::string_view t, int64_t& out) {
    bool neg = !t.empty() && t[0] == '-';
    if (neg) t.remove_prefix(1);
    size_t dot = t.find('.');
    std::string_view whole = t.substr(0, dot);
    std::string_view frac = dot == std::string_view::npos ? std::string_view() : t.substr(dot + 1);
    if (whole.empty() || whole.size() > 16) return false;
    __int128 ns = 0;  // 16 digits of µs and 3 more: beyond int64 until checked
    for (char c : whole) {
        if (c < '0' || c > '9') return false;
        ns = ns * 10 + (c - '0');
    }
    for (size_t i = 0; i < 3; ++i) {
        char c = i < frac.size() ? frac[i] : '0';
        if (c < '0' || c > '9') return false;
        ns = ns * 10 + (c - '0');
    }
    for (size_t i = 3; i < frac.size(); ++i)
        if (frac[i] < '0' || frac[i] > '9') return false;
    if (frac.size() > 3 && frac[3] >= '5') ++ns;  // half up, on the magnitude
    if (ns > static_cast<__int128>(kMaxNs)) return false;
    out = static_cast<int64_t>(neg ? -ns : ns);
    return true;
}

std::string slot_us_to_ns(const Slot& s, std::string_view field, int64_t& out, bool allow_negative) {
    if ((s.kind == Slot::real || s.kind == Slot::integer) && !s.s.empty()) {
        int64_t v = 0;
        if (decimal_us_to_ns(s.s, v)) {
            if (v < 0 && !allow_negative) return "negative \"" + std::string(field) + "\"";
            out = v;
            return {};
        }
    }
    return slot_to_int(s, field, out, allow_negative, 1000.0);
}

std::string_view slot_text(const Slot& s, std::string& scratch) {
    switch (s.kind) {
        case Slot::string:
            return s.s;
        case Slot::integer:
            scratch = std::to_string(s.i);
            return scratch;
        case Slot::unsigned_big:
            scratch = std::to_string(s.u);
            return scratch;
        case Slot::real: {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.17g", s.d);
            scratch = buf;
            return scratch;
        }
        case Slot::boolean:
            return s.b ? "true" : "false";
        case Slot::json:
            return s.s;
        default:
            return {};
    }
}

}  // namespace nx
