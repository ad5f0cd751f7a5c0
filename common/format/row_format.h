// Rendering rows of named columns in the output formats every nx tool offers:
// jsonl (one object per row), table (aligned), csv, tsv, markdown.  Formats
// are rows of one table (row_format.cpp).  jsonl, csv, tsv and markdown
// stream; table buffers rows to size its columns (the first 10,000 rows or
// 16 MiB of a result, after which the rest stream in those columns).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/io/output.h"

namespace nx {

struct Cell {
    enum Type : uint8_t { null, integer, real, text, json } type = null;
    int64_t i = 0;
    double d = 0;
    std::string s;  // text, or JSON text (json)

    static Cell of_int(int64_t v) { Cell c; c.type = integer; c.i = v; return c; }
    static Cell of_real(double v) { Cell c; c.type = real; c.d = v; return c; }
    static Cell of_text(std::string v) { Cell c; c.type = text; c.s = std::move(v); return c; }
    static Cell of_json(std::string v) { Cell c; c.type = json; c.s = std::move(v); return c; }
    bool is_number() const { return type == integer || type == real; }
};

enum class RowFormat { jsonl, table, csv, tsv, markdown };

// Parses a format name; throws UsageError listing the names.
RowFormat parse_row_format(std::string_view name);
std::string row_format_names();
// jsonl when stdout is not a terminal, table when it is.
RowFormat default_row_format(const Output& out);

// Text of a number as people read it in tables: integers whole, reals with at
// most 6 significant digits ("1.2346e+13" avoided below 1e15).
std::string human_number(double v);
// Shortest text that reads back as the same double (for machine formats).
std::string exact_number(double v);

// Text from profiles (names, messages) made safe per output format:
// a CSV cell, quoted when needed, with a leading ' when it starts with
// = + - @ (or tab/CR) and is not a plain number, as spreadsheets expect
// against formula injection;
std::string csv_text_cell(std::string_view s);
// markdown with no raw HTML (< > & as entities), | escaped, newlines as spaces;
std::string markdown_text(std::string_view s);
// text for a terminal or table: ESC, CR, other control characters and DEL as
// \xNN (newlines kept when `keep_newlines`, else \n).
std::string terminal_text(std::string_view s, bool keep_newlines);

// Display width of UTF-8 text: code points, not bytes.
size_t display_width(std::string_view s);
// `s` padded with spaces to `width` display columns, on the left when `right`.
std::string pad_to(std::string_view s, size_t width, bool right);

// The two table layouts, shared by the row writer and the reports' documents
// (document.cpp), so each format is drawn one way:
// aligned columns two spaces apart, each as wide as its widest cell, right-
// aligned where `right` says, trailing spaces trimmed, every line starting
// with `indent`; with `rule`, a line of dashes under the header.
std::string aligned_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                          const std::vector<bool>& right, std::string_view indent, bool rule);
// Its parts: each column's width (its widest cell), and one line of cells.
std::vector<size_t> table_widths(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);
std::string table_line(const std::vector<std::string>& cells, const std::vector<size_t>& width,
                       const std::vector<bool>& right, std::string_view indent);
// A markdown table's header and alignment lines ("---:" where `right`), and
// one row; cells go through markdown_text.
std::string markdown_table_header(const std::vector<std::string>& names, const std::vector<bool>& right);
std::string markdown_table_row(const std::vector<std::string>& cells);

class RowWriter {
public:
    RowWriter(RowFormat format, Output& out);
    ~RowWriter();
    // A last column with the same value in every row (e.g. where the
    // figures come from); columns() and row() add it.
    void constant_column(std::string name, Cell value);
    void columns(std::vector<std::string> names);
    void row(const std::vector<Cell>& cells);
    // Prints buffered rows (table) and ends the result set.
    void finish();
    size_t rows() const { return rows_; }

private:
    std::string render(const Cell& c, bool human) const;
    // csv, tsv, markdown: the column names, once per result.
    void write_header();
    RowFormat format_;
    Output& out_;
    void write_row(const std::vector<Cell>& cells);
    std::vector<std::string> names_;
    std::string constant_name_;
    Cell constant_value_;
    // table: prints the buffered rows and fixes the columns' widths.
    void write_table();
    std::vector<std::vector<std::string>> buffered_;
    size_t buffered_bytes_ = 0;
    std::vector<size_t> widths_;  // table: set once the buffered rows are printed
    std::vector<bool> numeric_;
    size_t rows_ = 0;
    bool header_done_ = false;
};

}  // namespace nx
