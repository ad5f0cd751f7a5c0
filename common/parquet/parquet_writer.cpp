#include "common/parquet/parquet_writer.h"

#include <snappy-c.h>
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "common/io/atomic_file.h"
#include "common/io/error.h"
#include "common/io/string_hash.h"
#include "common/parquet/page_encoders.h"
#include "common/parquet/string_bounds.h"
#include "common/parquet/thrift_writer.h"

namespace nx::parquet {

namespace {

// A string column's chunk is dictionary-encoded when its distinct values are
// few enough to pay: at most this many, in at most this many bytes.
constexpr size_t kMaxDictionaryEntries = 1 << 16;
constexpr size_t kMaxDictionaryBytes = 4 << 20;
// Thrift ids of the format specification's structures (parquet.thrift).
constexpr int32_t kUtf8 = 0;         // ConvertedType UTF8
constexpr int16_t kStringLogical = 1;  // LogicalType.STRING

PhysicalType physical(ValueType t) {
    switch (t) {
        case ValueType::int64: return PhysicalType::int64;
        case ValueType::int32: return PhysicalType::int32;
        case ValueType::float64: return PhysicalType::float64;
        case ValueType::float32: return PhysicalType::float32;
        case ValueType::boolean: return PhysicalType::boolean;
        case ValueType::string: return PhysicalType::byte_array;
    }
    return PhysicalType::int64;
}

const char* type_name(ValueType t) {
    switch (t) {
        case ValueType::int64: return "int64";
        case ValueType::int32: return "int32";
        case ValueType::float64: return "double";
        case ValueType::float32: return "float";
        case ValueType::boolean: return "boolean";
        case ValueType::string: return "string";
    }
    return "?";
}

// Min and max of a chunk, PLAIN-encoded as statistics hold them (a string
// column's within kStatBytes: string_bounds.h).
struct Stats {
    bool any = false;
    std::string min, max;
    int64_t nulls = 0;
    StringBounds strings;
};

template <class T>
std::string plain_bytes(T v) {
    std::string s(sizeof(T), '\0');
    std::memcpy(s.data(), &v, sizeof(T));
    return s;
}

template <class T>
void numeric_stats(const std::vector<T>& v, Stats& st) {
    if (v.empty()) return;
    T lo = v[0], hi = v[0];
    bool seen = false;
    for (T x : v) {
        if constexpr (std::is_floating_point_v<T>)
            if (std::isnan(x)) continue;
        if (!seen || x < lo) lo = x;
        if (!seen || x > hi) hi = x;
        seen = true;
    }
    if (!seen) return;
    if (st.any) {
        T a, b;
        std::memcpy(&a, st.min.data(), sizeof(T));
        std::memcpy(&b, st.max.data(), sizeof(T));
        lo = std::min(lo, a);
        hi = std::max(hi, b);
    }
    st.min = plain_bytes(lo);
    st.max = plain_bytes(hi);
    st.any = true;
}

void string_stats(std::string_view x, Stats& st) { st.strings.add(x); }

// One column's page being filled in one lane (ParquetWriter::lane), and the
// pages that lane has encoded for the row group.  Values gather for one page
// at a time; a full page is encoded and compressed at once, so a row group
// costs its compressed pages, not its values.
struct PageBuffer {
    std::vector<uint8_t> defined;  // 1: a value, 0: null (one per row)
    std::vector<int64_t> i64;
    std::vector<int32_t> i32;
    std::vector<double> f64;
    std::vector<float> f32;
    std::vector<uint8_t> b;
    std::string arena;              // strings back to back
    std::vector<uint32_t> ends;     // each string's end in arena
    bool set = false;               // set in the current row

    std::vector<uint8_t> pages;     // this lane's data pages of the chunk (headers included)
    int64_t rows = 0;               // in pages

    std::string_view str(size_t k) const {
        uint32_t begin = k == 0 ? 0 : ends[k - 1];
        return std::string_view(arena).substr(begin, ends[k] - begin);
    }
    bool page_empty() const { return defined.empty(); }
    // Appends `from`'s page of values to this one's.
    void append_page(const PageBuffer& from) {
        defined.insert(defined.end(), from.defined.begin(), from.defined.end());
        i64.insert(i64.end(), from.i64.begin(), from.i64.end());
        i32.insert(i32.end(), from.i32.begin(), from.i32.end());
        f64.insert(f64.end(), from.f64.begin(), from.f64.end());
        f32.insert(f32.end(), from.f32.begin(), from.f32.end());
        b.insert(b.end(), from.b.begin(), from.b.end());
        auto base = static_cast<uint32_t>(arena.size());
        arena.append(from.arena);
        for (uint32_t e : from.ends) ends.push_back(base + e);
    }
    void clear_page() {
        defined.clear();
        i64.clear();
        i32.clear();
        f64.clear();
        f32.clear();
        b.clear();
        arena.clear();
        ends.clear();
    }
};

// One column's chunk of the row group being written, whatever lanes its pages
// come from: what the footer says of it, and its dictionary.  A string column
// is dictionary-encoded while its values repeat: decided on its first page
// of the chunk, and given up (the later pages PLAIN, as parquet-mr does)
// when the dictionary outgrows its limits.  Every lane's pages use the one
// dictionary, so the chunk is the dictionary page and the lanes' pages.
struct ChunkState {
    int64_t uncompressed = 0, compressed = 0;
    Stats stats;
    bool plain_pages = false;       // a page PLAIN-encoded
    bool delta_pages = false;       // a page DELTA_BINARY_PACKED
    enum class Dict { undecided, on, off } dict = Dict::undecided;
    std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> ids;
    std::vector<std::string_view> entries;  // keys of ids, in index order
    size_t dict_bytes = 0;

