// How the Parquet writer's buffered rows become the file: a lane's page of a
// column encoded into the lane's pages of the chunk, every lane's pages
// gathered into column chunks (a dictionary page first) and written as a row
// group, and at the end the footer that describes them.
#pragma once

#include <cstdint>
#include <vector>

#include "common/parquet/writer_state.h"

namespace nx::parquet {

// Encodes a lane's page of one column into the lane's pages of the chunk and
// clears the page (nothing when it is empty).
void flush_page(ParquetWriter::State& s, const WriterColumn& col, ChunkState& chunk, PageValues& page);
// Encodes every page a lane is filling (a row group ends, or the lanes'
// pages hold too much).
void flush_lane_pages(ParquetWriter::State& s, const std::vector<WriterColumn>& columns, Lane& lane);
// Writes the buffered rows, every lane's, as one row group and empties the
// buffers.
void flush_group(ParquetWriter::State& s, const std::vector<WriterColumn>& columns);
// The footer of `rows` rows in the row groups written, its length and the
// closing magic.
void write_file_footer(ParquetWriter::State& s, const std::vector<WriterColumn>& columns, int64_t rows);

}  // namespace nx::parquet
