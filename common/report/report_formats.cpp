// The table of nx-report's output formats (report_formats.h).
#include "common/report/report_formats.h"

#include <algorithm>

#include "common/io/error.h"
#include "common/report/html_report.h"

namespace nx {

namespace {

void render_markdown_doc(const Document& doc, Output& out, bool) { render_markdown(doc, out); }
void render_html_doc(const Document& doc, Output& out, bool) { render_html(doc, out); }

}  // namespace

const std::vector<ReportFormat>& report_formats() {
    static const std::vector<ReportFormat> kFormats = {
        {"text", {}, {}, false, RowFormat::table, render_text},
        {"markdown", {"md"}, {".md"}, false, RowFormat::markdown, render_markdown_doc},
        {"html", {}, {".html", ".htm"}, false, RowFormat::markdown, render_html_doc},
        {"csv", {}, {".csv"}, true, RowFormat::csv, nullptr},
        {"tsv", {}, {".tsv"}, true, RowFormat::tsv, nullptr},
        {"jsonl", {}, {".jsonl", ".json"}, true, RowFormat::jsonl, nullptr},
    };
    return kFormats;
}

std::string report_format_names() {
    std::string names;
    for (const ReportFormat& f : report_formats()) names += (names.empty() ? "" : ", ") + std::string(f.name);
    return names;
}

const ReportFormat& pick_report_format(std::string_view name, std::string_view output_path, bool terminal) {
    const std::vector<ReportFormat>& all = report_formats();
    auto named = [&](std::string_view n) -> const ReportFormat& {
        for (const ReportFormat& f : all)
            if (f.name == n || std::find(f.aliases.begin(), f.aliases.end(), n) != f.aliases.end()) return f;
        throw UsageError("unknown --format '" + std::string(n) + "' (known: " + report_format_names() + ")");
    };
    if (!name.empty()) return named(name);
    if (!output_path.empty()) {
        for (const ReportFormat& f : all)
            for (std::string_view ext : f.extensions)
                if (output_path.ends_with(ext)) return f;
        return named("text");
    }
    return named(terminal ? "text" : "jsonl");
}

}  // namespace nx
