// Unit tests for the report's HTML and SVG rendering: escaping, tick
// labels, bad values (NaN, zeros on log axes, empty series), HTML-only
// blocks and the text rendering of charts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <string>

#include "common/io/output.h"
#include "common/report/document.h"
#include "common/report/html_report.h"
#include "common/report/svg_chart.h"
#include "test/unit/render_support.h"

namespace {

std::string render(const nx::Document& d, const char* format) { return nx::test::rendered(d, format); }

bool has_nan_or_inf(const std::string& svg) {
    return std::regex_search(svg, std::regex("[^a-z](nan|inf)[^a-z]", std::regex::icase));
}

TEST(SvgChart, TickLabelsAreShortAndExact) {
    EXPECT_EQ(nx::tick_label(0), "0");
    EXPECT_EQ(nx::tick_label(0.5), "0.5");
    EXPECT_EQ(nx::tick_label(128), "128");
    EXPECT_EQ(nx::tick_label(4096), "4096");
    EXPECT_EQ(nx::tick_label(10000), "10k");
    EXPECT_EQ(nx::tick_label(1.5e6), "1.5M");
    EXPECT_EQ(nx::tick_label(2e9), "2G");
    EXPECT_EQ(nx::tick_label(NAN), "");
}

TEST(SvgChart, EscapesMarkup) { EXPECT_EQ(nx::xml_escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"); }

TEST(SvgChart, LogAxesLeaveOutZerosNegativesAndNaNAndSaySoWhenNothingIsLeft) {
    nx::ChartBlock c;
    c.kind = "line";
    c.title = "t";
    c.log_x = c.log_y = true;
    c.series = {{"s", {0, -1, NAN, 10}, {1, 2, 3, 0}, {}}};
    std::string svg = nx::chart_svg(c, 1);
    EXPECT_FALSE(has_nan_or_inf(svg)) << svg;
    EXPECT_NE(svg.find("no positive finite values to plot"), std::string::npos);
    c.series[0].y[3] = 5;  // (10, 5) is drawable
    svg = nx::chart_svg(c, 1);
    EXPECT_EQ(svg.find("no positive finite values"), std::string::npos);
    EXPECT_EQ(std::regex_search(svg, std::regex("class=\"point\"")), true);
}

TEST(SvgChart, EveryKindDrawsAxesAndALegendAndSurvivesEmptyInput) {
    for (const char* kind : {"line", "scatter", "bars", "roofline", "timeline"}) {
        nx::ChartBlock c;
        c.kind = kind;
        c.title = kind;
        std::string empty = nx::chart_svg(c, 2);
        EXPECT_NE(empty.find("<svg class=\"chart chart-" + std::string(kind)), std::string::npos) << kind;
        EXPECT_NE(empty.find("class=\"no-data\""), std::string::npos) << kind;
        EXPECT_FALSE(has_nan_or_inf(empty)) << kind;
        c.series = {{"a", {1, 2, 3}, {10, 20, 30}, {}}, {"b", {1, 2, 3}, {15, 25, 35}, {}}};
        c.categories = {"x", "y", "z"};
        c.ridge = 2;  // the roofline also needs the target's figures
        c.peak = 100;
        std::string full = nx::chart_svg(c, 3);
        EXPECT_EQ(full.find("class=\"no-data\""), std::string::npos) << kind;
        EXPECT_NE(full.find("class=\"legend"), std::string::npos) << kind;
        EXPECT_FALSE(has_nan_or_inf(full)) << kind;
    }
}

TEST(SvgChart, RooflineDrawsTheRoofAndRidgeOnlyWithATarget) {
    nx::ChartBlock c;
    c.kind = "roofline";
    c.series = {{"k", {40}, {3}, {}}};
    std::string no_target = nx::chart_svg(c, 4);
    EXPECT_EQ(no_target.find("class=\"roof\""), std::string::npos);
    EXPECT_NE(no_target.find("no target"), std::string::npos);
    c.ridge = 223.8;
    c.peak = 91.75;
    std::string svg = nx::chart_svg(c, 4);
    EXPECT_NE(svg.find("class=\"roof\""), std::string::npos);
    EXPECT_NE(svg.find("class=\"ridge\" data-x=\"223.8\""), std::string::npos);
}

TEST(HtmlReport, EscapesTextAndNeedsNoNetwork) {
    nx::Document d;
    d.heading("Profile <script>alert(1)</script>");
    d.paragraph("a & b");
    std::string html = render(d, "html");
    EXPECT_EQ(html.find("<script>"), std::string::npos);
    EXPECT_NE(html.find("Profile &lt;script&gt;"), std::string::npos);
    EXPECT_NE(html.find("<p>a &amp; b</p>"), std::string::npos);
    EXPECT_EQ(html.find(" src="), std::string::npos);
    EXPECT_EQ(html.find("href="), std::string::npos);
}

TEST(Document, HtmlOnlyBlocksAreLeftOutOfTextAndMarkdownAndCardsReadAsFacts) {
    nx::Document d;
    d.cards({{"MFU", "12.0%"}});
    d.paragraph("only in html");
    d.html_only();
    std::string text = render(d, "text"), md = render(d, "markdown"), html = render(d, "html");
    EXPECT_NE(text.find("MFU  12.0%"), std::string::npos);
    EXPECT_EQ(text.find("only in html"), std::string::npos);
    EXPECT_EQ(md.find("only in html"), std::string::npos);
    EXPECT_NE(html.find("only in html"), std::string::npos);
    EXPECT_NE(html.find("class=\"card\""), std::string::npos);
}

TEST(Document, TimelineChartsAreSparklinesOnAFixedScaleInText) {
    nx::Document d;
    nx::ChartBlock c;
    c.kind = "timeline";
    c.title = "activity";
    c.series = {{"Vector", {0, 1, 2, 3}, {0, 100, 50, NAN}, {}}};
    d.chart(c);
    EXPECT_NE(render(d, "terminal").find("Vector  ▁█▅ "), std::string::npos) << render(d, "terminal");
    EXPECT_NE(render(d, "text").find("Vector  _#= "), std::string::npos) << render(d, "text");
}

TEST(Document, LongCellsAreClippedInTextMarkdownAndHtmlWhichKeepsTheWholeTextAsATitle) {
    // A 10-character column: 9 characters and "…", or 7 and "..." (piped
    // text); "é" is one character, not two bytes.
    nx::TableBlock t;
    t.columns = {"n", "name"};
    t.numeric = {true, false};
    t.max_width = {0, 10};
    t.rows = {{"1", "ééééé<6789abcdef"}, {"2", "short"}};
    EXPECT_EQ(nx::clipped_cell(t, 1, t.rows[0][1], "…"), "ééééé<678…");
    EXPECT_EQ(nx::clipped_cell(t, 1, "0123456789", "…"), "0123456789");  // fits exactly
    EXPECT_EQ(nx::clipped_cell(t, 0, "123456789012", "…"), "123456789012");  // no limit
    nx::Document d;
    d.table(t);
    EXPECT_NE(render(d, "text").find("1  ééééé<6...\n"), std::string::npos) << render(d, "text");
    EXPECT_NE(render(d, "terminal").find("1  ééééé<678…\n"), std::string::npos) << render(d, "terminal");
    EXPECT_NE(render(d, "markdown").find("| 1 | ééééé&lt;678… |"), std::string::npos) << render(d, "markdown");
    std::string html = render(d, "html");
    EXPECT_NE(html.find("<td title=\"ééééé&lt;6789abcdef\">ééééé&lt;678…</td>"), std::string::npos) << html;
    EXPECT_NE(html.find("<td>short</td>"), std::string::npos);
}

}  // namespace
