#include "common/format/row_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/io/char_escape.h"
#include "common/io/error.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

struct FormatRow {
    std::string_view name;
    RowFormat format;
    bool streams;
};
constexpr FormatRow kFormats[] = {
    {"jsonl", RowFormat::jsonl, true},  {"table", RowFormat::table, false},
    {"csv", RowFormat::csv, true},      {"tsv", RowFormat::tsv, true},
    {"markdown", RowFormat::markdown, true},
};

std::string csv_quote(std::string_view s) {
    if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string tsv_escape(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '\t') out += "\\t";
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\\') out += "\\\\";
        else out += c;
    }
    return out;
}


}  // namespace

size_t display_width(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++n;
    return n;
}

std::string pad_to(std::string_view s, size_t width, bool right) {
    size_t w = display_width(s);
    std::string fill(width > w ? width - w : 0, ' ');
    return right ? fill + std::string(s) : std::string(s) + fill;
}

std::vector<size_t> table_widths(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
    std::vector<size_t> width(header.size());
    for (size_t i = 0; i < header.size(); ++i) width[i] = display_width(header[i]);
    for (const auto& r : rows)
        for (size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], display_width(r[i]));
    return width;
}

std::string table_line(const std::vector<std::string>& cells, const std::vector<size_t>& width,
                       const std::vector<bool>& right, std::string_view indent) {
    std::string line(indent);
    for (size_t i = 0; i < cells.size() && i < width.size(); ++i)
        line += (i ? "  " : "") + pad_to(cells[i], width[i], i < right.size() && right[i]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + '\n';
}

std::string aligned_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                          const std::vector<bool>& right, std::string_view indent, bool rule) {
    std::vector<size_t> width = table_widths(header, rows);
    std::string text = table_line(header, width, right, indent);
    if (rule) {
        text += indent;
        for (size_t i = 0; i < header.size(); ++i) text += (i ? "  " : "") + std::string(width[i], '-');
        text += '\n';
    }
    for (const auto& r : rows) text += table_line(r, width, right, indent);
    return text;
}

std::string markdown_table_header(const std::vector<std::string>& names, const std::vector<bool>& right) {
    std::string s = "|";
    for (const std::string& n : names) s += " " + markdown_text(n) + " |";
    s += "\n|";
    for (size_t i = 0; i < names.size(); ++i) s += i < right.size() && right[i] ? "---:|" : "---|";
    return s + "\n";
}

std::string markdown_table_row(const std::vector<std::string>& cells) {
    std::string s = "|";
    for (const std::string& c : cells) s += " " + markdown_text(c) + " |";
    return s + "\n";
}

std::string csv_text_cell(std::string_view s) {
    bool formula = !s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos;
    if (formula) {
        // A plain number ("-5", "+1e3") is data, not a formula.
        std::string text(s);
        char* end = nullptr;
        std::strtod(text.c_str(), &end);
        if (end && *end == '\0' && end != text.c_str() && s.front() != '\t' && s.front() != '\r') formula = false;
    }
    return csv_quote(formula ? "'" + std::string(s) : std::string(s));
}

std::string markdown_text(std::string_view s) {
    return escape_chars(terminal_text(s, true),
                        {{'|', "\\|"}, {'\n', " "}, {'<', "&lt;"}, {'>', "&gt;"}, {'&', "&amp;"}});
}

std::string terminal_text(std::string_view s, bool keep_newlines) {
    std::string out;
    out.reserve(s.size());
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && c != '\t' && !(c == '\n' && keep_newlines)) || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, c == '\n' ? "\\n" : "\\x%02X", c);
            out += buf;
        } else {
            out += ch;
        }
    }
    return out;
}

RowFormat parse_row_format(std::string_view name) {
    for (const FormatRow& f : kFormats)
        if (f.name == name) return f.format;
    throw UsageError("unknown format '" + std::string(name) + "' (known: " + row_format_names() + ")");
}

std::string row_format_names() {
    std::string s;
    for (const FormatRow& f : kFormats) s += (s.empty() ? "" : ", ") + std::string(f.name);
    return s;
}

RowFormat default_row_format(const Output& out) { return out.is_terminal() ? RowFormat::table : RowFormat::jsonl; }

