#include "common/format/units.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace nx {

namespace {
std::string printf_string(const char* fmt, double v, const char* suffix) {
    char buf[48];
    std::snprintf(buf, sizeof buf, fmt, v, suffix);
    return buf;
}
}  // namespace

std::string format_ns(double ns) {
    if (!std::isfinite(ns)) return "n/a";
    double a = std::fabs(ns);
    if (a < 1e3) return printf_string("%.0f%s", ns, " ns");
    if (a < 1e6) return printf_string("%.3g%s", ns / 1e3, " us");
    if (a < 1e9) return printf_string("%.3g%s", ns / 1e6, " ms");
    return printf_string("%.3g%s", ns / 1e9, " s");
}

std::string format_seconds(double s) { return format_ns(s * 1e9); }

std::string format_bytes(double b) {
    if (!std::isfinite(b)) return "n/a";
    double a = std::fabs(b);
    if (a < 1024) return printf_string("%.0f%s", b, " B");
    if (a < 1024.0 * 1024) return printf_string("%.1f%s", b / 1024, " KiB");
    if (a < 1024.0 * 1024 * 1024) return printf_string("%.2f%s", b / (1024.0 * 1024), " MiB");
    return printf_string("%.2f%s", b / (1024.0 * 1024 * 1024), " GiB");
}

std::string format_percent(double p) {
    if (!std::isfinite(p)) return "n/a";
    return printf_string(std::fabs(p) < 10 ? "%.2f%s" : "%.1f%s", p, "%");
}

std::string format_count(double n) {
    if (!std::isfinite(n)) return "n/a";
    long long v = std::llround(n);
    std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return v < 0 ? "-" + out : out;
}

std::string format_value(double v) {
    if (!std::isfinite(v)) return "n/a";
    double a = std::fabs(v);
    if (v == std::floor(v) && a < 1e15) return format_count(v);
    if (a >= 1e6 || (a > 0 && a < 1e-3)) return printf_string("%.3e%s", v, "");
    return printf_string("%.4g%s", v, "");
}

std::string format_ratio(double r) {
    if (!std::isfinite(r)) return "n/a";
    return printf_string("%.3gx%s", r, "");
}

std::string format_metric(double v, const std::string& unit) {
    if (unit == "s") return format_seconds(v);
    if (unit == "bytes") return format_bytes(v);
    if (unit == "bytes/s") return printf_string("%.4g%s", v / 1e9, " GB/s");  // bandwidths in decimal GB/s, as AWS quotes them
    if (unit == "%") return format_percent(v);
    if (unit == "count") return format_count(v);
    if (unit == "flop" || unit == "flop/s") return format_value(v);
    return format_value(v);
}

std::optional<int64_t> parse_byte_size(std::string_view text) {
    size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == 0 || digits > 18) return std::nullopt;
    int64_t n = 0;
    for (size_t i = 0; i < digits; ++i) n = n * 10 + (text[i] - '0');
    std::string unit;
    for (char c : text.substr(digits)) unit += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    int shift = 0;
    if (!unit.empty() && std::string_view("KMGT").find(unit[0]) != std::string_view::npos) {
        shift = 10 * (1 + static_cast<int>(std::string_view("KMGT").find(unit[0])));
        unit.erase(0, 1);
        if (unit == "IB") unit = "B";
    }
    if (!unit.empty() && unit != "B") return std::nullopt;
    if (shift && n > (INT64_MAX >> shift)) return std::nullopt;
    return n << shift;
}

}  // namespace nx
