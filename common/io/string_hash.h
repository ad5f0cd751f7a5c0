// StringHash: the hash of an unordered container keyed by std::string that
// finds a key from a std::string_view without building a std::string (with
// std::equal_to<>, C++20's heterogeneous lookup): a name read from a source
// is looked up as it lies in the parser's buffer.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace nx {

struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

}  // namespace nx
