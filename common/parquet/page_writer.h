// A page as a Parquet file holds it: its body compressed with the file's
// codec (ZSTD, Snappy or none, through the Debian libraries) and its
// PageHeader before it.  The writer's one compression context and
// compression buffer live here, reused by every page.
#pragma once

#include <zstd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/parquet/file_metadata.h"

namespace nx::parquet {

class PageWriter {
public:
    // `path`: the file, for messages.
    PageWriter(Codec codec, int zstd_level, std::string path)
        : codec_(codec), zstd_level_(zstd_level), path_(std::move(path)) {}

    // One page, header and compressed body, appended to `to`; returns the
    // header's and body's sizes (uncompressed, compressed).  A dictionary
    // page's entries are PLAIN; a data page's levels RLE.
    std::pair<int64_t, int64_t> write(PageType type, const std::vector<uint8_t>& body, int32_t num_values,
                                      Encoding encoding, std::vector<uint8_t>& to);

private:
    // The page body as the file holds it: `in` itself when uncompressed,
    // else compressed_'s first bytes.
    std::string_view compress(const std::vector<uint8_t>& in);

    Codec codec_;
    int zstd_level_;
    std::string path_;
    // compressed_ only grows: sizing it for each page would zero-fill the
    // codec's bound every time.
    std::vector<uint8_t> compressed_;
    // One zstd context for every page: ZSTD_compress makes and frees one per
    // call, and setting up its tables cost as much as compressing a small page.
    struct FreeZstd {
        void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
    };
    std::unique_ptr<ZSTD_CCtx, FreeZstd> zstd_;
};

}  // namespace nx::parquet
