// The encodings a self-contained page needs: base64 for data: URIs (the
// heat maps' images), and the SHA-256 of an inline script as a
// Content-Security-Policy names it ('sha256-<base64>'), so the page runs
// its own script and nothing else.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace nx {

// RFC 4648 base64, padded.
std::string base64(std::string_view bytes);

// FIPS 180-4 SHA-256 of `bytes`.
std::array<uint8_t, 32> sha256(std::string_view bytes);

// "'sha256-...'": the CSP source expression that allows exactly this script.
std::string csp_script_hash(std::string_view script);

}  // namespace nx
