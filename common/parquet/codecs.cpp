#include "common/parquet/codecs.h"

#include <brotli/decode.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <climits>
#include <cstring>
#include <string>

namespace nx::parquet {

namespace {

[[noreturn]] void fail(Codec c, const std::string& what) {
    throw CodecError(to_string(c) + " page does not decompress: " + what);
}

void check_size(Codec c, size_t got, size_t expected) {
    if (got != expected)
        fail(c, "gives " + std::to_string(got) + " bytes where the page header says " + std::to_string(expected));
}

void gunzip(const uint8_t* data, size_t size, uint8_t* out, size_t out_size) {
    // A gzip stream may hold several members; read them all.
    size_t produced = 0;
    size_t pos = 0;
    while (pos < size) {
        z_stream zs{};
        if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) fail(Codec::gzip, "zlib cannot start");
        zs.next_in = const_cast<Bytef*>(data + pos);
        zs.avail_in = static_cast<uInt>(std::min<size_t>(size - pos, UINT_MAX));
        zs.next_out = out + produced;
        zs.avail_out = static_cast<uInt>(out_size - produced);
        int rc = inflate(&zs, Z_FINISH);
        size_t in_used = zs.total_in, out_made = zs.total_out;
        inflateEnd(&zs);
        if (rc != Z_STREAM_END) {
            if (rc == Z_BUF_ERROR && zs.avail_out == 0) fail(Codec::gzip, "more data than the page header says");
            fail(Codec::gzip, zs.msg ? zs.msg : "corrupt or cut short");
        }
        produced += out_made;
        pos += in_used;
        if (in_used == 0) break;
    }
    check_size(Codec::gzip, produced, out_size);
}

// LZ4 as older writers framed it (Hadoop: big-endian sizes before each
// block).  Some writers used the LZ4 frame format or a bare block under this
// codec id; arrow's readers accept all three, so nx does too.
bool lz4_hadoop(const uint8_t* data, size_t size, uint8_t* out, size_t out_size) {
    size_t pos = 0, produced = 0;
    auto be32 = [&](size_t at) {
        return (uint32_t(data[at]) << 24) | (uint32_t(data[at + 1]) << 16) | (uint32_t(data[at + 2]) << 8) | data[at + 3];
    };
    while (pos < size) {
        if (size - pos < 8) return false;
        uint32_t raw = be32(pos), comp = be32(pos + 4);
        pos += 8;
        if (comp > size - pos || raw > out_size - produced) return false;
        int n = LZ4_decompress_safe(reinterpret_cast<const char*>(data + pos), reinterpret_cast<char*>(out + produced),
                                    static_cast<int>(comp), static_cast<int>(raw));
        if (n < 0 || static_cast<uint32_t>(n) != raw) return false;
        pos += comp;
        produced += raw;
    }
    return produced == out_size;
}

bool lz4_frame(const uint8_t* data, size_t size, uint8_t* out, size_t out_size) {
    LZ4F_dctx* ctx = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) return false;
    size_t pos = 0, produced = 0;
    bool ok = true;
    while (pos < size) {
        size_t src = size - pos, dst = out_size - produced;
        size_t rc = LZ4F_decompress(ctx, out + produced, &dst, data + pos, &src, nullptr);
        if (LZ4F_isError(rc) || (src == 0 && dst == 0)) { ok = false; break; }
        pos += src;
        produced += dst;
        if (rc == 0) break;
    }
    LZ4F_freeDecompressionContext(ctx);
    return ok && pos == size && produced == out_size;
}

bool lz4_block(const uint8_t* data, size_t size, uint8_t* out, size_t out_size) {
    if (size > INT_MAX || out_size > INT_MAX) return false;
    int n = LZ4_decompress_safe(reinterpret_cast<const char*>(data), reinterpret_cast<char*>(out),
                                static_cast<int>(size), static_cast<int>(out_size));
    return n >= 0 && static_cast<size_t>(n) == out_size;
}

}  // namespace

void decompress(Codec codec, const uint8_t* data, size_t size, uint8_t* out, size_t expected) {
    const size_t out_size = expected;
    switch (codec) {
        case Codec::uncompressed:
            check_size(codec, size, expected);
            if (size > 0) std::memcpy(out, data, size);
            return;
        case Codec::snappy: {
            size_t len = 0;
            if (snappy_uncompressed_length(reinterpret_cast<const char*>(data), size, &len) != SNAPPY_OK)
                fail(codec, "corrupt header");
            check_size(codec, len, expected);
            if (snappy_uncompress(reinterpret_cast<const char*>(data), size, reinterpret_cast<char*>(out), &len) !=
                SNAPPY_OK)
                fail(codec, "corrupt data");
            check_size(codec, len, expected);
            return;
        }
        case Codec::gzip: gunzip(data, size, out, out_size); return;
        case Codec::zstd: {
            size_t n = ZSTD_decompress(out, out_size, data, size);
            if (ZSTD_isError(n)) fail(codec, ZSTD_getErrorName(n));
            check_size(codec, n, expected);
            return;
        }
        case Codec::lz4_raw:
            if (!lz4_block(data, size, out, out_size)) fail(codec, "corrupt block or wrong size");
            return;
        case Codec::lz4:
            if (lz4_hadoop(data, size, out, out_size) || lz4_frame(data, size, out, out_size) || lz4_block(data, size, out, out_size)) return;
            fail(codec, "neither Hadoop-framed, frame nor block LZ4 of the page's size");
        case Codec::brotli: {
            size_t n = out_size;
            if (BrotliDecoderDecompress(size, data, &n, out) != BROTLI_DECODER_RESULT_SUCCESS)
                fail(codec, "corrupt data or more than the page header says");
            check_size(codec, n, expected);
            return;
        }
        case Codec::lzo: throw CodecError("LZO compression is not supported (no writer in use today makes it)");
    }
    throw CodecError("unknown compression codec " + std::to_string(static_cast<int>(codec)));
}

}  // namespace nx::parquet
