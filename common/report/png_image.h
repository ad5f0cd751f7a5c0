// A palette image as PNG bytes (zlib's deflate, no other library), for
// pictures a page draws as one image rather than thousands of shapes: a
// heat map of a thousand ranks is one pixel a cell, shown scaled.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace nx {

struct PaletteImage {
    int width = 0, height = 0;
    std::vector<uint8_t> pixels;                  // width x height palette indices, by row
    std::vector<std::array<uint8_t, 3>> palette;  // RGB, at most 256
};

// The PNG file (colour type 3, 8 bits a pixel).  Throws Error for an image
// whose pixels or palette do not match its size.
std::string png_bytes(const PaletteImage& image);

// "data:image/png;base64,...": the image inline in a page.
std::string png_data_uri(const PaletteImage& image);

}  // namespace nx
