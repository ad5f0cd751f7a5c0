// Rendering rows (common/format/row_format.h) into an Output over a temporary file:
// jsonl, csv, tsv, markdown and the aligned table; number formatting.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/io/output.h"
#include "common/report/natural_order.h"
#include "common/report/report_formats.h"
#include "common/format/row_format.h"

namespace {

using nx::Cell;

// An Output writing to an anonymous temporary file, read back as text.
// Members are destroyed in reverse order: the Output drains before fclose.
class Captured {
public:
    Captured() : file_(std::tmpfile(), &std::fclose), out_(file_.get(), "<test>") {}
    nx::Output& out() { return out_; }
    std::string text() {
        out_.flush();
        std::FILE* f = file_.get();
        std::rewind(f);
        std::string s;
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
        return s;
    }

private:
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
    nx::Output out_;
};

// Renders `rows` under `columns` in `format`.
std::string render(nx::RowFormat format, std::vector<std::string> columns, const std::vector<std::vector<Cell>>& rows) {
    Captured cap;
    nx::RowWriter w(format, cap.out());
    w.columns(std::move(columns));
    for (const auto& r : rows) w.row(r);
    w.finish();
    return cap.text();
}

Cell txt(std::string s) { return Cell::of_text(std::move(s)); }
Cell num(int64_t v) { return Cell::of_int(v); }
Cell real(double v) { return Cell::of_real(v); }

}  // namespace

// ---- jsonl

TEST(RowFormatJsonl, EachCellTypeKeepsItsJsonType) {
    std::string out = render(nx::RowFormat::jsonl, {"i", "r", "t", "n", "j"},
                             {{num(42), real(2.5), txt("a\"b"), Cell{}, Cell::of_json(R"([1,{"x":2}])")}});
    EXPECT_EQ(out, "{\"i\":42,\"r\":2.5,\"t\":\"a\\\"b\",\"n\":null,\"j\":[1,{\"x\":2}]}\n");
}

TEST(RowFormatJsonl, WholeRealsAreWrittenWithoutAFraction) {
    std::string out = render(nx::RowFormat::jsonl, {"r"}, {{real(3.0)}});
    EXPECT_EQ(out, "{\"r\":3}\n");
}

TEST(RowFormatJsonl, NonFiniteRealsAreNull) {
    std::string out = render(nx::RowFormat::jsonl, {"r"}, {{real(std::numeric_limits<double>::quiet_NaN())}});
    EXPECT_EQ(out, "{\"r\":null}\n");
}

TEST(RowFormatJsonl, EmptyResultWritesNothing) {
    EXPECT_EQ(render(nx::RowFormat::jsonl, {"a", "b"}, {}), "");
}

TEST(RowFormatJsonl, OneLinePerRow) {
    std::string out = render(nx::RowFormat::jsonl, {"k"}, {{num(1)}, {num(2)}});
    EXPECT_EQ(out, "{\"k\":1}\n{\"k\":2}\n");
}

// ---- csv

TEST(RowFormatCsv, QuotesFieldsWithCommasQuotesAndNewlines) {
    std::string out = render(nx::RowFormat::csv, {"name", "value", "note"},
                             {{txt("a,b"), num(1), txt("say \"hi\"")}, {txt("plain"), real(2.5), txt("line\nbreak")}});
    EXPECT_EQ(out,
              "name,value,note\n"
              "\"a,b\",1,\"say \"\"hi\"\"\"\n"
              "plain,2.5,\"line\nbreak\"\n");
}

TEST(RowFormatCsv, NullIsAnEmptyField) {
    EXPECT_EQ(render(nx::RowFormat::csv, {"a", "b", "c"}, {{num(1), Cell{}, num(3)}}), "a,b,c\n1,,3\n");
}

TEST(RowFormatCsv, EmptyResultStillPrintsTheHeader) {
    EXPECT_EQ(render(nx::RowFormat::csv, {"a", "b"}, {}), "a,b\n");
}

