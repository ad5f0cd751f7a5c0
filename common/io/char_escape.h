// Escaping text one character at a time: each text format (XML, markdown
// table cells, tab-separated fields) names the characters it replaces and
// what replaces them in a small table; every other character is kept.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace nx {

// One character a format replaces, and its replacement.
struct CharEscape {
    char from;
    std::string_view to;
};

// text with each character found in escapes replaced by its replacement.
std::string escape_chars(std::string_view text, std::initializer_list<CharEscape> escapes);

}  // namespace nx
