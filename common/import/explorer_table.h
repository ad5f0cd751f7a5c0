// One Neuron Explorer Parquet table as the Explorer importers read it:
// the columns a mapping asks for, typed and checked against the file and the
// profile's own SchemaFields, every other column as JSON args, and places
// (table, row group, row, column) for every complaint.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/parquet/row_json.h"
#include "common/parquet/table_reader.h"
#include "common/profile/event.h"

namespace nx {

namespace explorer {

using parquet::ColumnCursor;
using parquet::ColumnInfo;
using parquet::TableReader;

enum class Kind { integer, number, text };

struct ColumnSpec {
    std::string name;
    Kind kind;
    bool required = false;
};

// SchemaFields rows nx checks files against: (table, field) -> type, unit.
struct FieldFacts {
    std::string type, format, unit;
};
using SchemaFacts = std::map<std::pair<std::string, std::string>, FieldFacts>;

// A value derived from a text column, computed once per dictionary entry
// (per row when the column's page is not dictionary-encoded): queue names
// repeat on every DMA row and classifying one takes several substring scans.
template <typename T>
class PerEntry {
public:
    template <typename F>
    T get(const ColumnCursor* c, std::string_view text, F&& compute) {
        if (!c || c->is_null() || !c->from_dictionary()) return compute(text);
        if (dictionary_ != c->dictionary_id()) {
            dictionary_ = c->dictionary_id();
            values_.assign(c->dictionary_size(), std::nullopt);
        }
        std::optional<T>& v = values_[c->dictionary_index()];
        if (!v) v = compute(text);
        return *v;
    }

private:
    uint64_t dictionary_ = 0;
    std::vector<std::optional<T>> values_;
};

// One table opened with the columns a mapping asks for, every other column
// too (for args), and typed access that names table, row group and column
// in every complaint.
class Table {
public:
    // Opens `table` from its files with the `specs` columns first (handles
    // 0..n-1 in that order) and, when `all_columns`, every other column
    // after them; checks each spec against the file and the profile's
    // SchemaFields.
    Table(const std::vector<std::string>& files, const std::vector<ColumnSpec>& specs, const SchemaFacts& facts,
          const std::string& table, bool all_columns);

    bool next() { return reader_->next(); }
    const std::string& file() const { return reader_->file(); }
    std::string where_in_table(size_t h) const {
        return "row group " + std::to_string(reader_->row_group()) + ", row " + std::to_string(reader_->row()) +
               ", column " + reader_->names()[h];
    }
    std::string where_row() const {
        return "row group " + std::to_string(reader_->row_group()) + ", row " + std::to_string(reader_->row());
    }

    bool present(size_t h) const {
        const ColumnCursor* c = reader_->column(h);
        return c && !c->is_null();
    }
    // The mapped columns' factors to nx's units (explorer_fields.h
    // map_columns), by handle; none set: 1.
    void set_scale(std::vector<double> scale) { scale_ = std::move(scale); }
    // A value scaled past what an int64 holds reads as absent.
    std::optional<int64_t> integer(size_t h) const {
        const ColumnCursor* c = reader_->column(h);
        if (!c || c->is_null()) return std::nullopt;
        if (h >= scale_.size() || scale_[h] == 1) return c->i64();
        double v = static_cast<double>(c->i64()) * scale_[h];
        if (!(v > -9.2e18 && v < 9.2e18)) return std::nullopt;
        return static_cast<int64_t>(std::llround(v));
    }
    std::optional<double> number(size_t h) const {
        const ColumnCursor* c = reader_->column(h);
        if (!c || c->is_null()) return std::nullopt;
        double v = c->holds_integers() ? static_cast<double>(c->i64()) : c->f64();
        return h < scale_.size() ? v * scale_[h] : v;
    }
    std::string_view text(size_t h) const {
        const ColumnCursor* c = reader_->column(h);
        if (!c || c->is_null() || c->info().is_list || !c->holds_bytes()) return {};
        return c->str();
    }

    // The columns no mapping took, as a JSON object (Perfetto-style args).
    std::string_view other_args() { return json_->write(*reader_, mapped_); }
    // Every column of the row.
    std::string row_json() { return std::string(json_->write(*reader_, 0)); }

    const std::vector<std::string>& names() const { return reader_->names(); }
    // The columns other_args() writes, in its order.
    std::vector<std::string> other_columns() const {
        return {reader_->names().begin() + static_cast<std::ptrdiff_t>(mapped_), reader_->names().end()};
    }
    // The current row's place in the table (0-based, through split files).
    int64_t row_number() const { return reader_->table_row(); }
    const TableReader& reader() const { return *reader_; }

private:
    void check(size_t h, const ColumnSpec& spec, const SchemaFacts& facts);

    std::string name_;
    size_t mapped_ = 0;
    std::vector<double> scale_;
    std::unique_ptr<TableReader> reader_;
    std::unique_ptr<parquet::RowJson> json_;
};

// True when a column of `info`'s type can be read as `kind` (integers from
// BOOLEAN, INT32, INT64; numbers from those and FLOAT, DOUBLE; text from the
// rest; no LIST).
bool kind_fits(Kind kind, const parquet::ColumnInfo& info);

// A row's start and length from its start, end and duration columns (end
// wins, duration fills in).  nullptr when the row has them; otherwise what is
// wrong with it, and the column to name in `bad_column`.
const char* row_interval(const Table& tab, size_t start, size_t end, size_t dur, Event& e, size_t& bad_column);

}  // namespace explorer

}  // namespace nx
