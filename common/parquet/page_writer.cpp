#include "common/parquet/page_writer.h"

#include <snappy-c.h>

#include "common/io/error.h"
#include "common/parquet/bytes.h"

namespace nx::parquet {

std::string_view PageWriter::compress(const std::vector<uint8_t>& in) {
    auto room = [&](size_t bound) {
        if (compressed_.size() < bound) compressed_.resize(bound);
    };
    switch (codec_) {
        case Codec::uncompressed: return {reinterpret_cast<const char*>(in.data()), in.size()};
        case Codec::snappy: {
            size_t len = snappy_max_compressed_length(in.size());
            room(len);
            if (snappy_compress(reinterpret_cast<const char*>(in.data()), in.size(),
                                reinterpret_cast<char*>(compressed_.data()), &len) != SNAPPY_OK)
                throw Error("snappy could not compress a page", path_);
            return {reinterpret_cast<const char*>(compressed_.data()), len};
        }
        case Codec::zstd: {
            if (!zstd_ && !(zstd_.reset(ZSTD_createCCtx()), zstd_))
                throw Error("zstd could not make a compression context", path_);
            size_t bound = ZSTD_compressBound(in.size());
            room(bound);
            size_t n = ZSTD_compressCCtx(zstd_.get(), compressed_.data(), bound, in.data(), in.size(), zstd_level_);
            if (ZSTD_isError(n)) throw Error(std::string("zstd: ") + ZSTD_getErrorName(n), path_);
            return {reinterpret_cast<const char*>(compressed_.data()), n};
        }
        default: throw Error("the Parquet writer writes zstd, snappy or uncompressed pages", path_);
    }
}

std::pair<int64_t, int64_t> PageWriter::write(PageType type, const std::vector<uint8_t>& body, int32_t num_values,
                                              Encoding encoding, std::vector<uint8_t>& to) {
    std::string_view stored = compress(body);
    PageHeader h;
    h.type = type;
    h.uncompressed_page_size = static_cast<int32_t>(body.size());
    h.compressed_page_size = static_cast<int32_t>(stored.size());
    if (type == PageType::dictionary) h.dictionary = DictionaryPageHeader{num_values, Encoding::plain};
    else h.data = DataPageHeader{num_values, encoding, Encoding::rle, Encoding::rle};
    const std::vector<uint8_t> header = encode_page_header(h);
    to.insert(to.end(), header.begin(), header.end());
    append_bytes(to, stored);
    return {static_cast<int64_t>(header.size() + body.size()), static_cast<int64_t>(header.size() + stored.size())};
}

}  // namespace nx::parquet