    void clear() {
        uncompressed = compressed = 0;
        stats = {};
        plain_pages = false;
        delta_pages = false;
        dict = Dict::undecided;
        ids.clear();
        entries.clear();
        dict_bytes = 0;
    }
};

// Rows that fill the row group side by side with other lanes' (see
// ParquetWriter::lane): a page of each column.
struct Lane {
    std::vector<PageBuffer> columns;
    int64_t page_rows = 0;
    int64_t raw_bytes = 0;  // of the values in its pages being filled
    int64_t held = 0;       // the most raw_bytes since its memory was last freed: what its pages' vectors hold

    // Frees the pages' memory (their vectors keep what they once held).
    void release() {
        for (PageBuffer& b : columns) {
            PageBuffer fresh;
            fresh.pages = std::move(b.pages);
            fresh.rows = b.rows;
            b = std::move(fresh);
        }
        held = raw_bytes = page_rows = 0;
    }
};

// What the footer says of one column chunk.
struct ChunkMeta {
    std::vector<Encoding> encodings;
    int64_t num_values = 0;
    int64_t uncompressed = 0, compressed = 0;
    int64_t data_page_offset = 0;
    int64_t dictionary_page_offset = -1;
    int64_t file_offset = 0;
    Stats stats;
};

struct RowGroupMeta {
    std::vector<ChunkMeta> chunks;
    int64_t rows = 0;
    int64_t total_bytes = 0;       // uncompressed
    int64_t compressed_bytes = 0;
    int64_t file_offset = 0;
    bool sorted = true;            // its rows in WriterOptions::sorted_by order
};

// Bytes a row's fixed-width value takes in a page being filled.
int64_t value_bytes(ValueType t) {
    switch (t) {
        case ValueType::int64:
        case ValueType::float64: return 8;
        case ValueType::int32:
        case ValueType::float32: return 4;
        default: return 1;
    }
}

}  // namespace

struct ParquetWriter::State {
    WriterOptions options;
    std::unique_ptr<AtomicFile> file;
    int64_t offset = 0;  // bytes written
    std::vector<ChunkState> chunks;            // one per column
    std::vector<std::unique_ptr<Lane>> lanes;  // each made when first used
    PageBuffer merged;                         // lanes' pages being filled, encoded together (gather_pages)
    Lane* lane = nullptr;                      // the one rows go to
    std::vector<RowGroupMeta> groups;
    int64_t group_rows = 0;
    int64_t group_bytes = 0;  // the compressed pages held for this row group
    int64_t held = 0;         // every lane's Lane::held
    int64_t row_bytes = 0;    // a row's fixed-width values and definition levels
    bool group_unsorted = false;
    std::vector<uint8_t> scratch, compressed, levels_rle;
    std::vector<uint32_t> literals, indices;  // a page's RLE scratch
    std::vector<size_t> required, strings;    // which columns end_row checks
    // One zstd context for every page: ZSTD_compress makes and frees one per
    // call, and setting up its tables cost as much as compressing a small page.
    struct FreeZstd {
        void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
    };
    std::unique_ptr<ZSTD_CCtx, FreeZstd> zstd;
    bool committed = false;

    void write(const void* data, size_t n) {
        file->out().write(std::string_view(static_cast<const char*>(data), n));
        offset += static_cast<int64_t>(n);
    }

    // The page body as the file holds it: `in` itself when uncompressed,
    // else `compressed`'s first bytes.  `compressed` only grows: sizing it
    // for each page would zero-fill the codec's bound every time.
    std::string_view compress(const std::vector<uint8_t>& in) {
        auto room = [&](size_t bound) {
            if (compressed.size() < bound) compressed.resize(bound);
        };
        switch (options.codec) {
            case Codec::uncompressed: return {reinterpret_cast<const char*>(in.data()), in.size()};
            case Codec::snappy: {
                size_t len = snappy_max_compressed_length(in.size());
                room(len);
                if (snappy_compress(reinterpret_cast<const char*>(in.data()), in.size(),
                                    reinterpret_cast<char*>(compressed.data()), &len) != SNAPPY_OK)
                    throw Error("snappy could not compress a page", file->path());
                return {reinterpret_cast<const char*>(compressed.data()), len};
            }
            case Codec::zstd: {
                if (!zstd && !(zstd.reset(ZSTD_createCCtx()), zstd))
                    throw Error("zstd could not make a compression context", file->path());
                size_t bound = ZSTD_compressBound(in.size());
                room(bound);
                size_t n = ZSTD_compressCCtx(zstd.get(), compressed.data(), bound, in.data(), in.size(),
                                             options.zstd_level);
                if (ZSTD_isError(n)) throw Error(std::string("zstd: ") + ZSTD_getErrorName(n), file->path());
                return {reinterpret_cast<const char*>(compressed.data()), n};
            }
            default: throw Error("the Parquet writer writes zstd, snappy or uncompressed pages", file->path());
        }
    }

