#include "common/report/document.h"

#include <algorithm>
#include <cmath>

#include "common/format/row_format.h"

namespace nx {

namespace {

constexpr int kBarWidth = 24;
constexpr double kPercentScale = 100.0;

size_t width_of(const std::string& s) { return display_width(s); }
std::string pad(const std::string& s, size_t w, bool right) { return pad_to(s, w, right); }

std::string bar_text(double fraction, bool terminal) {
    fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
    if (!terminal) {
        int n = static_cast<int>(std::lround(fraction * kBarWidth));
        return "[" + std::string(static_cast<size_t>(n), '#') + std::string(static_cast<size_t>(kBarWidth - n), ' ') + "]";
    }
    // Eighths of a cell with the Unicode block elements.
    static const char* kEighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    int eighths = static_cast<int>(std::lround(fraction * kBarWidth * 8));
    std::string s;
    for (int i = 0; i < eighths / 8; ++i) s += "█";
    s += kEighths[eighths % 8];
    int used = eighths / 8 + (eighths % 8 ? 1 : 0);
    s += std::string(static_cast<size_t>(kBarWidth - used), ' ');
    return s;
}

// Scaled to the values' own range, or to [lo, hi] when given (lo < hi).
std::string sparkline_text(const std::vector<double>& v, bool terminal, double lo = 0, double hi = 0) {
    if (v.empty()) return "";
    if (!(lo < hi)) {
        lo = INFINITY;
        hi = -INFINITY;
        for (double x : v)
            if (std::isfinite(x)) {
                lo = std::min(lo, x);
                hi = std::max(hi, x);
            }
    }
    static const char* kTicks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    static const char kAscii[] = "_.-~=^*#";
    std::string s;
    for (double x : v) {
        if (!std::isfinite(x)) {
            s += ' ';  // a gap where there is no value
            continue;
        }
        int level = hi > lo ? static_cast<int>(std::lround((x - lo) / (hi - lo) * 7)) : 3;
        level = std::clamp(level, 0, 7);
        if (terminal) s += kTicks[level];
        else s += kAscii[level];
    }
    return s;
}

// A timeline chart as one 0..100% sparkline per row.
std::string timeline_text(const ChartBlock& c, bool terminal, const std::string& indent) {
    size_t w = 0;
    for (const ChartSeries& s : c.series) w = std::max(w, width_of(s.name));
    std::string out;
    for (const ChartSeries& s : c.series)
        out += indent + pad(s.name, w, false) + "  " + sparkline_text(s.y, terminal, 0, kPercentScale) + "\n";
    return out;
}

std::string table_text(const TableBlock& t, const std::string& indent, bool terminal) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& r : t.rows) {
        rows.emplace_back();
        for (size_t i = 0; i < r.size(); ++i) rows.back().push_back(clipped_cell(t, i, r[i], terminal ? "…" : "..."));
    }
    return aligned_table(t.columns, rows, t.numeric, indent, false);
}

// Names and messages come from profiles: no raw HTML, no control characters.
std::string md_escape(const std::string& s) { return markdown_text(s); }

std::string md_table(const TableBlock& t) {
    std::string s = markdown_table_header(t.columns, t.numeric);
    for (const auto& r : t.rows) {
        std::vector<std::string> cells;
        for (size_t i = 0; i < r.size(); ++i) cells.push_back(clipped_cell(t, i, r[i], "…"));
        s += markdown_table_row(cells);
    }
    return s;
}