TEST(RowFormatCsv, HeaderNamesAreQuotedToo) {
    EXPECT_EQ(render(nx::RowFormat::csv, {"x,y"}, {}), "\"x,y\"\n");
}

// ---- tsv

TEST(RowFormatTsv, EscapesTabsNewlinesAndBackslashes) {
    std::string out = render(nx::RowFormat::tsv, {"a", "b", "c"}, {{txt("x\ty"), txt("c:\\d"), txt("e\nf\r")}});
    EXPECT_EQ(out, "a\tb\tc\nx\\ty\tc:\\\\d\te\\nf\\r\n");
}

TEST(RowFormatTsv, EmptyResultStillPrintsTheHeader) {
    EXPECT_EQ(render(nx::RowFormat::tsv, {"a", "b"}, {}), "a\tb\n");
}

// ---- markdown

TEST(RowFormatMarkdown, HeaderSeparatorAndEscapedPipes) {
    std::string out = render(nx::RowFormat::markdown, {"a", "b|c"}, {{num(1), txt("x|y")}});
    EXPECT_EQ(out,
              "| a | b\\|c |\n"
              "|---|---|\n"
              "| 1 | x\\|y |\n");
}

TEST(RowFormatMarkdown, NewlinesBecomeSpacesHtmlIsEscapedAndRealsAreRounded) {
    std::string out = render(nx::RowFormat::markdown, {"t", "r"}, {{txt("one\ntwo <b>&"), real(1234.5678)}});
    EXPECT_EQ(out, "| t | r |\n|---|---|\n| one two &lt;b&gt;&amp; | 1234.6 |\n");
}

TEST(RowFormatMarkdown, EmptyResultStillPrintsTheHeader) {
    EXPECT_EQ(render(nx::RowFormat::markdown, {"a"}, {}), "| a |\n|---|\n");
}

// ---- table

TEST(RowFormatTable, NumbersAreRightAlignedAndTextLeftAligned) {
    // Widths: name = max(4, 5, 1) = 5; count = max(5, 1, 3) = 5.
    std::string out = render(nx::RowFormat::table, {"name", "count"}, {{txt("alpha"), num(5)}, {txt("b"), num(123)}});
    EXPECT_EQ(out,
              "name   count\n"
              "-----  -----\n"
              "alpha      5\n"
              "b        123\n");
}

TEST(RowFormatTable, TrailingSpacesAreTrimmed) {
    // The last column is text: short cells are not padded out.
    std::string out = render(nx::RowFormat::table, {"n", "label"}, {{num(1), txt("x")}, {num(22), txt("longer")}});
    EXPECT_EQ(out,
              " n  label\n"
              "--  ------\n"
              " 1  x\n"
              "22  longer\n");
}

TEST(RowFormatTable, ATextCellMakesTheColumnLeftAligned) {
    std::string out = render(nx::RowFormat::table, {"v"}, {{num(1)}, {txt("abc")}});
    EXPECT_EQ(out, "v\n---\n1\nabc\n");
}

TEST(RowFormatTable, NullsDoNotChangeAlignment) {
    // Nulls print as nothing; the column stays numeric.
    std::string out = render(nx::RowFormat::table, {"value"}, {{Cell{}}, {num(7)}});
    EXPECT_EQ(out, "value\n-----\n\n    7\n");
}

TEST(RowFormatTable, Utf8TextIsMeasuredInCharacters) {
    // "\xC3\xA9t\xC3\xA9" is 3 characters (5 bytes): padded to 4 like "abcd".
    std::string out = render(nx::RowFormat::table, {"w", "n"}, {{txt("\xC3\xA9t\xC3\xA9"), num(1)}, {txt("abcd"), num(2)}});
    EXPECT_EQ(out,
              "w     n\n"
              "----  -\n"
              "\xC3\xA9t\xC3\xA9   1\n"
              "abcd  2\n");
}