std::string exact_number(double v) {
    if (!std::isfinite(v)) return "null";
    if (v == std::floor(v) && std::fabs(v) < 9e15) return std::to_string(static_cast<int64_t>(v));
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string human_number(double v) {
    if (!std::isfinite(v)) return "";
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
    char buf[32];
    double a = std::fabs(v);
    if (a >= 1e15 || (a > 0 && a < 1e-4)) std::snprintf(buf, sizeof buf, "%.4g", v);
    else if (a >= 100) std::snprintf(buf, sizeof buf, "%.1f", v);
    else std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

RowWriter::RowWriter(RowFormat format, Output& out) : format_(format), out_(out) {}

RowWriter::~RowWriter() = default;

void RowWriter::constant_column(std::string name, Cell value) {
    constant_name_ = std::move(name);
    constant_value_ = std::move(value);
}

void RowWriter::columns(std::vector<std::string> names) {
    names_ = std::move(names);
    if (!constant_name_.empty()) names_.push_back(constant_name_);
    numeric_.assign(names_.size(), true);
    widths_.clear();
    header_done_ = false;
}

std::string RowWriter::render(const Cell& c, bool human) const {
    switch (c.type) {
        case Cell::null: return {};
        case Cell::integer: return std::to_string(c.i);
        case Cell::real: return human ? human_number(c.d) : exact_number(c.d);
        case Cell::text:
        case Cell::json: return c.s;
    }
    return {};
}

void RowWriter::write_header() {
    if (header_done_) return;
    header_done_ = true;
    if (format_ == RowFormat::markdown) {
        // Streamed: which columns are numeric is not known yet.
        out_.write(markdown_table_header(names_, {}));
        return;
    }
    bool csv = format_ == RowFormat::csv;
    std::string line;
    for (size_t i = 0; i < names_.size(); ++i)
        line += (i ? (csv ? "," : "\t") : "") + (csv ? csv_text_cell(names_[i]) : tsv_escape(names_[i]));
    line += '\n';
    out_.write(line);
}

void RowWriter::row(const std::vector<Cell>& cells) {
    if (constant_name_.empty()) return write_row(cells);
    std::vector<Cell> with = cells;
    with.resize(names_.size() - 1);
    with.push_back(constant_value_);
    write_row(with);
}

void RowWriter::write_row(const std::vector<Cell>& cells) {
    ++rows_;
    switch (format_) {
        case RowFormat::jsonl: {
            std::string line = "{";
            for (size_t i = 0; i < cells.size() && i < names_.size(); ++i) {
                if (i) line += ',';
                line += json_quote(names_[i]);
                line += ':';
                const Cell& c = cells[i];
                switch (c.type) {
                    case Cell::null: line += "null"; break;
                    case Cell::integer: line += std::to_string(c.i); break;
                    case Cell::real: line += exact_number(c.d); break;
                    case Cell::text: line += json_quote(c.s); break;
                    case Cell::json: line += c.s; break;
                }
            }
            line += "}\n";
            out_.write(line);
            out_.end_record();
            return;
        }
        case RowFormat::csv:
        case RowFormat::tsv: {
            bool csv = format_ == RowFormat::csv;
            write_header();
            std::string line;
            for (size_t i = 0; i < cells.size(); ++i) {
                std::string v = render(cells[i], false);
                bool text = cells[i].type == Cell::text || cells[i].type == Cell::json;
                line += (i ? (csv ? "," : "\t") : "") + (csv ? (text ? csv_text_cell(v) : csv_quote(v)) : tsv_escape(v));
            }
            line += '\n';
            out_.write(line);
            out_.end_record();
            return;
        }
        case RowFormat::markdown: {
            write_header();
            std::vector<std::string> texts;
            for (const Cell& c : cells) texts.push_back(render(c, true));
            out_.write(markdown_table_row(texts));
            out_.end_record();
            return;
        }
        case RowFormat::table: {
            std::vector<std::string> texts;
            for (size_t i = 0; i < cells.size(); ++i) {
                texts.push_back(terminal_text(render(cells[i], true), false));
                if (!widths_.empty()) continue;  // the layout is drawn: it stays
                if (i < numeric_.size() && cells[i].type != Cell::null && !cells[i].is_number()) numeric_[i] = false;
                buffered_bytes_ += texts.back().size();
            }
            if (!widths_.empty()) {
                out_.write(table_line(texts, widths_, numeric_, ""));
                out_.end_record();
                return;
            }
            buffered_.push_back(std::move(texts));
            // Past this many rows or bytes the columns are sized from those
            // and later rows stream in them, so that a result without end (a
            // recursive query stopped only by --timeout) keeps memory flat.
            constexpr size_t kSizingRows = 10000, kSizingBytes = 16 << 20;
            if (buffered_.size() >= kSizingRows || buffered_bytes_ >= kSizingBytes) write_table();
            return;
        }
    }
}

void RowWriter::finish() {
    if (format_ == RowFormat::csv || format_ == RowFormat::tsv || format_ == RowFormat::markdown) {
        // A result with no rows still says what its columns are.
        if (!names_.empty()) write_header();
        return;
    }
    if (format_ == RowFormat::table && widths_.empty()) write_table();
}

void RowWriter::write_table() {
    for (std::string& n : names_) n = terminal_text(n, false);
    widths_ = table_widths(names_, buffered_);
    out_.write(aligned_table(names_, buffered_, numeric_, "", true));
    out_.end_record();
    buffered_.clear();
    buffered_.shrink_to_fit();
    buffered_bytes_ = 0;
}

}  // namespace nx
