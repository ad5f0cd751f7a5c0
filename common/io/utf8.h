// UTF-8 validation for strings taken from untrusted inputs.  Every JSON string
// nx keeps goes through this, so it is fast for the common all-ASCII case.
#pragma once

#include <string>
#include <string_view>

namespace nx {

bool is_valid_utf8(std::string_view s);

// Copy of s with every invalid byte sequence replaced by U+FFFD.
std::string sanitize_utf8(std::string_view s);

// Bytes as lowercase hex ("\x01\xff" -> "01ff"): how binary values that are
// not text are shown in JSON.
std::string hex_bytes(std::string_view bytes);

}  // namespace nx