TEST(RowFormatTable, EmptyResultPrintsHeaderAndRule) {
    EXPECT_EQ(render(nx::RowFormat::table, {"a", "bb"}, {}), "a  bb\n-  --\n");
}

// ---- names

TEST(RowFormatTable, PastTenThousandRowsTheRestStreamInTheColumnsTheFirstSized) {
    // A result without end (a recursive query) must not be held whole: the
    // first 10,000 rows size the columns, the writer lets them go, and later
    // rows come out as they are given, before finish().
    Captured cap;
    nx::RowWriter w(nx::RowFormat::table, cap.out());
    w.columns({"n", "name"});
    for (int i = 0; i < 9999; ++i) w.row({num(i), txt("ab")});
    EXPECT_EQ(cap.text(), "");  // still sizing
    w.row({num(9999), txt("ab")});
    std::string head = cap.text();
    EXPECT_EQ(head.substr(0, 31), "   n  name\n" "----  ----\n" "   0  ab\n");
    EXPECT_NE(head.find("9999  ab\n"), std::string::npos);
    // Later rows keep those widths, a wider cell pushing its line out.
    w.row({num(123456), txt("a longer name")});
    w.finish();
    std::string all = cap.text();
    EXPECT_EQ(all.substr(head.size()), "123456  a longer name\n");
}

TEST(RowFormatTable, SixteenMebibytesOfCellsAlsoEndTheSizing) {
    Captured cap;
    nx::RowWriter w(nx::RowFormat::table, cap.out());
    w.columns({"t"});
    std::string big(1 << 20, 'x');
    for (int i = 0; i < 15; ++i) w.row({txt(big)});
    EXPECT_EQ(cap.text(), "");
    w.row({txt(big)});
    // "t", a rule as wide as a cell, and the 16 rows.
    EXPECT_EQ(cap.text().size(), 2 + ((1 << 20) + 1) + 16 * ((1 << 20) + 1));
}

TEST(RowFormatNames, ParsesEveryFormatName) {
    EXPECT_EQ(nx::parse_row_format("jsonl"), nx::RowFormat::jsonl);
    EXPECT_EQ(nx::parse_row_format("table"), nx::RowFormat::table);
    EXPECT_EQ(nx::parse_row_format("csv"), nx::RowFormat::csv);
    EXPECT_EQ(nx::parse_row_format("tsv"), nx::RowFormat::tsv);
    EXPECT_EQ(nx::parse_row_format("markdown"), nx::RowFormat::markdown);
    EXPECT_EQ(nx::row_format_names(), "jsonl, table, csv, tsv, markdown");
}

TEST(RowFormatNames, UnknownNameIsAUsageErrorListingTheKnownOnes) {
    try {
        nx::parse_row_format("xml");
        FAIL() << "no error";
    } catch (const nx::UsageError& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("'xml'"), std::string::npos) << m;
        EXPECT_NE(m.find("jsonl, table, csv, tsv, markdown"), std::string::npos) << m;
    }
}

TEST(RowFormatNames, AFileIsNotATerminalSoTheDefaultIsJsonl) {
    Captured cap;
    EXPECT_EQ(nx::default_row_format(cap.out()), nx::RowFormat::jsonl);
}

// ---- numbers

TEST(HumanNumber, WholeNumbersPrintWhole) {
    EXPECT_EQ(nx::human_number(3.0), "3");
    EXPECT_EQ(nx::human_number(-7.0), "-7");
    EXPECT_EQ(nx::human_number(0.0), "0");
    EXPECT_EQ(nx::human_number(123456789012.0), "123456789012");
}

TEST(HumanNumber, RealsAreRounded) {
    EXPECT_EQ(nx::human_number(3.14159265), "3.142");     // 4 significant digits below 100
    EXPECT_EQ(nx::human_number(1234.5678), "1234.6");     // one decimal from 100 up
    EXPECT_EQ(nx::human_number(-0.5), "-0.5");
    EXPECT_EQ(nx::human_number(0.0000125), "1.25e-05");  // tiny values in exponent form
}

