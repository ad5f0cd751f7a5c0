// Numbers as people read them in reports: durations, sizes, rates, percents.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nx {

std::string format_ns(double ns);          // "148 ns", "12.3 us", "4.56 ms", "1.23 s"
std::string format_seconds(double s);      // same scale, from seconds
std::string format_bytes(double bytes);    // "512 B", "32.0 KiB", "1.50 MiB", "2.00 GiB"
std::string format_percent(double p);      // "45.2%"
std::string format_count(double n);        // "1,234,567"
std::string format_value(double v);       // 4 significant digits, no exponent below 1e6
std::string format_ratio(double r);        // "1.52x"
// A size as people write it: "4G", "500M", "64k", "1048576" (bytes), the
// letters K, M, G, T as powers of 1024, any case, an optional "B" or "iB"
// after; none for anything else or a negative or overflowing size.
std::optional<int64_t> parse_byte_size(std::string_view text);
// A metric value in its unit ("s" -> duration, "bytes" -> size ...).
std::string format_metric(double v, const std::string& unit);

}  // namespace nx
