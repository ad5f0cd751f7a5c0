// Whole numbers read from text: a JSON field's value (json_field), a Parquet
// string column, a path's or a plan's field.  One reading everywhere: the
// whole text is the number, or there is none.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace nx {

// `text` as a decimal int64 (an optional leading '-'); none when it is
// empty, has anything else in it, or does not fit.
std::optional<int64_t> parse_int64(std::string_view text);

}  // namespace nx
