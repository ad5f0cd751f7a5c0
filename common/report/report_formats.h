// nx-report's output formats as rows of one table (report_formats.cpp):
// each format's name, the -o extensions that pick it, whether it writes
// records or a document, how its tables of rows are written, and the one
// renderer that draws a document in it.  Adding a format is a row there,
// its renderer, and a test.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/report/document.h"
#include "common/format/row_format.h"

namespace nx {

struct ReportFormat {
    std::string_view name;                     // as --format takes it
    std::vector<std::string_view> aliases;     // other names --format takes ("md")
    std::vector<std::string_view> extensions;  // -o file endings that pick it (".md")
    bool records;                              // rows (findings, runs, metrics), never a document
    RowFormat rows;                            // how a result of rows is written (--rules, record outputs)
    // Draws a report document; null for record formats.
    void (*render)(const Document& doc, Output& out, bool terminal);
};

const std::vector<ReportFormat>& report_formats();
// "text, markdown, html, csv, tsv, jsonl"
std::string report_format_names();

// The format --format names; without one, the one -o's extension picks
// (text when none does); without -o, text on a terminal and jsonl when piped.
// Throws UsageError listing the names for an unknown one.
const ReportFormat& pick_report_format(std::string_view name, std::string_view output_path, bool terminal);

}  // namespace nx
