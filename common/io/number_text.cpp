// parse_int64 (number_text.h).
#include "common/io/number_text.h"

#include <charconv>

namespace nx {

std::optional<int64_t> parse_int64(std::string_view text) {
    int64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

}  // namespace nx
