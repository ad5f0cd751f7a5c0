// A report as data: headings, facts, cards, tables, bars, findings,
// sparklines and charts, rendered as plain text (terminals: bars and
// sparklines drawn with block characters), markdown, or HTML
// (html_report.h).  Report builders fill a Document once; every output
// format reads the same blocks.
#pragma once

#include <string>
#include <vector>

#include "common/io/output.h"

namespace nx {

struct Fact {
    std::string key;
    std::string value;
};

struct Bar {
    std::string label;
    double fraction = 0;  // 0..1 of the bar's full width
    std::string value;    // text shown after the bar
};

struct TableBlock {
    std::vector<std::string> columns;
    std::vector<bool> numeric;  // right-aligned columns
    // Text, markdown and HTML cut a column's cells to this many characters,
    // ending in an ellipsis (HTML keeps the whole text as the cell's title);
    // 0 or absent: never.  Kernel names run to thousands of characters.
    std::vector<size_t> max_width;
    std::vector<std::vector<std::string>> rows;
};

// A table cell as shown: cut to its column's max_width, `ellipsis` last.
std::string clipped_cell(const TableBlock& t, size_t column, const std::string& text, const char* ellipsis);

struct FindingItem {
    std::string severity;  // info | warn | critical
    std::string rule;
    std::string message;
    std::string action;
};

// A chart for the HTML report (svg_chart.h draws it).  Text and markdown
// show its data as a table, except "timeline", which they draw as one
// sparkline per row (0..100%).
//   line, scatter  series of (x, y); log_x/log_y; x_marks as dashed verticals
//   bars           grouped bars: categories along x, one bar per series
//                  (series[i].y[j] for categories[j]; x unused); labels[j]
//                  is printed on the bar (ratios ...), else the value
//   roofline       points (arithmetic intensity FLOP/B, achieved TFLOP/s) under
//                  the roof min(peak, x * peak / ridge); log-log
//   timeline       one row per series (name = row), y = percent busy per
//                  time bucket, x = bucket start (ns since the profile start)
// Axis labels carry the unit ("latency (us)").
struct ChartSeries {
    std::string name;
    std::vector<double> x, y;
    std::vector<std::string> labels;         // optional per-point text
};
struct ChartBlock {
    std::string kind;      // "line", "scatter", "bars", "roofline", "timeline"
    std::string title, x_label, y_label;
    bool log_x = false, log_y = false;
    std::vector<ChartSeries> series;
    std::vector<double> x_marks;             // vertical markers (tile boundaries ...)
    std::string x_marks_label;               // what the markers are ("tile boundary")
    std::vector<std::string> categories;     // bars / timeline rows
    double ridge = 0;                        // roofline: ridge point (FLOP/B)
    double peak = 0;                         // roofline: peak (TFLOP/s)
};
// A chart of `kind` with its title and axis labels ("" for none).
ChartBlock chart_block(std::string kind, std::string title, std::string x_label, std::string y_label);

struct Block {
    enum Kind { heading, paragraph, facts, cards, table, bars, findings, items, sparkline, chart, html } kind;
    explicit Block(Kind k) : kind(k) {}
    // Only the HTML report shows it (text and markdown already say the same
    // in another block, or cannot draw it).
    bool html_only = false;
    // Only text and markdown show it (the HTML page draws the same as a chart).
    bool text_only = false;
    int level = 1;                     // heading level 1..3
    std::string text;                  // heading text, paragraph; html: the markup itself
    std::vector<Fact> fact_list;
    TableBlock table_data;
    std::vector<Bar> bar_list;
    std::vector<FindingItem> finding_list;
    std::vector<std::string> item_list;
    std::vector<double> series;        // sparkline values
    ChartBlock chart_data;
};

class Document {
public:
    std::string title;
    std::vector<Block> blocks;
    // HTML only: rules added to the page's style sheet, and inline scripts
    // (each allowed by its hash in the page's Content-Security-Policy, so
    // nothing else runs).  A page works without them: they sort tables.
    std::string style;
    std::vector<std::string> scripts;

    void heading(std::string text, int level = 1);
    void paragraph(std::string text);
    void facts(std::vector<Fact> facts);
    // Headline figures as cards (HTML); text and markdown show them as facts.
    void cards(std::vector<Fact> cards);
    void table(TableBlock t);
    void bars(std::vector<Bar> bars);
    void findings(std::vector<FindingItem> f);
    void items(std::vector<std::string> items);
    void sparkline(std::string label, std::vector<double> values);
    void chart(ChartBlock c);
    // Markup only the HTML report shows, as it is: its builder escapes what
    // it takes from profiles (xml_escape).
    void html(std::string markup);
    // Marks the last block as HTML-only.
    void html_only();
    // Marks the last block as text and markdown only.
    void text_only();
};

// Plain text.  `terminal`: block-character bars and sparklines (else ASCII).
void render_text(const Document& doc, Output& out, bool terminal);
void render_markdown(const Document& doc, Output& out);

}  // namespace nx
