// Unit tests for what the ranks page is built from: base64 and the CSP's
// SHA-256 of a script (web_encoding.h), palette PNGs (png_image.h), profile
// names shortened to what differs (distinct_names.h), the heat map figure
// (heat_map_svg.h), the HTML report's scripts and raw blocks (document.h),
// and the ranks worth reading and the collective-wait map (rank_analysis.h).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/io/output.h"
#include "common/report/distinct_names.h"
#include "common/report/document.h"
#include "common/report/heat_map_svg.h"
#include "common/report/html_report.h"
#include "common/report/png_image.h"
#include "common/report/rank_analysis.h"
#include "common/report/web_encoding.h"
#include "test/unit/render_support.h"

namespace {

std::string hex(const std::array<uint8_t, 32>& d) {
    std::string s;
    char buf[3];
    for (uint8_t b : d) {
        std::snprintf(buf, sizeof buf, "%02x", b);
        s += buf;
    }
    return s;
}

uint32_t u32_at(const std::string& s, size_t at) {
    return uint32_t{static_cast<uint8_t>(s[at])} << 24 | uint32_t{static_cast<uint8_t>(s[at + 1])} << 16 |
           uint32_t{static_cast<uint8_t>(s[at + 2])} << 8 | uint32_t{static_cast<uint8_t>(s[at + 3])};
}

std::string html_of(const nx::Document& d) { return nx::test::rendered(d, "html"); }

TEST(WebEncoding, Base64PadsAsRfc4648Says) {
    EXPECT_EQ(nx::base64(""), "");
    EXPECT_EQ(nx::base64("f"), "Zg==");
    EXPECT_EQ(nx::base64("fo"), "Zm8=");
    EXPECT_EQ(nx::base64("foo"), "Zm9v");
    EXPECT_EQ(nx::base64("foobar"), "Zm9vYmFy");
    EXPECT_EQ(nx::base64(std::string("\xff\x00\x80", 3)), "/wCA");
}

TEST(WebEncoding, Sha256GivesTheFipsVectorsAcrossBlockBoundaries) {
    EXPECT_EQ(hex(nx::sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hex(nx::sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // 56 bytes: the length no longer fits the first block.
    EXPECT_EQ(hex(nx::sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(hex(nx::sha256(std::string(1000000, 'a'))),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(WebEncoding, CspHashIsTheBase64OfTheDigestQuoted) {
    EXPECT_EQ(nx::csp_script_hash("abc"), "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='");
}

TEST(PngImage, WritesASignatureHeaderPaletteAndRowsThatInflateBack) {
    nx::PaletteImage img;
    img.width = 3;
    img.height = 2;
    img.palette = {{255, 0, 0}, {0, 0, 255}};
    img.pixels = {0, 1, 0, 1, 1, 1};
    std::string png = nx::png_bytes(img);
    ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    EXPECT_EQ(u32_at(png, 16), 3u);
    EXPECT_EQ(u32_at(png, 20), 2u);
    EXPECT_EQ(png[24], 8);  // bits
    EXPECT_EQ(png[25], 3);  // palette
    // Every chunk's CRC is its type's and data's.
    size_t at = 8;
    std::string idat;
    while (at < png.size()) {
        uint32_t length = u32_at(png, at);
        std::string typed = png.substr(at + 4, 4 + length);
        EXPECT_EQ(u32_at(png, at + 8 + length),
                  crc32(0, reinterpret_cast<const Bytef*>(typed.data()), static_cast<uInt>(typed.size())));
        if (typed.substr(0, 4) == "IDAT") idat = typed.substr(4);
        at += 12 + length;
    }
    EXPECT_EQ(at, png.size());
    std::string raw(8, '\0');
    uLongf raw_size = raw.size();
    ASSERT_EQ(uncompress(reinterpret_cast<Bytef*>(raw.data()), &raw_size, reinterpret_cast<const Bytef*>(idat.data()),
                         static_cast<uLong>(idat.size())),
              Z_OK);
    EXPECT_EQ(raw_size, 8u);
    EXPECT_EQ(raw, std::string("\0\0\1\0\0\1\1\1", 8));
    EXPECT_EQ(nx::png_data_uri(img).rfind("data:image/png;base64,iVBORw0KGgo", 0), 0u);
}

TEST(PngImage, RefusesPixelsThatDoNotMatchTheSizeOrPalette) {
    nx::PaletteImage img;
    img.width = 2;
    img.height = 1;
    img.palette = {{0, 0, 0}};
    img.pixels = {0};
    EXPECT_THROW(nx::png_bytes(img), nx::Error);
    img.pixels = {0, 1};
    EXPECT_THROW(nx::png_bytes(img), nx::Error);
    img.pixels = {0, 0};
    img.palette.clear();
    EXPECT_THROW(nx::png_bytes(img), nx::Error);
}

TEST(DistinctNames, RuntimePathsKeepTheWordsThatDifferWithTheirLabels) {
    std::vector<std::string> names = {"i-0000000000000000_pid_4000/3418752096_instid_0_vnc_0",
                                      "i-0000000000000000_pid_4000/3418752096_instid_0_vnc_1",
                                      "i-0000000000000057_pid_4872/3418752096_instid_0_vnc_0"};
    std::vector<std::string> out = nx::distinct_names(names);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0], "i-…00_pid_4000…vnc_0");
    EXPECT_EQ(out[1], "i-…00_pid_4000…vnc_1");
    EXPECT_EQ(out[2], "i-…57_pid_4872…vnc_0");
}

TEST(DistinctNames, OneNameOrNamesAllAlikeStayWhole) {
    EXPECT_EQ(nx::distinct_names({"/fsx/job/rank0.json"}), std::vector<std::string>{"/fsx/job/rank0.json"});
    EXPECT_EQ(nx::distinct_names({"a_b", "a_b"}), (std::vector<std::string>{"a_b", "a_b"}));
}

TEST(DistinctNames, NamesOfDifferentShapesLoseTheirCommonPrefixAndSuffixAtAWordsEdge) {
    std::vector<std::string> out =
        nx::distinct_names({"/fsx/job42/traces/worker_rank_3.trace.json", "/fsx/job42/traces/worker_rank_12_retry.trace.json"});
    EXPECT_EQ(out[0], "…3…");
    EXPECT_EQ(out[1], "…12_retry…");
    // Short shared ends stay.
    out = nx::distinct_names({"r_1.json", "r_12_x.json"});
    EXPECT_EQ(out[0], "r_1.json");
    EXPECT_EQ(out[1], "r_12_x.json");
}

TEST(HeatMapSvg, DrawsAnImageAPanelATitleARowAndMarksGroupsAndNoData) {
    nx::HeatMap m;
    m.caption = "ranks <over> time";
    m.rows = {{"rank 0: a", "i-1", "pid 1", "", false}, {"rank 1: b", "i-1", "pid 2", "rank 1 straggler", true},
              {"rank 2: no profile", "", "", "rank 2 no profile", false}};
    nx::HeatPanel p;
    p.title = "compute";
    p.lo_label = "0%";
    p.hi_label = "100%";
    p.ramp = {{255, 255, 255}, {0, 0, 128}};
    p.cells = {{0, 50, 100}, {100, 50, 0}, {NAN, NAN, NAN}};
    m.panels.push_back(p);
    m.ticks = {{0, "0 ns"}, {1, "3 us"}};
    m.no_data_label = "no profile";
    std::string html = nx::heat_map_html(m, 7);
    EXPECT_NE(html.find("<figure class=\"heat-map\" id=\"heat-7\"><figcaption>ranks &lt;over&gt; time</figcaption>"),
              std::string::npos);
    EXPECT_EQ(html.find("<over>"), std::string::npos);
    EXPECT_NE(html.find("<image class=\"panel\" data-panel=\"0\""), std::string::npos);
    EXPECT_NE(html.find("href=\"data:image/png;base64,"), std::string::npos);
    EXPECT_NE(html.find("<title>rank 0: a</title>"), std::string::npos);
    EXPECT_NE(html.find("class=\"mark strong\""), std::string::npos);
    EXPECT_NE(html.find(">rank 1 straggler</text>"), std::string::npos);
    EXPECT_NE(html.find(">rank 2 no profile</text>"), std::string::npos);
    EXPECT_NE(html.find("class=\"group-label\""), std::string::npos);
    EXPECT_NE(html.find("<title>i-1 pid 2</title>"), std::string::npos);
    EXPECT_NE(html.find("no-data-swatch"), std::string::npos);
    EXPECT_EQ(html.find("nan"), std::string::npos);
}

TEST(HtmlReport, AScriptRunsOnlyByItsHashAndHtmlBlocksOnlyInHtml) {
    nx::Document d;
    d.heading("Ranks");
    d.html("<div class=\"x\">raw</div>");
    d.scripts.push_back("document.title='x';");
    d.style = ".x { color: red; }";
    std::string html = html_of(d);
    EXPECT_NE(html.find("script-src " + nx::csp_script_hash("document.title='x';") + "\""), std::string::npos);
    EXPECT_NE(html.find("<script>document.title='x';</script>"), std::string::npos);
    EXPECT_NE(html.find("<div class=\"x\">raw</div>"), std::string::npos);
    EXPECT_NE(html.find(".x { color: red; }</style>"), std::string::npos);
    EXPECT_EQ(html.find("unsafe-inline'; img-src data:; script-src 'unsafe-inline'"), std::string::npos);
    nx::Document plain;
    plain.heading("Profile");
    std::string p = html_of(plain);
    EXPECT_EQ(p.find("<script"), std::string::npos);
    EXPECT_EQ(p.find("script-src"), std::string::npos);
    EXPECT_NE(p.find("no scripts, no network"), std::string::npos);
}

// Ranks with the given totals (us) and collectives: one all_reduce at
// `start` us lasting `dur` us on each.
struct Job {
    std::vector<nx::ProfileEntry> profiles;
    nx::RankAnalysis analyse() {
        nx::RankCapture c;
        for (const nx::ProfileEntry& p : profiles) c.ranks.push_back(&p);
        return nx::analyse_ranks(c);
    }
};
Job job(const std::vector<double>& totals_us, const std::vector<int64_t>& starts_us, const std::vector<int64_t>& durs_us) {
    Job j;
    for (size_t r = 0; r < totals_us.size(); ++r) {
        nx::ProfileEntry p;
        p.info.rank = static_cast<int>(r);
        p.info.name = "rank" + std::to_string(r);
        p.summary.start_ns = 0;
        p.summary.end_ns = static_cast<int64_t>(totals_us[r] * 1000);
        p.summary.metrics.push_back({"total_time", totals_us[r] * 1e-6, true});
        nx::TimeBreakdown b;
        b.span_ns = p.summary.end_ns;
        b.compute_percent.assign(nx::kTimelineBuckets, 50);
        b.collective_percent.assign(nx::kTimelineBuckets, 0);
        p.summary.breakdown = b;
        if (r < starts_us.size())
            p.summary.collectives.push_back({"all_reduce", starts_us[r] * 1000, durs_us[r] * 1000, -1, "", -1, "", -1});
        j.profiles.push_back(std::move(p));
    }
    return j;
}

TEST(RankAnalysis, NotableRanksSayWhyTheStragglerTheFastestTheMedianAndTheSlowOnesAreWorthReading) {
    // Rank 3 arrives last at the all-reduce (the others wait for it); rank 5
    // is the slowest; rank 0 the fastest.
    Job j = job({100, 101, 102, 103, 104, 110, 102, 102}, {10, 10, 10, 30, 10, 10, 10, 10}, {30, 30, 30, 10, 30, 30, 30, 30});
    nx::RankAnalysis a = j.analyse();
    ASSERT_EQ(a.straggler, 3);
    std::vector<nx::NotableRank> n = nx::notable_ranks(a);
    std::map<int, std::vector<std::string>> why;
    for (const nx::NotableRank& k : n) why[a.rows[k.row].rank] = k.why;
    EXPECT_EQ(why[3], (std::vector<std::string>{"straggler", "slow", "waited least"}));
    EXPECT_EQ(why[0], std::vector<std::string>{"fastest"});
    EXPECT_EQ(why[5], std::vector<std::string>{"slow"});
    EXPECT_EQ(why[a.rows[nx::median_row(a)].rank].back(), "median");
    // In rank order, each rank once.
    for (size_t k = 1; k < n.size(); ++k) EXPECT_LT(n[k - 1].row, n[k].row);
}

TEST(RankAnalysis, CollectiveWaitIsDrawnAtTheStartOfEachOperationOnTheRanksThatWait) {
    // 50 us ranks; the all-reduce at 10 us: 30 us on rank 0 (20 us waiting
    // for rank 1), 10 us on rank 1.
    Job j = job({50, 50}, {10, 30}, {30, 10});
    nx::RankAnalysis a = j.analyse();
    double span = 0;
    nx::rank_heat_map(a, 5, span);  // buckets of 10 us
    ASSERT_EQ(span, 50000);
    std::vector<std::vector<double>> wait = nx::rank_wait_map(a, 5, span);
    EXPECT_EQ(wait[0], (std::vector<double>{0, 100, 100, 0, 0}));
    EXPECT_EQ(wait[1], (std::vector<double>{0, 0, 0, 0, 0}));
    EXPECT_EQ(nx::rank_collective_map(a, 5, span)[0], (std::vector<double>{0, 0, 0, 0, 0}));
}

TEST(RankAnalysis, RankRangesJoinRunsAndStopAfterTwenty) {
    EXPECT_EQ(nx::rank_ranges({0, 1, 2, 5, 7, 8}), "0-2, 5, 7-8");
    std::vector<int> many;
    for (int r = 0; r < 100; r += 2) many.push_back(r);
    std::string text = nx::rank_ranges(many);
    EXPECT_EQ(text.substr(text.size() - 13), ", 38 and more");
}

}  // namespace
