#include "common/parquet/parquet_writer.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "common/io/atomic_file.h"
#include "common/io/error.h"
#include "common/parquet/row_group_writer.h"
#include "common/parquet/value_types.h"
#include "common/parquet/writer_state.h"

namespace nx::parquet {

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
        if (c.delta && info(c.type).physical != PhysicalType::int64 && info(c.type).physical != PhysicalType::int32)
            throw Error("internal: column " + c.name + " is " + info(c.type).name + ", not an integer to take as deltas", path);
    if (options.row_group_rows < 1 || options.page_values < 1 || options.page_bytes < 1 || options.row_group_bytes < 1)
        throw Error("internal: Parquet writer sizes", path);
}

void ParquetWriter::start() {
    s_->page_writer.emplace(s_->options.codec, s_->options.zstd_level, s_->file->path());
    s_->chunks.resize(columns_.size());
    for (size_t c = 0; c < columns_.size(); ++c) {
        if (!columns_[c].nullable) s_->required.push_back(c);
        if (info(columns_[c].type).physical == PhysicalType::byte_array) s_->strings.push_back(c);
        s_->row_bytes += 1 + info(columns_[c].type).page_bytes;
    }
    lane(0);
    s_->write("PAR1", 4);
}

ParquetWriter::~ParquetWriter() = default;

int64_t ParquetWriter::bytes_written() const { return s_->offset; }

size_t ParquetWriter::row_groups() const { return s_->groups.size(); }

// Row by row and a column at a time do not mix: a value set into a run
// would leave its column a value short, a group ended within one half
// filled.
void ParquetWriter::refuse_in_rows(const char* what) const {
    if (batch_rows_)
        throw Error(std::string("internal: ") + what + " within begin_rows()", s_->file->path());
}

namespace {

[[noreturn]] void wrong_type(const WriterColumn& c, ValueType given) {
    throw Error(std::string("internal: column ") + c.name + " is " + info(c.type).name + ", set as " + info(given).name);
}

// The column of the current row a set_*() fills, checked: of `type` (none:
// any), not set yet in the row.  The caller marks it set.
PageValues& row_column(ParquetWriter::State& s, const std::vector<WriterColumn>& columns, size_t c,
                       std::optional<ValueType> type) {
    if (type && columns[c].type != *type) wrong_type(columns[c], *type);
    PageValues& b = s.lane->columns[c];
    if (b.set) throw Error("internal: column " + columns[c].name + " set twice in a row");
    return b;
}

// The column a put_*() fills, checked: rows begun, its type, set once.
PageValues& batch_column(ParquetWriter::State& s, const std::vector<WriterColumn>& columns, size_t c, size_t batch_rows,
                         ValueType type, const uint8_t* present) {
    const WriterColumn& col = columns[c];
    if (!batch_rows) throw Error("internal: a put of column " + col.name + " without begin_rows()");
    if (col.type != type) wrong_type(col, type);
    PageValues& b = s.lane->columns[c];
    if (b.set) throw Error("internal: column " + col.name + " set twice in a row");
    if (present && !col.nullable)
        for (size_t k = 0; k < batch_rows; ++k)
            if (!present[k]) throw Error("internal: required column " + col.name + " given a null");
    b.set = true;
    return b;
}

}  // namespace

template <class T>
void ParquetWriter::set_value(size_t c, T v) {
    refuse_in_rows("set");
    PageValues& b = row_column(*s_, columns_, c, value_type_of<T>());
    b.set = true;
    b.defined.push_back(1);
    b.values<T>().push_back(v);
}

void ParquetWriter::set_int64(size_t c, int64_t v) { set_value(c, v); }
void ParquetWriter::set_int32(size_t c, int32_t v) { set_value(c, v); }
void ParquetWriter::set_double(size_t c, double v) { set_value(c, v); }
void ParquetWriter::set_float(size_t c, float v) { set_value(c, v); }
void ParquetWriter::set_bool(size_t c, bool v) { set_value<uint8_t>(c, v); }