// A chart shown as its data where no graphics can be drawn: a row per x
// value (or per category for bars), a column per series; a bar's label
// (a ratio ...) follows its value.
TableBlock chart_as_table(const ChartBlock& c) {
    TableBlock t;
    t.columns = {c.kind == "bars" ? "" : c.x_label.empty() ? "x" : c.x_label};
    t.numeric = {c.kind != "bars"};
    for (const ChartSeries& s : c.series) {
        t.columns.push_back(s.name.empty() ? (c.y_label.empty() ? "y" : c.y_label) : s.name);
        t.numeric.push_back(true);
    }
    if (c.series.empty()) return t;
    // Rows by the first series (series share x in nx charts).
    const ChartSeries& first = c.series[0];
    size_t rows = std::max({first.x.size(), first.y.size(), c.categories.size()});
    char buf[32];
    for (size_t i = 0; i < rows; ++i) {
        std::vector<std::string> row;
        if (i < c.categories.size()) {
            row.push_back(c.categories[i]);
        } else if (i < first.x.size() && std::isfinite(first.x[i])) {
            std::snprintf(buf, sizeof buf, "%.4g", first.x[i]);
            row.push_back(buf);
        } else {
            row.emplace_back();  // no usable x
        }
        for (const ChartSeries& s : c.series) {
            std::string cell;
            if (i < s.y.size() && std::isfinite(s.y[i])) {
                std::snprintf(buf, sizeof buf, "%.4g", s.y[i]);
                cell = buf;
            }
            if (i < s.labels.size() && !s.labels[i].empty()) cell += (cell.empty() ? "" : " ") + ("(" + s.labels[i] + ")");
            row.push_back(cell);
        }
        t.rows.push_back(row);
    }
    return t;
}

const char* severity_mark(const std::string& s, bool terminal) {
    if (s == "critical") return terminal ? "✖" : "!!";
    if (s == "warn") return terminal ? "▲" : "! ";
    return terminal ? "•" : "- ";
}

// A block of `kind` whose `member` holds `value`.
template <class T>
Block block_of(Block::Kind kind, T Block::*member, T value) {
    Block b(kind);
    b.*member = std::move(value);
    return b;
}

}  // namespace

std::string clipped_cell(const TableBlock& t, size_t column, const std::string& text, const char* ellipsis) {
    size_t max = column < t.max_width.size() ? t.max_width[column] : 0;
    if (max == 0 || width_of(text) <= max) return text;
    size_t keep = max > width_of(ellipsis) ? max - width_of(ellipsis) : 0;
    // Cut at a character boundary: after `keep` lead bytes.
    size_t chars = 0, at = 0;
    for (; at < text.size(); ++at) {
        if ((static_cast<unsigned char>(text[at]) & 0xC0) != 0x80 && chars++ == keep) break;
    }
    return text.substr(0, at) + ellipsis;
}

ChartBlock chart_block(std::string kind, std::string title, std::string x_label, std::string y_label) {
    ChartBlock c;
    c.kind = std::move(kind);
    c.title = std::move(title);
    c.x_label = std::move(x_label);
    c.y_label = std::move(y_label);
    return c;
}

void Document::heading(std::string text, int level) {
    Block b = block_of(Block::heading, &Block::text, std::move(text));
    b.level = level;
    blocks.push_back(std::move(b));
}
void Document::paragraph(std::string text) {
    blocks.push_back(block_of(Block::paragraph, &Block::text, std::move(text)));
}
void Document::facts(std::vector<Fact> f) {
    blocks.push_back(block_of(Block::facts, &Block::fact_list, std::move(f)));
}
void Document::cards(std::vector<Fact> f) {
    blocks.push_back(block_of(Block::cards, &Block::fact_list, std::move(f)));
}
void Document::html_only() {
    if (!blocks.empty()) blocks.back().html_only = true;
}

void Document::text_only() {
    if (!blocks.empty()) blocks.back().text_only = true;
}
void Document::table(TableBlock t) {
    blocks.push_back(block_of(Block::table, &Block::table_data, std::move(t)));
}
void Document::bars(std::vector<Bar> bars) {
    blocks.push_back(block_of(Block::bars, &Block::bar_list, std::move(bars)));
}
void Document::findings(std::vector<FindingItem> f) {
    blocks.push_back(block_of(Block::findings, &Block::finding_list, std::move(f)));
}
void Document::items(std::vector<std::string> items) {
    blocks.push_back(block_of(Block::items, &Block::item_list, std::move(items)));
}
void Document::sparkline(std::string label, std::vector<double> values) {
    Block b = block_of(Block::sparkline, &Block::text, std::move(label));
    b.series = std::move(values);
    blocks.push_back(std::move(b));
}
void Document::chart(ChartBlock c) {
    blocks.push_back(block_of(Block::chart, &Block::chart_data, std::move(c)));
}
void Document::html(std::string markup) {
    Block b = block_of(Block::html, &Block::text, std::move(markup));
    b.html_only = true;
    blocks.push_back(std::move(b));
}

