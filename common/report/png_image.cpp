#include "common/report/png_image.h"

#include <zlib.h>

#include "common/io/error.h"
#include "common/report/web_encoding.h"

namespace nx {

namespace {

void put_u32(std::string& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xFF);
}

// A chunk: length, type, data, CRC of type and data.
void put_chunk(std::string& out, const char* type, const std::string& data) {
    put_u32(out, static_cast<uint32_t>(data.size()));
    std::string typed = std::string(type, 4) + data;
    out += typed;
    put_u32(out, static_cast<uint32_t>(
                     crc32(0, reinterpret_cast<const Bytef*>(typed.data()), static_cast<uInt>(typed.size()))));
}

}  // namespace

std::string png_bytes(const PaletteImage& image) {
    const size_t w = static_cast<size_t>(image.width), h = static_cast<size_t>(image.height);
    if (image.width < 1 || image.height < 1 || image.pixels.size() != w * h || image.palette.empty() ||
        image.palette.size() > 256)
        throw Error("png: " + std::to_string(image.width) + "x" + std::to_string(image.height) + " image with " +
                    std::to_string(image.pixels.size()) + " pixels and " + std::to_string(image.palette.size()) +
                    " colours");
    for (uint8_t p : image.pixels)
        if (p >= image.palette.size()) throw Error("png: a pixel names colour " + std::to_string(p) + " of " +
                                                   std::to_string(image.palette.size()));
    std::string out = "\x89PNG\r\n\x1a\n";
    std::string header;
    put_u32(header, static_cast<uint32_t>(w));
    put_u32(header, static_cast<uint32_t>(h));
    header += std::string("\x08\x03\x00\x00\x00", 5);  // 8 bits, palette, deflate, filter 0, no interlace
    put_chunk(out, "IHDR", header);
    std::string palette;
    for (const auto& rgb : image.palette)
        for (uint8_t c : rgb) palette += static_cast<char>(c);
    put_chunk(out, "PLTE", palette);
    // Each row: filter type 0 (none), then its indices.
    std::string raw;
    raw.reserve(h * (w + 1));
    for (size_t y = 0; y < h; ++y) {
        raw += '\0';
        raw.append(reinterpret_cast<const char*>(image.pixels.data()) + y * w, w);
    }
    uLongf packed_size = compressBound(static_cast<uLong>(raw.size()));
    std::string packed(packed_size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size, reinterpret_cast<const Bytef*>(raw.data()),
                  static_cast<uLong>(raw.size()), Z_BEST_COMPRESSION) != Z_OK)
        throw Error("png: deflate failed");
    packed.resize(packed_size);
    put_chunk(out, "IDAT", packed);
    put_chunk(out, "IEND", "");
    return out;
}

std::string png_data_uri(const PaletteImage& image) { return "data:image/png;base64," + base64(png_bytes(image)); }

}  // namespace nx
