// test-html_demo FORMAT: renders a hand-made study report (the charts the
// study pipeline emits: latency and TFLOP/s against shape on log axes with
// tile-boundary markers, the pattern comparison as bars, bucket
// recommendations, a latency sparkline) plus charts fed bad values (NaN,
// zeros on log axes, nothing at all), as html, text or markdown.  The Bats
// suite renders it in chromium.
#include <cmath>
#include <cstdio>
#include <string>

#include "common/io/output.h"
#include "common/report/document.h"
#include "common/report/html_report.h"

namespace {

nx::Document study() {
    nx::Document d;
    d.heading("Study: matmul latency (demo data)");
    d.paragraph("Latency of [M,K]x[K,N] bf16 matmuls on the simulator; dashed lines mark tile boundaries (multiples of 128).");
    nx::ChartBlock lat;
    lat.kind = "line";
    lat.title = "Latency against N";
    lat.x_label = "N (columns)";
    lat.y_label = "latency (us)";
    lat.log_x = lat.log_y = true;
    lat.x_marks = {128, 256, 512, 1024, 2048};
    lat.x_marks_label = "tile boundary";
    nx::ChartSeries bf16{"bf16", {}, {}, {}}, fp32{"fp32", {}, {}, {}};
    for (int n = 64; n <= 4096; n *= 2) {
        double tiles = std::ceil(n / 128.0);
        bf16.x.push_back(n);
        bf16.y.push_back(4 + 3.1 * tiles);
        fp32.x.push_back(n);
        fp32.y.push_back(6 + 12.4 * tiles);
    }
    lat.series = {bf16, fp32};
    d.chart(lat);
    nx::ChartBlock tf = lat;
    tf.title = "Throughput against N";
    tf.y_label = "achieved (TFLOP/s)";
    tf.log_y = false;
    for (auto& s : tf.series)
        for (size_t i = 0; i < s.y.size(); ++i) s.y[i] = 2.0 * 1024 * 1024 * s.x[i] / (s.y[i] * 1e-6) / 1e12;
    d.chart(tf);
    d.sparkline("latency as N grows", bf16.y);

    d.heading("Pattern comparison: vmap vs scan vs for-loop", 2);
    nx::ChartBlock bars;
    bars.kind = "bars";
    bars.title = "Median latency by pattern";
    bars.y_label = "latency (us)";
    bars.categories = {"16 iterations", "64 iterations", "256 iterations"};
    bars.series = {{"vmap", {}, {120, 410, 1580}, {"1x", "1x", "1x"}},
                   {"scan", {}, {150, 560, 2240}, {"1.25x", "1.37x", "1.42x"}},
                   {"for-loop", {}, {310, 1190, 4700}, {"2.58x", "2.9x", "2.97x"}}};
    d.chart(bars);
    d.heading("Bucket recommendations", 2);
    nx::TableBlock t;
    t.columns = {"bucket", "sequence lengths", "padding waste"};
    t.numeric = {false, false, true};
    t.rows = {{"128", "1-128", "12.0%"}, {"512", "129-512", "18.5%"}, {"2048", "513-2048", "21.0%"}};
    d.table(t);

    d.heading("Charts with bad values", 2);
    nx::ChartBlock bad;
    bad.kind = "line";
    bad.title = "NaN, zero and negative values on log axes";
    bad.x_label = "N (columns)";
    bad.y_label = "latency (us)";
    bad.log_x = bad.log_y = true;
    bad.x_marks = {0, 128};
    bad.series = {{"partial", {0, 64, 128, NAN, 512}, {5, NAN, 0, 3, 9}, {}}};
    d.chart(bad);
    nx::ChartBlock empty;
    empty.kind = "scatter";
    empty.title = "No data at all";
    empty.x_label = "x (units)";
    empty.y_label = "y (units)";
    d.chart(empty);
    nx::ChartBlock nobars;
    nobars.kind = "bars";
    nobars.title = "Bars without values";
    nobars.y_label = "latency (us)";
    nobars.categories = {"a", "b"};
    nobars.series = {{"s", {}, {NAN, NAN}, {}}};
    d.chart(nobars);
    nx::ChartBlock noroof;
    noroof.kind = "roofline";
    noroof.title = "Roofline without a target";
    noroof.x_label = "arithmetic intensity (FLOP/B)";
    noroof.y_label = "achieved (TFLOP/s)";
    noroof.series = {{"kernel", {40}, {3}, {}}};
    d.chart(noroof);
    return d;
}

}  // namespace

int main(int argc, char** argv) {
    std::string format = argc > 1 ? argv[1] : "html";
    nx::Document d = study();
    nx::Output& out = nx::Output::standard();
    if (format == "html") nx::render_html(d, out);
    else if (format == "text") nx::render_text(d, out, false);
    else if (format == "terminal") nx::render_text(d, out, true);
    else if (format == "markdown") nx::render_markdown(d, out);
    else {
        std::fprintf(stderr, "usage: test-html_demo html|text|terminal|markdown\n");
        return 2;
    }
    out.close();
    return 0;
}
