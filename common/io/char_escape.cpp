// Escaping text one character at a time from a table (char_escape.h).
#include "common/io/char_escape.h"

#include <algorithm>

namespace nx {

std::string escape_chars(std::string_view text, std::initializer_list<CharEscape> escapes) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        auto hit = std::find_if(escapes.begin(), escapes.end(), [c](const CharEscape& e) { return e.from == c; });
        if (hit != escapes.end()) out += hit->to;
        else out += c;
    }
    return out;
}

}  // namespace nx