    // One page, header and compressed body, appended to `to`; returns the
    // header's and body's sizes (uncompressed, compressed).
    std::pair<int64_t, int64_t> page(PageType type, const std::vector<uint8_t>& body, int32_t num_values,
                                     Encoding encoding, std::vector<uint8_t>& to) {
        std::string_view stored = compress(body);
        CompactWriter h;
        h.begin_struct();
        h.field_i32(1, static_cast<int32_t>(type));
        h.field_i32(2, static_cast<int32_t>(body.size()));
        h.field_i32(3, static_cast<int32_t>(stored.size()));
        if (type == PageType::dictionary) {
            h.field_struct(7);
            h.field_i32(1, num_values);
            h.field_i32(2, static_cast<int32_t>(Encoding::plain));
            h.end_struct();
        } else {
            h.field_struct(5);
            h.field_i32(1, num_values);
            h.field_i32(2, static_cast<int32_t>(encoding));
            h.field_i32(3, static_cast<int32_t>(Encoding::rle));
            h.field_i32(4, static_cast<int32_t>(Encoding::rle));
            h.end_struct();
        }
        h.end_struct();
        to.insert(to.end(), h.bytes().begin(), h.bytes().end());
        append_bytes(to, stored);
        return {static_cast<int64_t>(h.bytes().size() + body.size()), static_cast<int64_t>(h.bytes().size() + stored.size())};
    }
};

ParquetWriter::ParquetWriter(std::string path, std::vector<WriterColumn> columns, WriterOptions options)
    : s_(std::make_unique<State>()), columns_(std::move(columns)) {
    check_setup(path, options);
    s_->options = std::move(options);
    s_->file = std::make_unique<AtomicFile>(std::move(path));
    start();
}

ParquetWriter::ParquetWriter(const DirHandle& dir, std::string name, std::string_view tag,
                             std::vector<WriterColumn> columns, WriterOptions options)
    : s_(std::make_unique<State>()), columns_(std::move(columns)) {
    check_setup(dir.shown(name), options);
    s_->options = std::move(options);
    s_->file = std::make_unique<AtomicFile>(dir, std::move(name), tag);
    start();
}

void ParquetWriter::check_setup(const std::string& path, const WriterOptions& options) const {
    if (columns_.empty()) throw Error("a Parquet file needs a column", path);
    for (const WriterColumn& c : columns_)
        if (c.delta && c.type != ValueType::int64 && c.type != ValueType::int32)
            throw Error("internal: column " + c.name + " is " + type_name(c.type) + ", not an integer to take as deltas", path);
    if (options.row_group_rows < 1 || options.page_values < 1 || options.page_bytes < 1 || options.row_group_bytes < 1)
        throw Error("internal: Parquet writer sizes", path);
}

void ParquetWriter::start() {
    s_->chunks.resize(columns_.size());
    for (size_t c = 0; c < columns_.size(); ++c) {
        if (!columns_[c].nullable) s_->required.push_back(c);
        if (columns_[c].type == ValueType::string) s_->strings.push_back(c);
        s_->row_bytes += 1 + (columns_[c].type == ValueType::string ? 4 : value_bytes(columns_[c].type));
    }
    lane(0);
    s_->write("PAR1", 4);
}

ParquetWriter::~ParquetWriter() = default;

int64_t ParquetWriter::bytes_written() const { return s_->offset; }

size_t ParquetWriter::row_groups() const { return s_->groups.size(); }

namespace {

[[noreturn]] void wrong_type(const WriterColumn& c, ValueType given) {
    throw Error(std::string("internal: column ") + c.name + " is " + type_name(c.type) + ", set as " + type_name(given));
}

}  // namespace

// Row by row and a column at a time do not mix: a value set into a run
// would leave its column a value short, a group ended within one half
// filled.
void ParquetWriter::refuse_in_rows(const char* what) const {
    if (batch_rows_)
        throw Error(std::string("internal: ") + what + " within begin_rows()", s_->file->path());
}

#define NX_SET(method, T, vt, field)                                 \
    void ParquetWriter::method(size_t c, T v) {                      \
        refuse_in_rows("set");                                       \
        if (columns_[c].type != vt) wrong_type(columns_[c], vt);     \
        PageBuffer& b = s_->lane->columns[c];                        \
        if (b.set) throw Error("internal: column " + columns_[c].name + " set twice in a row"); \
        b.set = true;                                                \
        b.defined.push_back(1);                                      \
        b.field.push_back(v);                                        \
    }
NX_SET(set_int64, int64_t, ValueType::int64, i64)
NX_SET(set_int32, int32_t, ValueType::int32, i32)
NX_SET(set_double, double, ValueType::float64, f64)
NX_SET(set_float, float, ValueType::float32, f32)
NX_SET(set_bool, bool, ValueType::boolean, b)
#undef NX_SET

void ParquetWriter::set_string(size_t c, std::string_view v) {
    refuse_in_rows("set");
    if (columns_[c].type != ValueType::string) wrong_type(columns_[c], ValueType::string);
    PageBuffer& b = s_->lane->columns[c];
    if (b.set) throw Error("internal: column " + columns_[c].name + " set twice in a row");
    if (b.arena.size() + v.size() > UINT32_MAX)
        throw Error("column " + columns_[c].name + ": a page's strings exceed 4 GiB", s_->file->path());
    b.set = true;
    b.defined.push_back(1);
    b.arena.append(v);
    s_->lane->raw_bytes += static_cast<int64_t>(v.size());
    b.ends.push_back(static_cast<uint32_t>(b.arena.size()));
}

void ParquetWriter::set_null(size_t c) {
    refuse_in_rows("set");
    PageBuffer& b = s_->lane->columns[c];
    if (b.set) throw Error("internal: column " + columns_[c].name + " set twice in a row");
    b.set = true;
    b.defined.push_back(0);
}

namespace {

template <class T>
void plain_fixed(const std::vector<T>& v, std::vector<uint8_t>& out) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(v.data());
    out.insert(out.end(), p, p + v.size() * sizeof(T));
}

// Whether a string column's chunk is dictionary-encoded, decided on its
// first page: when its values repeat (at most half of them distinct).
void decide_dictionary(ChunkState& chunk, const PageBuffer& b) {
    if (chunk.dict != ChunkState::Dict::undecided) return;
    std::unordered_set<std::string_view> distinct;
    for (size_t k = 0; k < b.ends.size() && distinct.size() * 2 <= b.ends.size() + 16; ++k) distinct.insert(b.str(k));
    chunk.dict = distinct.size() * 2 <= b.ends.size() + 16 ? ChunkState::Dict::on : ChunkState::Dict::off;
}

// Encodes a lane's page of one column into the lane's pages of the chunk and
// clears the page.
void flush_page(ParquetWriter::State& s, const WriterColumn& col, ChunkState& chunk, PageBuffer& buf) {
    const size_t rows = buf.defined.size();
    if (rows == 0) return;
    chunk.stats.nulls += std::count(buf.defined.begin(), buf.defined.end(), uint8_t{0});
    switch (col.type) {
        case ValueType::int64: numeric_stats(buf.i64, chunk.stats); break;
        case ValueType::int32: numeric_stats(buf.i32, chunk.stats); break;
        case ValueType::float64: numeric_stats(buf.f64, chunk.stats); break;
        case ValueType::float32: numeric_stats(buf.f32, chunk.stats); break;
        case ValueType::boolean: numeric_stats(buf.b, chunk.stats); break;
        case ValueType::string: break;  // as the values are encoded, below
    }
    std::vector<uint8_t>& body = s.scratch;
    body.clear();
    if (col.nullable) {
        s.levels_rle.clear();
        rle_hybrid(buf.defined.data(), buf.defined.size(), 1, s.literals, s.levels_rle);
        put_le(body, s.levels_rle.size(), 4);
        body.insert(body.end(), s.levels_rle.begin(), s.levels_rle.end());
    }
    Encoding encoding = Encoding::plain;
    // A page of nulls only has no values to take as deltas: PLAIN.
    const bool delta = col.delta && (!buf.i64.empty() || !buf.i32.empty());
    if (delta) encoding = Encoding::delta_binary_packed;
    switch (col.type) {
        case ValueType::int64:
            if (delta) delta_binary_packed(buf.i64.data(), buf.i64.size(), body);
            else plain_fixed(buf.i64, body);
            break;
        case ValueType::int32:
            if (delta) delta_binary_packed(buf.i32.data(), buf.i32.size(), body);
            else plain_fixed(buf.i32, body);
            break;
        case ValueType::float64: plain_fixed(buf.f64, body); break;
        case ValueType::float32: plain_fixed(buf.f32, body); break;
        case ValueType::boolean: {
            uint8_t acc = 0;
            int bits = 0;
            for (uint8_t x : buf.b) {
                acc |= static_cast<uint8_t>((x ? 1 : 0) << bits);
                if (++bits == 8) {
                    body.push_back(acc);
                    acc = 0;
                    bits = 0;
                }
            }
            if (bits) body.push_back(acc);
            break;
        }
        case ValueType::string: {
            // A page of nulls only has no values to encode: PLAIN, and the
            // dictionary is decided on the first page with values.
            if (!buf.ends.empty()) decide_dictionary(chunk, buf);
            // Min/max: a dictionary-encoded value is compared when it enters
            // the dictionary (the others are in it already), the rest one by one.
            size_t stats_from = 0;
            std::vector<uint32_t>& indices = s.indices;
            indices.clear();
            if (chunk.dict == ChunkState::Dict::on) {
                indices.reserve(buf.ends.size());
                std::string_view last;
                uint32_t last_id = 0;
                for (size_t k = 0; k < buf.ends.size(); ++k) {
                    std::string_view x = buf.str(k);
                    // Runs of one value (a track's opcode, the profile) skip the lookup.
                    if (k > 0 && x == last) {
                        indices.push_back(last_id);
                        continue;
                    }
                    auto it = chunk.ids.find(x);
                    if (it == chunk.ids.end()) {
                        if (chunk.entries.size() >= kMaxDictionaryEntries || chunk.dict_bytes + x.size() > kMaxDictionaryBytes)
                            break;  // the dictionary is full: this page and the next are PLAIN
                        it = chunk.ids.emplace(std::string(x), static_cast<uint32_t>(chunk.entries.size())).first;
                        chunk.entries.push_back(it->first);
                        chunk.dict_bytes += x.size() + 4;
                        if (col.statistics) string_stats(x, chunk.stats);
                    }
                    indices.push_back(it->second);
                    last = x;
                    last_id = it->second;
                }
                stats_from = indices.size();
                if (indices.size() < buf.ends.size()) chunk.dict = ChunkState::Dict::off;
            }
            if (col.statistics)
                for (size_t k = stats_from; k < buf.ends.size(); ++k) string_stats(buf.str(k), chunk.stats);
            if (chunk.dict == ChunkState::Dict::on && !buf.ends.empty()) {
                encoding = Encoding::rle_dictionary;
                int width = bit_width(static_cast<uint32_t>(std::max<size_t>(chunk.entries.size(), 1) - 1));
                body.push_back(static_cast<uint8_t>(width));
                if (!indices.empty()) rle_hybrid(indices.data(), indices.size(), width, s.literals, body);
            } else {
                for (size_t k = 0; k < buf.ends.size(); ++k) {
                    std::string_view x = buf.str(k);
                    put_le(body, x.size(), 4);
                    append_bytes(body, x);
                }
            }
            break;
        }
    }
    if (encoding == Encoding::plain) chunk.plain_pages = true;
    if (encoding == Encoding::delta_binary_packed) chunk.delta_pages = true;
    auto [u, c] = s.page(PageType::data, body, static_cast<int32_t>(rows), encoding, buf.pages);
    chunk.uncompressed += u;
    chunk.compressed += c;
    s.group_bytes += c;
    buf.rows += static_cast<int64_t>(rows);
    buf.clear_page();
}

// Encodes every page a lane is filling (a row group ends, or the lanes'
// pages hold too much).
void flush_lane_pages(ParquetWriter::State& s, const std::vector<WriterColumn>& columns, Lane& lane) {
    for (size_t c = 0; c < columns.size(); ++c) flush_page(s, columns[c], s.chunks[c], lane.columns[c]);
    lane.raw_bytes = 0;
    lane.page_rows = 0;
}

// Writes a column's chunk: its dictionary page, if any, then its data pages
// (`rows` values).
void write_chunk(ParquetWriter::State& s, size_t column, const WriterColumn& col, const std::vector<uint8_t>& pages,
                 int64_t rows, ChunkMeta& chunk) {
    ChunkState& state = s.chunks[column];
    std::vector<uint8_t> empty_page;
    if (rows == 0 && pages.empty()) {
        // An empty table: one empty page, so every reader sees the column.
        auto [u, c] = s.page(PageType::data, col.nullable ? std::vector<uint8_t>{0, 0, 0, 0} : std::vector<uint8_t>{}, 0,
                             Encoding::plain, empty_page);
        state.uncompressed += u;
        state.compressed += c;
        state.plain_pages = true;
    }
    chunk.num_values = rows;
    chunk.file_offset = s.offset;
    chunk.stats = state.stats;
    chunk.uncompressed = state.uncompressed;
    chunk.compressed = state.compressed;
    if (!state.entries.empty()) {
        std::vector<uint8_t> body;
        for (std::string_view x : state.entries) {
            put_le(body, x.size(), 4);
            append_bytes(body, x);
        }
        std::vector<uint8_t> dict_page;
        auto [u, c] = s.page(PageType::dictionary, body, static_cast<int32_t>(state.entries.size()), Encoding::plain, dict_page);
        chunk.dictionary_page_offset = s.offset;
        s.write(dict_page.data(), dict_page.size());
        chunk.uncompressed += u;
        chunk.compressed += c;
        chunk.encodings.push_back(Encoding::plain);
        chunk.encodings.push_back(Encoding::rle_dictionary);
    }
    chunk.encodings.push_back(Encoding::rle);
    if (state.plain_pages && state.entries.empty()) chunk.encodings.insert(chunk.encodings.begin(), Encoding::plain);
    else if (state.plain_pages && std::find(chunk.encodings.begin(), chunk.encodings.end(), Encoding::plain) == chunk.encodings.end())
        chunk.encodings.push_back(Encoding::plain);
    if (state.delta_pages) chunk.encodings.push_back(Encoding::delta_binary_packed);
    chunk.data_page_offset = s.offset;
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
    PageBuffer& merged = s.merged;
    auto flush_merged = [&] {
        if (merged.page_empty()) return;
        flush_page(s, col, s.chunks[column], merged);
        pages.insert(pages.end(), merged.pages.begin(), merged.pages.end());
        merged.pages.clear();
    };
    for (const auto& lane : s.lanes) {
        if (!lane) continue;
        PageBuffer& buf = lane->columns[column];
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

// Writes the buffered rows, every lane's, as one row group and empties the
// buffers.
void flush_group(ParquetWriter::State& s, const std::vector<WriterColumn>& columns) {
    RowGroupMeta g;
    g.rows = s.group_rows;
    g.file_offset = s.offset;
    g.sorted = !s.group_unsorted;
    g.chunks.resize(columns.size());
    std::vector<uint8_t> pages;
    for (size_t c = 0; c < columns.size(); ++c) {
        pages.clear();
        int64_t rows = 0;
        gather_pages(s, c, columns[c], pages, rows);
        write_chunk(s, c, columns[c], pages, rows, g.chunks[c]);
        g.total_bytes += g.chunks[c].uncompressed;
        g.compressed_bytes += g.chunks[c].compressed;
    }
    for (const auto& lane : s.lanes)
        if (lane) lane->raw_bytes = lane->page_rows = 0;
    s.groups.push_back(std::move(g));
    s.group_rows = 0;
    s.group_bytes = 0;
    s.group_unsorted = false;
}

void write_statistics(CompactWriter& w, const Stats& st) {
    w.field_struct(12);
    w.field_i64(3, st.nulls);
    if (st.any) {
        w.field_binary(5, st.max);
        w.field_binary(6, st.min);
    } else if (const StringBounds& b = st.strings; b.any) {
        if (b.has_max) w.field_binary(5, b.max);
        w.field_binary(6, b.min);
        // A cut value is a bound, not a value of the column.
        if (b.has_max && !b.max_exact) w.field_bool(7, false);
        if (!b.min_exact) w.field_bool(8, false);
    }
    w.end_struct();
}

}  // namespace

void ParquetWriter::lane(size_t k) {
    // A run of rows in one lane (a track's events, mostly) changes nothing.
    if (k < s_->lanes.size() && s_->lane == s_->lanes[k].get()) return;
    refuse_in_rows("lane()");
    if (s_->lane)
        for (const PageBuffer& b : s_->lane->columns)
            if (b.set) throw Error("internal: a Parquet writer's lane changed within a row", s_->file->path());
    if (k >= s_->lanes.size()) s_->lanes.resize(k + 1);
    if (!s_->lanes[k]) {
        s_->lanes[k] = std::make_unique<Lane>();
        s_->lanes[k]->columns.resize(columns_.size());
    }
    s_->lane = s_->lanes[k].get();
}

void ParquetWriter::end_row() {
    refuse_in_rows("end_row()");
    Lane& lane = *s_->lane;
    // Checked before anything changes: a refused row stays open.
    for (size_t c : s_->required)
        if (!lane.columns[c].set) throw Error("internal: required column " + columns_[c].name + " left unset");
    for (PageBuffer& b : lane.columns) {
        if (!b.set) b.defined.push_back(0);
        b.set = false;
    }
    rows_added(1);
}

void ParquetWriter::rows_added(size_t n) {
    Lane& lane = *s_->lane;
    const auto rows = static_cast<int64_t>(n);
    rows_ += rows;
    s_->group_rows += rows;
    lane.raw_bytes += s_->row_bytes * rows;
    if (lane.raw_bytes > lane.held) {
        s_->held += lane.raw_bytes - lane.held;
        lane.held = lane.raw_bytes;
    }
    lane.page_rows += rows;
    if (lane.page_rows >= s_->options.page_values && s_->group_rows < s_->options.row_group_rows) {
        flush_lane_pages(*s_, columns_, lane);
    } else {
        // A column of long strings ends its page early, alone: a column
        // chunk's pages need not hold the same rows as another column's.
        for (size_t c : s_->strings) {
            PageBuffer& b = lane.columns[c];
            auto held = static_cast<int64_t>(b.arena.size());
            if (held < s_->options.page_bytes) continue;
            flush_page(*s_, columns_[c], s_->chunks[c], b);
            lane.raw_bytes -= held;
        }
    }
    // Lanes side by side each hold a page, and keep the memory of the
    // largest they held: past their bound, every lane's page is encoded as
    // it stands and its memory freed.
    if (s_->lanes.size() > 1 && s_->held > s_->options.lanes_bytes) {
        for (const auto& l : s_->lanes) {
            if (!l) continue;
            flush_lane_pages(*s_, columns_, *l);
            l->release();
        }
        s_->held = 0;
    }
    if (s_->group_rows >= s_->options.row_group_rows || s_->group_bytes >= s_->options.row_group_bytes)
        flush_group(*s_, columns_);
}

size_t ParquetWriter::rows_to_boundary() const {
    const Lane& lane = *s_->lane;
    int64_t room = std::min(s_->options.page_values - lane.page_rows, s_->options.row_group_rows - s_->group_rows);
    return static_cast<size_t>(std::max<int64_t>(room, 1));
}

void ParquetWriter::begin_rows(size_t n) {
    refuse_in_rows("begin_rows()");
    for (const PageBuffer& b : s_->lane->columns)
        if (b.set) throw Error("internal: begin_rows() within a row", s_->file->path());
    if (n == 0 || n > rows_to_boundary())
        throw Error("internal: begin_rows(" + std::to_string(n) + ") past the page or row group", s_->file->path());
    batch_rows_ = n;
}

namespace {

// The column a put_*() fills, checked: rows begun, its type, set once.
PageBuffer& batch_column(ParquetWriter::State& s, const std::vector<WriterColumn>& columns, size_t c, size_t batch_rows,
                         ValueType type, const uint8_t* present) {
    const WriterColumn& col = columns[c];
    if (!batch_rows) throw Error("internal: a put of column " + col.name + " without begin_rows()");
    if (col.type != type) wrong_type(col, type);
    PageBuffer& b = s.lane->columns[c];
    if (b.set) throw Error("internal: column " + col.name + " set twice in a row");
    if (present && !col.nullable)
        for (size_t k = 0; k < batch_rows; ++k)
            if (!present[k]) throw Error("internal: required column " + col.name + " given a null");
    b.set = true;
    return b;
}

template <class T>
void put_fixed(PageBuffer& b, std::vector<T>& field, const T* v, const uint8_t* present, size_t n) {
    if (!present) {
        b.defined.insert(b.defined.end(), n, uint8_t{1});
        field.insert(field.end(), v, v + n);
        return;
    }
    for (size_t k = 0; k < n; ++k) {
        b.defined.push_back(present[k] ? 1 : 0);
        if (present[k]) field.push_back(v[k]);
    }
}

}  // namespace

#define NX_PUT(method, T, vt, field)                                                     \
    void ParquetWriter::method(size_t c, const T* v, const uint8_t* present) {           \
        PageBuffer& b = batch_column(*s_, columns_, c, batch_rows_, vt, present);        \
        put_fixed(b, b.field, v, present, batch_rows_);                                  \
    }
NX_PUT(put_int64, int64_t, ValueType::int64, i64)
NX_PUT(put_int32, int32_t, ValueType::int32, i32)
NX_PUT(put_double, double, ValueType::float64, f64)
NX_PUT(put_float, float, ValueType::float32, f32)
#undef NX_PUT

void ParquetWriter::put_bool(size_t c, const uint8_t* v, const uint8_t* present) {
    PageBuffer& b = batch_column(*s_, columns_, c, batch_rows_, ValueType::boolean, present);
    // Any byte but 0 is true, stored as 1, as set_bool stores it (its
    // statistics compare the stored bytes).
    for (size_t k = 0; k < batch_rows_; ++k) {
        const bool here = !present || present[k];
        b.defined.push_back(here ? 1 : 0);
        if (here) b.b.push_back(v[k] != 0 ? 1 : 0);
    }
}

void ParquetWriter::put_string(size_t c, const std::string_view* v, const uint8_t* present) {
    PageBuffer& b = batch_column(*s_, columns_, c, batch_rows_, ValueType::string, present);
    Lane& lane = *s_->lane;
    size_t total = 0;
    for (size_t k = 0; k < batch_rows_; ++k)
        if (!present || present[k]) total += v[k].size();
    if (b.arena.size() + total < static_cast<size_t>(s_->options.page_bytes) && b.arena.size() + total <= UINT32_MAX) {
        // No page ends within the run (the common case, short strings): the
        // values copied into the arena at once.
        size_t at = b.arena.size();
        b.arena.resize(at + total);
        char* arena = b.arena.data();
        for (size_t k = 0; k < batch_rows_; ++k) {
            const bool here = !present || present[k];
            b.defined.push_back(here ? 1 : 0);
            if (!here) continue;
            if (!v[k].empty()) std::memcpy(arena + at, v[k].data(), v[k].size());
            at += v[k].size();
            b.ends.push_back(static_cast<uint32_t>(at));
        }
        lane.raw_bytes += static_cast<int64_t>(total);
        return;
    }
    for (size_t k = 0; k < batch_rows_; ++k) {
        if (present && !present[k]) {
            b.defined.push_back(0);
            continue;
        }
        if (b.arena.size() + v[k].size() > UINT32_MAX)
            throw Error("column " + columns_[c].name + ": a page's strings exceed 4 GiB", s_->file->path());
        b.defined.push_back(1);
        b.arena.append(v[k]);
        lane.raw_bytes += static_cast<int64_t>(v[k].size());
        b.ends.push_back(static_cast<uint32_t>(b.arena.size()));
        // Where row by row would end this column's page early (end_row):
        // after any row but the last, which end_rows() sees to.
        auto held = static_cast<int64_t>(b.arena.size());
        if (k + 1 < batch_rows_ && held >= s_->options.page_bytes) {
            // The lane held this much before the page went: it counts
            // towards lanes_bytes as row by row would count it.
            if (lane.raw_bytes > lane.held) {
                s_->held += lane.raw_bytes - lane.held;
                lane.held = lane.raw_bytes;
            }
            flush_page(*s_, columns_[c], s_->chunks[c], b);
            lane.raw_bytes -= held;
        }
    }
}

void ParquetWriter::end_rows() {
    if (!batch_rows_) throw Error("internal: end_rows() without begin_rows()", s_->file->path());
    Lane& lane = *s_->lane;
    for (size_t c : s_->required)
        if (!lane.columns[c].set) throw Error("internal: required column " + columns_[c].name + " left unset");
    for (PageBuffer& b : lane.columns) {
        if (!b.set) b.defined.insert(b.defined.end(), batch_rows_, uint8_t{0});
        b.set = false;
    }
    const size_t n = batch_rows_;
    batch_rows_ = 0;
    rows_added(n);
}

void ParquetWriter::end_group() {
    refuse_in_rows("end_group()");
    if (s_->group_rows > 0) flush_group(*s_, columns_);
}

void ParquetWriter::group_unsorted() { s_->group_unsorted = true; }

void ParquetWriter::commit(const std::string& path) {
    if (s_->committed) return;
    write_footer();
    if (path.empty() || path == s_->file->path()) s_->file->commit();
    else s_->file->commit_as(path);
    s_->committed = true;
}

AtomicFile& ParquetWriter::finish() {
    if (!s_->committed) {
        write_footer();
        s_->file->finish_temporary();
        s_->committed = true;
    }
    return *s_->file;
}

void ParquetWriter::write_footer() {
    refuse_in_rows("commit()");
    // The last, partial row group (or the only one of an empty file).
    if (s_->group_rows > 0 || s_->groups.empty()) flush_group(*s_, columns_);
    CompactWriter w;
    w.begin_struct();
    w.field_i32(1, 1);  // version
    w.field_list(2, TType::structure, static_cast<uint32_t>(columns_.size() + 1));
    w.begin_element_struct();  // the root
    w.field_binary(4, "schema");
    w.field_i32(5, static_cast<int32_t>(columns_.size()));
    w.end_struct();
    for (const WriterColumn& c : columns_) {
        w.begin_element_struct();
        w.field_i32(1, static_cast<int32_t>(physical(c.type)));
        w.field_i32(3, static_cast<int32_t>(c.nullable ? Repetition::optional : Repetition::required));
        w.field_binary(4, c.name);
        if (c.type == ValueType::string) {
            w.field_i32(6, kUtf8);
            w.field_struct(10);  // LogicalType: STRING
            w.field_struct(kStringLogical);
            w.end_struct();
            w.end_struct();
        }
        w.end_struct();
    }
    w.field_i64(3, rows_);
    w.field_list(4, TType::structure, static_cast<uint32_t>(s_->groups.size()));
    for (const RowGroupMeta& g : s_->groups) {
        w.begin_element_struct();
        w.field_list(1, TType::structure, static_cast<uint32_t>(g.chunks.size()));
        for (size_t c = 0; c < g.chunks.size(); ++c) {
            const ChunkMeta& ch = g.chunks[c];
            w.begin_element_struct();
            w.field_i64(2, ch.file_offset);
            w.field_struct(3);
            w.field_i32(1, static_cast<int32_t>(physical(columns_[c].type)));
            w.field_list(2, TType::i32, static_cast<uint32_t>(ch.encodings.size()));
            for (Encoding e : ch.encodings) w.element_i32(static_cast<int32_t>(e));
            w.field_list(3, TType::binary, 1);
            w.element_binary(columns_[c].name);
            w.field_i32(4, static_cast<int32_t>(s_->options.codec));
            w.field_i64(5, ch.num_values);
            w.field_i64(6, ch.uncompressed);
            w.field_i64(7, ch.compressed);
            w.field_i64(9, ch.data_page_offset);
            if (ch.dictionary_page_offset >= 0) w.field_i64(11, ch.dictionary_page_offset);
            write_statistics(w, ch.stats);
            w.end_struct();  // ColumnMetaData
            w.end_struct();  // ColumnChunk
        }
        w.field_i64(2, g.total_bytes);
        w.field_i64(3, g.rows);
        if (!s_->options.sorted_by.empty() && g.sorted) {
            w.field_list(4, TType::structure, static_cast<uint32_t>(s_->options.sorted_by.size()));
            for (size_t c : s_->options.sorted_by) {
                w.begin_element_struct();
                w.field_i32(1, static_cast<int32_t>(c));
                w.field_bool(2, false);  // ascending
                w.field_bool(3, true);   // nulls first
                w.end_struct();
            }
        }
        w.field_i64(5, g.file_offset);
        w.field_i64(6, g.compressed_bytes);
        w.end_struct();
    }
    if (!s_->options.key_value.empty()) {
        w.field_list(5, TType::structure, static_cast<uint32_t>(s_->options.key_value.size()));
        for (const auto& [k, v] : s_->options.key_value) {
            w.begin_element_struct();
            w.field_binary(1, k);
            w.field_binary(2, v);
            w.end_struct();
        }
    }
    w.field_binary(6, s_->options.created_by);
    // Min/max are compared as each type orders (ColumnOrder TYPE_ORDER).
    w.field_list(7, TType::structure, static_cast<uint32_t>(columns_.size()));
    for (size_t c = 0; c < columns_.size(); ++c) {
        w.begin_element_struct();
        w.field_struct(1);
        w.end_struct();
        w.end_struct();
    }
    w.end_struct();
    const std::vector<uint8_t>& footer = w.bytes();
    s_->write(footer.data(), footer.size());
    uint8_t len[4];
    for (int i = 0; i < 4; ++i) len[i] = static_cast<uint8_t>(footer.size() >> (8 * i));
    s_->write(len, 4);
    s_->write("PAR1", 4);
}

}  // namespace nx::parquet
