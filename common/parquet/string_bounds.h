// Bounded string statistics: what a Parquet writer keeps of a column's
// longest values as min/max.  A value past kStatBytes is cut at a UTF-8
// character boundary: the cut itself bounds it from below, and the cut with
// its last character raised by one bounds it from above (as parquet-mr and
// arrow-rs truncate theirs); the footer then marks the bound inexact
// (Statistics.is_min_value_exact / is_max_value_exact), so readers prune on
// it and never take it for a value.  One 63 MiB string cost its whole length
// in the footer, and its file's every reader the same in memory.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace nx::parquet {

inline constexpr size_t kStatBytes = 64;

// The longest prefix of `s` of at most `limit` bytes that ends on a UTF-8
// character boundary (`s` itself when it fits).
std::string_view utf8_prefix(std::string_view s, size_t limit = kStatBytes);
// A string of at most `limit` bytes that is >= `s` in byte order: `s` when it
// fits, else its prefix with the last character raised (a character that
// cannot be raised is dropped and the one before it raised); none when no
// such string exists (every character is U+10FFFF or 0xFF bytes).
std::optional<std::string> upper_bound_of(std::string_view s, size_t limit = kStatBytes);

// A column chunk's running min and max, each kept within kStatBytes.
struct StringBounds {
    bool any = false;
    std::string min, max;
    bool min_exact = true, max_exact = true;
    bool has_max = true;  // false: no bounded upper bound exists
    void add(std::string_view x);
};

}  // namespace nx::parquet
