#include "common/report/html_report.h"

#include <string>

#include "common/io/version.h"
#include "common/report/svg_chart.h"
#include "common/report/web_encoding.h"

namespace nx {

namespace {

// Okabe-Ito colours for severities, each with its own symbol and word.
constexpr const char* kStyle = R"CSS(
:root { --fg: #1b1b1b; --muted: #5b5b5b; --line: #d0d0d0; --bg: #ffffff; --panel: #f5f6f8; --blue: #0072B2; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1400px; margin: 0 auto; padding: 24px 28px 48px; }
section.report { border-bottom: 1px solid var(--line); padding-bottom: 24px; margin-bottom: 28px; }
h1 { font-size: 26px; margin: 8px 0 12px; }
h2 { font-size: 19px; margin: 26px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 18px 0 8px; }
p { margin: 6px 0 10px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 18px; margin: 8px 0 12px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 10px 0 16px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 150px; }
.card-key { color: var(--muted); font-size: 13px; text-transform: uppercase; letter-spacing: .04em; }
.card-value { font-size: 22px; font-weight: 600; }
.table-wrap { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 8px 0 14px; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 12px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; }
td.num, th.num, td.fig { white-space: nowrap; }
ul.findings { list-style: none; padding: 0; margin: 8px 0 14px; }
ul.findings li { border-left: 5px solid; padding: 6px 12px; margin: 6px 0; background: var(--panel); border-radius: 0 6px 6px 0; }
li.sev-critical { border-color: #D55E00; }
li.sev-warn { border-color: #E69F00; }
li.sev-info { border-color: #0072B2; }
.sev { font-weight: 700; margin-right: 6px; }
.sev-critical .sev { color: #A34400; }
.sev-warn .sev { color: #8A5D00; }
.sev-info .sev { color: #005A8C; }
.rule { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
.action { color: var(--muted); margin-top: 2px; }
.action::before { content: "\2192  "; }
figure.chart-figure { margin: 12px 0 18px; }
figcaption { font-weight: 600; margin-bottom: 4px; }
svg.chart { width: 100%; height: auto; font-size: 12px; }
svg .tick, svg .legend-text, svg .bar-value { fill: #333; }
svg .axis-title { fill: #222; font-weight: 600; }
svg .grid { stroke: #e6e6e6; }
svg .tickmark { stroke: #777; }
svg .frame { fill: none; stroke: #888; }
svg .mark-line { stroke: #555; stroke-width: 1.2; stroke-dasharray: 5 4; }
svg .mark-label { fill: #444; font-size: 11px; }
svg .region-label { fill: #777; font-style: italic; }
svg .roof { fill: none; stroke: #000; stroke-width: 2.5; }
svg .bar-label, svg .point-label { fill: #222; font-size: 11px; }
svg .no-data { fill: #A34400; font-weight: 600; }
svg .track { fill: #eceff3; }
svg.sparkline { vertical-align: middle; }
.sparkline-row { display: flex; gap: 12px; align-items: center; }
footer { color: var(--muted); font-size: 13px; margin-top: 24px; }
)CSS";

std::string esc(const std::string& s) { return xml_escape(s); }

// A figure in a text column ("~20.9 us (+-6%)", "1 x 4 x 1 = 4", "+28.2%"):
// kept on one line like the numeric columns.
bool looks_like_figure(const std::string& v) {
    constexpr size_t kLongest = 40;
    if (v.empty() || v.size() > kLongest) return false;
    char c = v[0];
    return (c >= '0' && c <= '9') || ((c == '~' || c == '+' || c == '-') && v.size() > 1 && v[1] >= '0' && v[1] <= '9');
}

const char* severity_symbol(const std::string& s) {
    if (s == "critical") return "&#x2716;";  // heavy x
    if (s == "warn") return "&#x25B2;";      // triangle
    return "&#x25CF;";                       // dot
}

std::string page_title(const Document& doc) {
    if (!doc.title.empty()) return doc.title;
    for (const Block& b : doc.blocks)
        if (b.kind == Block::heading && b.level == 1) return "nx report: " + b.text;
    return "nx report";
}

}  // namespace

void render_html(const Document& doc, Output& out) {
    // Scripts run only by their hash: the page's own, nothing else.
    std::string script_sources;
    for (const std::string& script : doc.scripts) script_sources += " " + csp_script_hash(script);
    std::string s;
    s += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:" +
         (script_sources.empty() ? std::string() : "; script-src" + script_sources) +
         "\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"generator\" content=\"nx-report " +
         std::string(nx_version()) + "\"><title>" +
         esc(page_title(doc)) + "</title><style>" + kStyle + doc.style + "</style></head>\n<body><main>\n";
    bool in_section = false;
    int chart_id = 0;
    for (const Block& b : doc.blocks) {
        if (b.text_only) continue;
        switch (b.kind) {
            case Block::heading:
                if (b.level == 1) {
                    if (in_section) s += "</section>\n";
                    s += "<section class=\"report\">";
                    in_section = true;
                }
                s += "<h" + std::to_string(b.level) + ">" + esc(b.text) + "</h" + std::to_string(b.level) + ">\n";
                break;
            case Block::paragraph: s += "<p>" + esc(b.text) + "</p>\n"; break;
            case Block::facts:
                s += "<dl class=\"facts\">";
                for (const Fact& f : b.fact_list) s += "<dt>" + esc(f.key) + "</dt><dd>" + esc(f.value) + "</dd>";
                s += "</dl>\n";
                break;
            case Block::cards:
                s += "<div class=\"cards\">";
                for (const Fact& f : b.fact_list)
                    s += "<div class=\"card\"><div class=\"card-key\">" + esc(f.key) + "</div><div class=\"card-value\">" +
                         esc(f.value) + "</div></div>";
                s += "</div>\n";
                break;
            case Block::table: {
                const TableBlock& t = b.table_data;
                auto cls = [&](size_t i) { return i < t.numeric.size() && t.numeric[i] ? " class=\"num\"" : ""; };
                s += "<div class=\"table-wrap\"><table><thead><tr>";
                for (size_t i = 0; i < t.columns.size(); ++i) s += std::string("<th") + cls(i) + ">" + esc(t.columns[i]) + "</th>";
                s += "</tr></thead><tbody>";
                for (const auto& r : t.rows) {
                    s += "<tr>";
                    for (size_t i = 0; i < r.size(); ++i) {
                        std::string shown = clipped_cell(t, i, r[i], "…");
                        std::string title = shown == r[i] ? "" : " title=\"" + esc(r[i]) + "\"";
                        const char* c = cls(i);
                        if (!*c && looks_like_figure(r[i])) c = " class=\"fig\"";
                        s += std::string("<td") + c + title + ">" + esc(shown) + "</td>";
                    }
                    s += "</tr>";
                }
                s += "</tbody></table></div>\n";
                break;
            }
            case Block::bars: s += "<figure class=\"chart-figure\">" + hbars_svg(b.bar_list, ++chart_id) + "</figure>\n"; break;
            case Block::findings:
                s += "<ul class=\"findings\">";
                for (const FindingItem& f : b.finding_list)
                    s += "<li class=\"finding sev-" + esc(f.severity) + "\"><span class=\"sev\">" +
                         severity_symbol(f.severity) + " " + esc(f.severity) + "</span><span class=\"rule\">" + esc(f.rule) +
                         "</span>: " + esc(f.message) +
                         (f.action.empty() ? "" : "<div class=\"action\">" + esc(f.action) + "</div>") + "</li>";
                s += "</ul>\n";
                break;
            case Block::items:
                s += "<ul>";
                for (const std::string& i : b.item_list) s += "<li>" + esc(i) + "</li>";
                s += "</ul>\n";
                break;
            case Block::sparkline:
                s += "<div class=\"sparkline-row\"><span>" + esc(b.text) + "</span>" + sparkline_svg(b.series) + "</div>\n";
                break;
            case Block::chart:
                s += "<figure class=\"chart-figure\"><figcaption>" + esc(b.chart_data.title) + "</figcaption>" +
                     chart_svg(b.chart_data, ++chart_id) + "</figure>\n";
                break;
            case Block::html: s += b.text + "\n"; break;
        }
    }
    if (in_section) s += "</section>\n";
    s += "<footer>Made by nx-report " + std::string(nx_version()) + ". Works offline: " +
         (doc.scripts.empty() ? "no scripts, no network." : "no network; its only script sorts the tables.") +
         "</footer>\n</main>";
    for (const std::string& script : doc.scripts) s += "<script>" + script + "</script>";
    s += "</body></html>\n";
    out.write(s);
}

}  // namespace nx