TEST(HumanNumber, LargeRealsAvoidExponentsBelow1e15) {
    EXPECT_EQ(nx::human_number(25000000000000.5), "25000000000000.5");
    EXPECT_EQ(nx::human_number(1e15), "1e+15");
}

TEST(HumanNumber, NonFiniteIsEmpty) {
    EXPECT_EQ(nx::human_number(std::numeric_limits<double>::quiet_NaN()), "");
    EXPECT_EQ(nx::human_number(std::numeric_limits<double>::infinity()), "");
}

TEST(ExactNumber, ShortestTextThatReadsBack) {
    EXPECT_EQ(nx::exact_number(3.0), "3");
    EXPECT_EQ(nx::exact_number(0.1), "0.1");
    EXPECT_EQ(nx::exact_number(1.0 / 3), "0.3333333333333333");
    EXPECT_EQ(nx::exact_number(1e20), "1e+20");
    EXPECT_EQ(std::stod(nx::exact_number(2.0 / 3)), 2.0 / 3);
}

TEST(ExactNumber, NonFiniteIsNull) {
    EXPECT_EQ(nx::exact_number(std::numeric_limits<double>::quiet_NaN()), "null");
    EXPECT_EQ(nx::exact_number(-std::numeric_limits<double>::infinity()), "null");
}

// nx-report's formats are one table: --format, then -o's extension, then the terminal.

TEST(ReportFormats, PickedByNameExtensionOrTerminal) {
    EXPECT_EQ(nx::pick_report_format("md", "", true).name, "markdown");
    EXPECT_EQ(nx::pick_report_format("", "out/report.htm", false).name, "html");
    EXPECT_EQ(nx::pick_report_format("", "runs.json", true).name, "jsonl");
    EXPECT_EQ(nx::pick_report_format("", "notes.txt", false).name, "text");
    EXPECT_EQ(nx::pick_report_format("", "", true).name, "text");
    EXPECT_EQ(nx::pick_report_format("", "", false).name, "jsonl");
    EXPECT_THROW(nx::pick_report_format("pdf", "", true), nx::UsageError);
    for (const nx::ReportFormat& f : nx::report_formats()) EXPECT_EQ(f.records, f.render == nullptr) << f.name;
}

TEST(ReportFormats, DocumentTablesAndRowTablesShareOneLayout) {
    std::string t = nx::aligned_table({"name", "n"}, {{"a", "10"}, {"bbb", "2"}}, {false, true}, "  ", false);
    EXPECT_EQ(t, "  name   n\n  a     10\n  bbb    2\n");
    std::string r = nx::aligned_table({"name", "n"}, {{"a", "10"}}, {false, true}, "", true);
    EXPECT_EQ(r, "name   n\n----  --\na     10\n");
    EXPECT_EQ(nx::markdown_table_header({"a", "b"}, {false, true}), "| a | b |\n|---|---:|\n");
    EXPECT_EQ(nx::markdown_table_row({"x|y", "<b>"}), "| x\\|y | &lt;b&gt; |\n");
}

TEST(NaturalOrder, ShapesSortByTheirNumbers) {
    EXPECT_TRUE(nx::natural_less("mm_128x512", "mm_1024x512"));
    EXPECT_FALSE(nx::natural_less("mm_1024x512", "mm_128x512"));
    EXPECT_TRUE(nx::natural_less("512x512x511", "512x512x1023"));
    EXPECT_TRUE(nx::natural_less("a", "ab"));
    EXPECT_FALSE(nx::natural_less("abc", "abc"));
    EXPECT_TRUE(nx::natural_less("x9", "x010"));
    EXPECT_TRUE(nx::natural_less("mm_1x", "mm_a"));
}