void render_text(const Document& doc, Output& out, bool terminal) {
    std::string s;
    bool first = true;
    for (const Block& b : doc.blocks) {
        if (b.html_only) continue;
        switch (b.kind) {
            case Block::heading:
                if (!first) s += "\n";
                if (b.level == 1) {
                    s += b.text + "\n" + std::string(width_of(b.text), '=') + "\n";
                } else {
                    s += b.text + "\n";
                }
                break;
            case Block::paragraph: s += "  " + b.text + "\n"; break;
            case Block::facts:
            case Block::cards: {
                size_t w = 0;
                for (const Fact& f : b.fact_list) w = std::max(w, width_of(f.key));
                for (const Fact& f : b.fact_list) s += "  " + pad(f.key, w, false) + "  " + f.value + "\n";
                break;
            }
            case Block::table: s += table_text(b.table_data, "  ", terminal); break;
            case Block::bars: {
                size_t w = 0;
                for (const Bar& bar : b.bar_list) w = std::max(w, width_of(bar.label));
                for (const Bar& bar : b.bar_list)
                    s += "  " + pad(bar.label, w, false) + "  " + bar_text(bar.fraction, terminal) + "  " + bar.value + "\n";
                break;
            }
            case Block::findings:
                for (const FindingItem& f : b.finding_list) {
                    s += std::string("  ") + severity_mark(f.severity, terminal) + " " + f.severity + "  " + f.rule +
                         ": " + f.message + "\n";
                    if (!f.action.empty()) s += std::string("      ") + (terminal ? "→ " : "-> ") + f.action + "\n";
                }
                break;
            case Block::items:
                for (const std::string& i : b.item_list) s += "  - " + i + "\n";
                break;
            case Block::sparkline: s += "  " + b.text + "  " + sparkline_text(b.series, terminal) + "\n"; break;
            case Block::chart:
                s += "  " + b.chart_data.title + "\n";
                if (b.chart_data.kind == "timeline") s += timeline_text(b.chart_data, terminal, "  ");
                else s += table_text(chart_as_table(b.chart_data), "  ", terminal);
                break;
            case Block::html: break;
        }
        first = false;
    }
    out.write(terminal_text(s, true));  // ESC, CR ... from profile names shown, not obeyed
}

void render_markdown(const Document& doc, Output& out) {
    std::string s;
    for (const Block& b : doc.blocks) {
        if (b.html_only) continue;
        switch (b.kind) {
            case Block::heading: s += std::string(static_cast<size_t>(b.level), '#') + " " + md_escape(b.text) + "\n\n"; break;
            case Block::paragraph: s += md_escape(b.text) + "\n\n"; break;
            case Block::facts:
            case Block::cards:
                for (const Fact& f : b.fact_list) s += "- **" + md_escape(f.key) + "**: " + md_escape(f.value) + "\n";
                s += "\n";
                break;
            case Block::table: s += md_table(b.table_data) + "\n"; break;
            case Block::bars: {
                TableBlock t;
                t.columns = {"", "", ""};
                t.numeric = {false, false, true};
                for (const Bar& bar : b.bar_list)
                    t.rows.push_back({bar.label, "`" + bar_text(bar.fraction, false) + "`", bar.value});
                s += md_table(t) + "\n";
                break;
            }
            case Block::findings:
                for (const FindingItem& f : b.finding_list)
                    s += "- **" + f.severity + "** `" + f.rule + "`: " + md_escape(f.message) +
                         (f.action.empty() ? "" : " — *" + md_escape(f.action) + "*") + "\n";
                s += "\n";
                break;
            case Block::items:
                for (const std::string& i : b.item_list) s += "- " + md_escape(i) + "\n";
                s += "\n";
                break;
            case Block::sparkline: s += "- " + md_escape(b.text) + ": `" + sparkline_text(b.series, false) + "`\n\n"; break;
            case Block::chart:
                s += "**" + md_escape(b.chart_data.title) + "**\n\n";
                if (b.chart_data.kind == "timeline") s += "```\n" + timeline_text(b.chart_data, false, "") + "```\n\n";
                else s += md_table(chart_as_table(b.chart_data)) + "\n";
                break;
            case Block::html: break;
        }
    }
    out.write(terminal_text(s, true));
}

}  // namespace nx
