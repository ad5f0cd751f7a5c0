#include "common/parquet/row_group_writer.h"

#include <string>

#include "common/parquet/bytes.h"
#include "common/parquet/value_types.h"

namespace nx::parquet {

void flush_page(ParquetWriter::State& s, const WriterColumn& col, ChunkState& chunk, PageValues& page) {
    const size_t rows = page.defined.size();
    if (rows == 0) return;
    const Encoding encoding = encode_data_page(col, chunk, page, s.scratch, s.body);
    if (encoding == Encoding::plain) chunk.plain_pages = true;
    if (encoding == Encoding::delta_binary_packed) chunk.delta_pages = true;
    auto [u, c] = s.page_writer->write(PageType::data, s.body, static_cast<int32_t>(rows), encoding, page.pages);
    chunk.uncompressed += u;
    chunk.compressed += c;
    s.group_bytes += c;
    page.rows += static_cast<int64_t>(rows);
    page.clear_page();
}

void flush_lane_pages(ParquetWriter::State& s, const std::vector<WriterColumn>& columns, Lane& lane) {
    for (size_t c = 0; c < columns.size(); ++c) flush_page(s, columns[c], s.chunks[c], lane.columns[c]);
    lane.raw_bytes = 0;
    lane.page_rows = 0;
}

namespace {

// The encodings a chunk's pages use, as ColumnMetaData lists them: the
// dictionary page's PLAIN and its indices', or PLAIN values; RLE levels;
// DELTA_BINARY_PACKED values.
std::vector<Encoding> chunk_encodings(const ChunkState& state) {
    std::vector<Encoding> encodings;
    if (!state.dictionary.empty()) encodings = {Encoding::plain, Encoding::rle_dictionary};
    else if (state.plain_pages) encodings = {Encoding::plain};
    encodings.push_back(Encoding::rle);
    if (state.delta_pages) encodings.push_back(Encoding::delta_binary_packed);
    return encodings;
}

// Writes a column's chunk: its dictionary page, if any, then its data pages
// (`rows` values), and says so in `chunk`.
void write_chunk(ParquetWriter::State& s, size_t column, const WriterColumn& col, const std::vector<uint8_t>& pages,
                 int64_t rows, ColumnChunk& chunk) {
    ChunkState& state = s.chunks[column];
    std::vector<uint8_t> empty_page;
    if (rows == 0 && pages.empty()) {
        // An empty table: one empty page, so every reader sees the column.
        auto [u, c] = s.page_writer->write(PageType::data, col.nullable ? std::vector<uint8_t>{0, 0, 0, 0} : std::vector<uint8_t>{},
                                           0, Encoding::plain, empty_page);
        state.uncompressed += u;
        state.compressed += c;
        state.plain_pages = true;
    }
    ColumnMetaData& m = chunk.meta.emplace();
    m.type = info(col.type).physical;
    m.path = {col.name};
    m.codec = s.options.codec;
    m.num_values = rows;
    m.total_uncompressed_size = state.uncompressed;
    m.total_compressed_size = state.compressed;
    m.encodings = chunk_encodings(state);
    state.stats.fill(m);
    chunk.file_offset = s.offset;
    if (!state.dictionary.empty()) {
        std::vector<uint8_t> dict_page;
        auto [u, c] = s.page_writer->write(PageType::dictionary, state.dictionary.page_body(),
                                           static_cast<int32_t>(state.dictionary.size()), Encoding::plain, dict_page);
        m.dictionary_page_offset = s.offset;
        s.write(dict_page.data(), dict_page.size());
        m.total_uncompressed_size += u;
        m.total_compressed_size += c;
    }
    m.data_page_offset = s.offset;
    s.write(empty_page.data(), empty_page.size());
    s.write(pages.data(), pages.size());
    state.clear();
}

// One column's data pages of the row group, lane by lane: each lane's
// encoded pages, then its page being filled.  Pages being filled are
// encoded together while no encoded pages come between them (lanes of a few
// rows each, a profile's many small tracks, make a page, not a page each).
void gather_pages(ParquetWriter::State& s, size_t column, const WriterColumn& col, std::vector<uint8_t>& pages,
                  int64_t& rows) {
    rows = 0;
    PageValues& merged = s.merged;
    auto flush_merged = [&] {
        if (merged.page_empty()) return;
        flush_page(s, col, s.chunks[column], merged);
        pages.insert(pages.end(), merged.pages.begin(), merged.pages.end());
        merged.pages.clear();
    };
    for (const auto& lane : s.lanes) {
        if (!lane) continue;
        PageValues& buf = lane->columns[column];
        if (buf.rows > 0) {
            flush_merged();
            pages.insert(pages.end(), buf.pages.begin(), buf.pages.end());
            rows += buf.rows;
            buf.pages.clear();
            // Many lanes would each keep their largest chunk's memory.
            if (s.lanes.size() > 1) buf.pages.shrink_to_fit();
            buf.rows = 0;
        }
        merged.append_page(buf);
        buf.clear_page();
        if (static_cast<int64_t>(merged.defined.size()) >= s.options.page_values ||
            static_cast<int64_t>(merged.arena.size()) >= s.options.page_bytes)
            flush_merged();
    }
    flush_merged();
    rows += merged.rows;
    merged.rows = 0;
}

}  // namespace

void flush_group(ParquetWriter::State& s, const std::vector<WriterColumn>& columns) {
    RowGroup g;
    g.num_rows = s.group_rows;
    g.file_offset = s.offset;
    if (!s.group_unsorted)
        for (size_t c : s.options.sorted_by) g.sorted_by.push_back(static_cast<int32_t>(c));
    g.columns.resize(columns.size());
    int64_t compressed = 0;
    std::vector<uint8_t> pages;
    for (size_t c = 0; c < columns.size(); ++c) {
        pages.clear();
        int64_t rows = 0;
        gather_pages(s, c, columns[c], pages, rows);
        write_chunk(s, c, columns[c], pages, rows, g.columns[c]);
        g.total_byte_size += g.columns[c].meta->total_uncompressed_size;
        compressed += g.columns[c].meta->total_compressed_size;
    }
    g.total_compressed_size = compressed;
    for (const auto& lane : s.lanes)
        if (lane) lane->raw_bytes = lane->page_rows = 0;
    s.groups.push_back(std::move(g));
    s.group_rows = 0;
    s.group_bytes = 0;
    s.group_unsorted = false;
}

void write_file_footer(ParquetWriter::State& s, const std::vector<WriterColumn>& columns, int64_t rows) {
    FileMetaData f;
    f.version = 1;
    SchemaElement& root = f.schema.emplace_back();
    root.name = "schema";
    root.num_children = static_cast<int32_t>(columns.size());
    for (const WriterColumn& c : columns) {
        SchemaElement& e = f.schema.emplace_back();
        e.type = info(c.type).physical;
        e.repetition = c.nullable ? Repetition::optional : Repetition::required;
        e.name = c.name;
        e.converted_type = info(c.type).converted_type();
        e.logical_string = info(c.type).utf8;
    }
    f.num_rows = rows;
    f.row_groups = std::move(s.groups);
    f.key_value = s.options.key_value;
    f.created_by = s.options.created_by;
    // Min/max are compared as each type orders.
    f.column_orders.assign(columns.size(), ColumnOrder::type_order);
    const std::vector<uint8_t> footer = encode_file_metadata(f);
    s.groups = std::move(f.row_groups);
    s.write(footer.data(), footer.size());
    std::vector<uint8_t> tail;
    put_le(tail, footer.size(), 4);
    s.write(tail.data(), tail.size());
    s.write("PAR1", 4);
}

}  // namespace nx::parquet
