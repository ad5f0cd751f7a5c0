// A data page's body as the Parquet writer encodes it: the definition levels
// (RLE, for a nullable column), then the values by an encoder per type
// family, each updating the chunk's statistics as it goes:
//   numbers   PLAIN, or DELTA_BINARY_PACKED for an integer column asked to
//   booleans  PLAIN (bits)
//   strings   RLE_DICTIONARY indices into the chunk's dictionary while it
//             pays and fits, else PLAIN (string_dictionary.h)
#pragma once

#include <cstdint>
#include <vector>

#include "common/parquet/column_statistics.h"
#include "common/parquet/file_metadata.h"
#include "common/parquet/page_values.h"
#include "common/parquet/parquet_writer.h"
#include "common/parquet/string_dictionary.h"

namespace nx::parquet {

// One column's chunk of the row group being written, whatever lanes its
// pages come from: what the footer will say of it, and its dictionary.
struct ChunkState {
    int64_t uncompressed = 0, compressed = 0;
    ColumnStatistics stats;
    bool plain_pages = false;  // a page PLAIN-encoded
    bool delta_pages = false;  // a page DELTA_BINARY_PACKED
    StringDictionary dictionary;

    void clear() {
        uncompressed = compressed = 0;
        stats = {};
        plain_pages = delta_pages = false;
        dictionary.clear();
    }
};

// Buffers the encoders reuse from page to page.
struct EncoderScratch {
    std::vector<uint8_t> levels;
    std::vector<uint32_t> literals, indices;  // the RLE hybrid's
};

// `page`'s rows of `column` as a data page body into `body` (cleared first);
// returns the values' encoding.
Encoding encode_data_page(const WriterColumn& column, ChunkState& chunk, const PageValues& page, EncoderScratch& scratch,
                          std::vector<uint8_t>& body);

}  // namespace nx::parquet
