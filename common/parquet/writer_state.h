// The state of a ParquetWriter between rows: the file and where it stands,
// each lane's pages being filled, each column's chunk of the row group being
// written, the row groups written so far (the footer to be) and the memory
// bounds' bookkeeping.  Shared by the writer's row APIs (parquet_writer.cpp)
// and its row group writing (row_group_writer.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/io/atomic_file.h"
#include "common/parquet/column_encoders.h"
#include "common/parquet/file_metadata.h"
#include "common/parquet/page_values.h"
#include "common/parquet/page_writer.h"
#include "common/parquet/parquet_writer.h"

namespace nx::parquet {

// Rows that fill the row group side by side with other lanes' (see
// ParquetWriter::lane): a page of each column.
struct Lane {
    std::vector<PageValues> columns;
    int64_t page_rows = 0;
    int64_t raw_bytes = 0;  // of the values in its pages being filled
    int64_t held = 0;       // the most raw_bytes since its memory was last freed: what its pages' vectors hold

    // Frees the pages' memory (their vectors keep what they once held).
    void release() {
        for (PageValues& b : columns) {
            PageValues fresh;
            fresh.pages = std::move(b.pages);
            fresh.rows = b.rows;
            b = std::move(fresh);
        }
        held = raw_bytes = page_rows = 0;
    }
};

struct ParquetWriter::State {
    WriterOptions options;
    std::unique_ptr<AtomicFile> file;
    std::optional<PageWriter> page_writer;     // made with the file
    int64_t offset = 0;                        // bytes written
    std::vector<ChunkState> chunks;            // one per column
    std::vector<std::unique_ptr<Lane>> lanes;  // each made when first used
    PageValues merged;                         // lanes' pages being filled, encoded together (gather_pages)
    Lane* lane = nullptr;                      // the one rows go to
    std::vector<RowGroup> groups;              // written so far, as the footer says them
    int64_t group_rows = 0;
    int64_t group_bytes = 0;  // the compressed pages held for this row group
    int64_t held = 0;         // every lane's Lane::held
    int64_t row_bytes = 0;    // a row's fixed-width values and definition levels
    bool group_unsorted = false;
    std::vector<uint8_t> body;  // the page being encoded
    EncoderScratch scratch;
    std::vector<size_t> required, strings;  // which columns end_row checks
    bool committed = false;

    void write(const void* data, size_t n) {
        file->out().write(std::string_view(static_cast<const char*>(data), n));
        offset += static_cast<int64_t>(n);
    }
};

}  // namespace nx::parquet