void ParquetWriter::set_string(size_t c, std::string_view v) {
    refuse_in_rows("set");
    PageValues& b = row_column(*s_, columns_, c, ValueType::string);
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
    PageValues& b = row_column(*s_, columns_, c, std::nullopt);
    b.set = true;
    b.defined.push_back(0);
}

void ParquetWriter::lane(size_t k) {
    // A run of rows in one lane (a track's events, mostly) changes nothing.
    if (k < s_->lanes.size() && s_->lane == s_->lanes[k].get()) return;
    refuse_in_rows("lane()");
    if (s_->lane)
        for (const PageValues& b : s_->lane->columns)
            if (b.set) throw Error("internal: a Parquet writer's lane changed within a row", s_->file->path());
    if (k >= s_->lanes.size()) s_->lanes.resize(k + 1);
    if (!s_->lanes[k]) {
        s_->lanes[k] = std::make_unique<Lane>();
        s_->lanes[k]->columns.resize(columns_.size());
    }
    s_->lane = s_->lanes[k].get();
}

namespace {

// Ends `n` rows of the lane: a column left unset is null in each.  Checked
// before anything changes: refused rows stay open.
void close_rows(ParquetWriter::State& s, const std::vector<WriterColumn>& columns, size_t n) {
    Lane& lane = *s.lane;
    for (size_t c : s.required)
        if (!lane.columns[c].set) throw Error("internal: required column " + columns[c].name + " left unset");
    for (PageValues& b : lane.columns) {
        if (!b.set) b.defined.insert(b.defined.end(), n, uint8_t{0});
        b.set = false;
    }
}

}  // namespace

void ParquetWriter::end_row() {
    refuse_in_rows("end_row()");
    close_rows(*s_, columns_, 1);
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
            PageValues& b = lane.columns[c];
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
    for (const PageValues& b : s_->lane->columns)
        if (b.set) throw Error("internal: begin_rows() within a row", s_->file->path());
    if (n == 0 || n > rows_to_boundary())
        throw Error("internal: begin_rows(" + std::to_string(n) + ") past the page or row group", s_->file->path());
    batch_rows_ = n;
}

template <class T>
void ParquetWriter::put_values(size_t c, const T* v, const uint8_t* present) {
    PageValues& b = batch_column(*s_, columns_, c, batch_rows_, value_type_of<T>(), present);
    std::vector<T>& values = b.values<T>();
    if (!present) {
        b.defined.insert(b.defined.end(), batch_rows_, uint8_t{1});
        values.insert(values.end(), v, v + batch_rows_);
        return;
    }
    for (size_t k = 0; k < batch_rows_; ++k) {
        b.defined.push_back(present[k] ? 1 : 0);
        if (present[k]) values.push_back(v[k]);
    }
}

void ParquetWriter::put_int64(size_t c, const int64_t* v, const uint8_t* present) { put_values(c, v, present); }
void ParquetWriter::put_int32(size_t c, const int32_t* v, const uint8_t* present) { put_values(c, v, present); }
void ParquetWriter::put_double(size_t c, const double* v, const uint8_t* present) { put_values(c, v, present); }
void ParquetWriter::put_float(size_t c, const float* v, const uint8_t* present) { put_values(c, v, present); }

void ParquetWriter::put_bool(size_t c, const uint8_t* v, const uint8_t* present) {
    PageValues& b = batch_column(*s_, columns_, c, batch_rows_, ValueType::boolean, present);
    std::vector<uint8_t>& values = b.values<uint8_t>();
    // Any byte but 0 is true, stored as 1, as set_bool stores it (its
    // statistics compare the stored bytes).
    for (size_t k = 0; k < batch_rows_; ++k) {
        const bool here = !present || present[k];
        b.defined.push_back(here ? 1 : 0);
        if (here) values.push_back(v[k] != 0 ? 1 : 0);
    }
}

void ParquetWriter::put_string(size_t c, const std::string_view* v, const uint8_t* present) {
    PageValues& b = batch_column(*s_, columns_, c, batch_rows_, ValueType::string, present);
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
    close_rows(*s_, columns_, batch_rows_);
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
    write_file_footer(*s_, columns_, rows_);
}

}  // namespace nx::parquet
