#include "common/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/format/units.h"
#include "common/io/char_escape.h"

namespace nx {

namespace {

// Okabe & Ito (2008), "Color Universal Design": blue, orange, bluish green,
// vermillion, reddish purple, sky blue, yellow (last: weak on white), black.
const char* const kPalette[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"};
constexpr int kPaletteSize = sizeof kPalette / sizeof kPalette[0];
const char* const kDashes[] = {"", "7 4", "2 3", "9 3 2 3"};
constexpr int kDashCount = sizeof kDashes / sizeof kDashes[0];
constexpr int kMarkerShapes = 5;  // circle, square, triangle, diamond, cross
constexpr int kPatterns = 5;      // solid, hatch, dots, cross-hatch, horizontal

// Chart geometry (px).
constexpr double kWidth = 760, kHeight = 380;
constexpr double kLeft = 78, kRight = 24, kTop = 44, kBottom = 62;
constexpr double kMarkerSize = 4.5;
constexpr int kLinearTicks = 6;
constexpr size_t kRotateCategoriesAbove = 8;
constexpr double kBarGroupFill = 0.8;  // share of a category's width the bars take
constexpr double kHeadroom = 1.12;     // room above the tallest bar for its label
constexpr double kCharWidth = 6.5;     // of 12px tick text, for fitting labels
constexpr double kMaxLabelDrop = 120;
// Timeline strip geometry.
constexpr double kRowHeight = 22, kStripLabelWidth = 170;
// Horizontal bars and sparklines.
constexpr double kHBarRow = 24, kHBarLabel = 200, kHBarWidth = 320, kHBarValue = 340;
constexpr double kSparkWidth = 160, kSparkHeight = 28;

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    double px_lo = 0, px_hi = 1;  // pixel positions of lo and hi

    double to_px(double v) const {
        double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
        return px_lo + t * (px_hi - px_lo);
    }
    bool valid(double v) const { return std::isfinite(v) && (!log || v > 0); }

    std::vector<double> ticks() const {
        std::vector<double> t;
        if (log) {
            int a = static_cast<int>(std::floor(std::log10(lo) + 1e-9)), b = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
            bool few = b - a <= 2;  // under three decades: 1-2-5 steps read better
            for (int e = a; e <= b; ++e)
                for (double m : few ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
                    double v = m * std::pow(10.0, e);
                    if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back(v);
                }
            return t;
        }
        double step = nice_step((hi - lo) / kLinearTicks);
        for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
            t.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
        return t;
    }

    static double nice_step(double raw) {
        if (!(raw > 0) || !std::isfinite(raw)) return 1;
        double mag = std::pow(10.0, std::floor(std::log10(raw)));
        double f = raw / mag;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
    }
};

// Fits an axis around values (finite; > 0 on log axes).
Axis fit_axis(std::vector<double> v, bool log, bool from_zero) {
    Axis a;
    a.log = log;
    v.erase(std::remove_if(v.begin(), v.end(), [&](double x) { return !a.valid(x); }), v.end());
    if (v.empty()) {
        a.lo = log ? 1 : 0;
        a.hi = log ? 10 : 1;
        return a;
    }
    double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
    if (log) {
        a.lo = std::pow(10.0, std::floor(std::log10(lo)));
        a.hi = std::pow(10.0, std::ceil(std::log10(hi)));
        if (a.hi <= a.lo) a.hi = a.lo * 10;
        return a;
    }
    if (from_zero) lo = std::min(lo, 0.0);
    if (hi == lo) {
        double pad = hi == 0 ? 1 : std::fabs(hi) * 0.1;
        lo -= from_zero && lo == 0 ? 0 : pad;
        hi += pad;
    }
    double step = Axis::nice_step((hi - lo) / kLinearTicks);
    a.lo = std::floor(lo / step) * step;
    a.hi = std::ceil(hi / step) * step;
    return a;
}

std::string color(size_t i) { return kPalette[i % kPaletteSize]; }

std::string marker(size_t series, double x, double y, const std::string& fill, const std::string& title) {
    double r = kMarkerSize;
    std::string t = "<title>" + xml_escape(title) + "</title>";
    std::string common = " class=\"point\" fill=\"" + fill + "\" stroke=\"#fff\" stroke-width=\"1\">" + t;
    switch (series % kMarkerShapes) {
        case 0: return "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r) + "\"" + common + "</circle>";
        case 1:
            return "<rect x=\"" + num(x - r) + "\" y=\"" + num(y - r) + "\" width=\"" + num(2 * r) + "\" height=\"" +
                   num(2 * r) + "\"" + common + "</rect>";
        case 2:
            return "<path d=\"M" + num(x) + " " + num(y - r * 1.2) + "L" + num(x + r * 1.2) + " " + num(y + r) + "L" +
                   num(x - r * 1.2) + " " + num(y + r) + "Z\"" + common + "</path>";
        case 3:
            return "<path d=\"M" + num(x) + " " + num(y - r * 1.3) + "L" + num(x + r * 1.3) + " " + num(y) + "L" +
                   num(x) + " " + num(y + r * 1.3) + "L" + num(x - r * 1.3) + " " + num(y) + "Z\"" + common + "</path>";
        default:
            return "<path d=\"M" + num(x - r) + " " + num(y - r) + "L" + num(x + r) + " " + num(y + r) + "M" + num(x + r) +
                   " " + num(y - r) + "L" + num(x - r) + " " + num(y + r) + "\" class=\"point\" stroke=\"" + fill +
                   "\" stroke-width=\"2.5\" fill=\"none\">" + t + "</path>";
    }
}

// Fill patterns drawn over bar colours, so series differ without colour.
std::string pattern_defs(int id) {
    std::string p = "<defs>";
    const char* shapes[] = {
        "",
        "<path d=\"M0 8L8 0\" stroke=\"#fff\" stroke-width=\"2\"/>",
        "<circle cx=\"4\" cy=\"4\" r=\"1.6\" fill=\"#fff\"/>",
        "<path d=\"M0 8L8 0M0 0L8 8\" stroke=\"#fff\" stroke-width=\"1.4\"/>",
        "<path d=\"M0 4H8\" stroke=\"#fff\" stroke-width=\"2\"/>",
    };
    for (int i = 1; i < kPatterns; ++i)
        p += "<pattern id=\"c" + std::to_string(id) + "p" + std::to_string(i) +
             "\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">" + shapes[i] + "</pattern>";
    return p + "</defs>";
}

std::string svg_open(const ChartBlock& c, double w, double h) {
    return "<svg class=\"chart chart-" + xml_escape(c.kind) + "\" data-kind=\"" + xml_escape(c.kind) +
           "\" viewBox=\"0 0 " + num(w) + " " + num(h) + "\" width=\"" + num(w) + "\" height=\"" + num(h) +
           "\" role=\"img\" aria-label=\"" + xml_escape(c.title) + "\" xmlns=\"http://www.w3.org/2000/svg\">";
}

std::string text(double x, double y, const std::string& s, const std::string& cls, const char* anchor = "middle",
                 const std::string& extra = "") {
    return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" class=\"" + cls + "\" text-anchor=\"" + anchor + "\"" + extra +
           ">" + xml_escape(s) + "</text>";
}

std::string no_data(const std::string& why) {
    return text(kWidth / 2, kHeight / 2, why, "no-data");
}

// Frame, grid lines, ticks and axis titles.
// `extra_bottom`: room added under the plot for rotated category labels.
std::string axes(const Axis& x, const Axis& y, const ChartBlock& c, bool x_ticks = true, double extra_bottom = 0) {
    std::string s = "<g class=\"axis y-axis\">";
    for (double t : y.ticks()) {
        double py = y.to_px(t);
        s += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(kWidth - kRight) + "\" y1=\"" + num(py) + "\" y2=\"" + num(py) +
             "\" class=\"grid\"/>";
        s += text(kLeft - 6, py + 4, tick_label(t), "tick", "end");
    }
    s += text(16, (kTop + kHeight - kBottom) / 2, c.y_label, "axis-title", "middle",
              " transform=\"rotate(-90 16 " + num((kTop + kHeight - kBottom) / 2) + ")\"");
    s += "</g><g class=\"axis x-axis\">";
    if (x_ticks)
        for (double t : x.ticks()) {
            double px = x.to_px(t);
            s += "<line x1=\"" + num(px) + "\" x2=\"" + num(px) + "\" y1=\"" + num(kHeight - kBottom) + "\" y2=\"" +
                 num(kHeight - kBottom + 5) + "\" class=\"tickmark\"/>";
            s += text(px, kHeight - kBottom + 18, tick_label(t), "tick");
        }
    s += text((kLeft + kWidth - kRight) / 2, kHeight + extra_bottom - 14, c.x_label, "axis-title");
    s += "</g><rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(kWidth - kLeft - kRight) +
         "\" height=\"" + num(kHeight - kTop - kBottom) + "\" class=\"frame\"/>";
    return s;
}

// The legend, one row above the plot: swatch (marker, dash or pattern) and name.
// `extra`: lines that are not series (markers, the roof): name and CSS class.
using LegendLines = std::vector<std::pair<std::string, std::string>>;
std::string legend(const std::vector<std::string>& names, const std::string& kind, int id, const LegendLines& extra = {}) {
    std::string s = "<g class=\"legend\">";
    double x = kLeft;
    const double y = 18;
    for (size_t i = 0; i < names.size(); ++i) {
        s += "<g class=\"legend-item\">";
        if (kind == "bars") {
            s += "<rect x=\"" + num(x) + "\" y=\"" + num(y - 9) + "\" width=\"14\" height=\"12\" fill=\"" + color(i) + "\"/>";
            if (i % kPatterns)
                s += "<rect x=\"" + num(x) + "\" y=\"" + num(y - 9) + "\" width=\"14\" height=\"12\" fill=\"url(#c" +
                     std::to_string(id) + "p" + std::to_string(i % kPatterns) + ")\"/>";
        } else {
            if (kind == "line")
                s += "<line x1=\"" + num(x - 4) + "\" x2=\"" + num(x + 18) + "\" y1=\"" + num(y - 3) + "\" y2=\"" +
                     num(y - 3) + "\" stroke=\"" + color(i) + "\" stroke-width=\"2\" stroke-dasharray=\"" +
                     kDashes[i % kDashCount] + "\"/>";
            s += marker(i, x + 7, y - 3, color(i), names[i]);
        }
        s += text(x + 24, y + 1, names[i], "legend-text", "start") + "</g>";
        x += 40 + 7.0 * static_cast<double>(names[i].size());
    }
    for (const auto& [e, cls] : extra) {
        s += "<g class=\"legend-item\"><line x1=\"" + num(x) + "\" x2=\"" + num(x + 18) + "\" y1=\"" + num(y - 3) +
             "\" y2=\"" + num(y - 3) + "\" class=\"" + cls + "\"/>" + text(x + 24, y + 1, e, "legend-text", "start") + "</g>";
        x += 40 + 7.0 * static_cast<double>(e.size());
    }
    return s + "</g>";
}

std::string point_title(const ChartBlock& c, const std::string& series, double x, double y) {
    return (series.empty() ? "" : series + ": ") + (c.x_label.empty() ? "x" : c.x_label) + " " + tick_label(x) + ", " +
           (c.y_label.empty() ? "y" : c.y_label) + " " + format_value(y);
}

std::string x_marks(const ChartBlock& c, const Axis& x) {
    std::string s;
    for (double m : c.x_marks) {
        if (!x.valid(m) || m < x.lo || m > x.hi) continue;
        double px = x.to_px(m);
        s += "<g class=\"x-mark\" data-x=\"" + tick_label(m) + "\"><line x1=\"" + num(px) + "\" x2=\"" + num(px) +
             "\" y1=\"" + num(kTop) + "\" y2=\"" + num(kHeight - kBottom) + "\" class=\"mark-line\"/>" +
             "<title>" + xml_escape((c.x_marks_label.empty() ? std::string("marker") : c.x_marks_label) + " at " + tick_label(m)) +
             "</title>" + text(px + 3, kTop + 12, tick_label(m), "mark-label", "start") + "</g>";
    }
    return s;
}

// The frame the x/y charts (lines, roofline) share: the axes placed on the
// plot area, the SVG opened with them drawn, and the clip path (#c<id>clip)
// that keeps series inside the plot area.
std::string plot_frame(const ChartBlock& c, Axis& x, Axis& y, int id) {
    x.px_lo = kLeft;
    x.px_hi = kWidth - kRight;
    y.px_lo = kHeight - kBottom;
    y.px_hi = kTop;
    return svg_open(c, kWidth, kHeight) + axes(x, y, c) + "<clipPath id=\"c" + std::to_string(id) +
           "clip\"><rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(kWidth - kLeft - kRight) +
           "\" height=\"" + num(kHeight - kTop - kBottom) + "\"/></clipPath>";
}

std::string line_chart(const ChartBlock& c, int id) {
    bool lines = c.kind == "line";
    std::vector<double> xs, ys;
    for (const ChartSeries& s : c.series) {
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            xs.push_back(s.x[i]);
            ys.push_back(s.y[i]);
        }
    }
    for (double m : c.x_marks) xs.push_back(m);
    Axis x = fit_axis(xs, c.log_x, false), y = fit_axis(ys, c.log_y, !c.log_y);
    std::string s = plot_frame(c, x, y, id);
    s += x_marks(c, x);
    size_t drawn = 0;
    std::vector<std::string> names;
    for (size_t k = 0; k < c.series.size(); ++k) {
        const ChartSeries& ser = c.series[k];
        names.push_back(ser.name.empty() ? c.y_label : ser.name);
        std::vector<std::pair<double, double>> pts;
        for (size_t i = 0; i < ser.x.size() && i < ser.y.size(); ++i)
            if (x.valid(ser.x[i]) && y.valid(ser.y[i])) pts.emplace_back(ser.x[i], ser.y[i]);
        if (lines) std::sort(pts.begin(), pts.end());
        s += "<g class=\"series\" data-series=\"" + xml_escape(names.back()) + "\" clip-path=\"url(#c" + std::to_string(id) + "clip)\">";
        if (lines && pts.size() > 1) {
            std::string d;
            for (const auto& [px, py] : pts) d += (d.empty() ? "M" : "L") + num(x.to_px(px)) + " " + num(y.to_px(py));
            s += "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + color(k) + "\" stroke-width=\"2\" stroke-dasharray=\"" +
                 kDashes[k % kDashCount] + "\"/>";
        }
        for (const auto& [px, py] : pts) s += marker(k, x.to_px(px), y.to_px(py), color(k), point_title(c, ser.name, px, py));
        s += "</g>";
        drawn += pts.size();
    }
    LegendLines extra;
    if (!c.x_marks.empty()) extra.emplace_back(c.x_marks_label.empty() ? "marker" : c.x_marks_label, "mark-line");
    s += legend(names, lines ? "line" : "scatter", id, extra);
    if (drawn == 0) s += no_data(c.log_x || c.log_y ? "no positive finite values to plot" : "no values to plot");
    return s + "</svg>";
}

std::string bar_chart(const ChartBlock& c, int id) {
    size_t ncat = c.categories.size();
    for (const ChartSeries& s : c.series) ncat = std::max(ncat, s.y.size());
    std::vector<double> ys;
    for (const ChartSeries& s : c.series)
        for (double v : s.y) ys.push_back(v);
    double top = 0;
    for (double v : ys)
        if (std::isfinite(v)) top = std::max(top, v);
    ys.push_back(top * kHeadroom);
    Axis y = fit_axis(ys, false, true);
    y.px_lo = kHeight - kBottom;
    y.px_hi = kTop;
    Axis x;  // categories: no numeric ticks
    double plot_w = kWidth - kLeft - kRight;
    double cat_w = ncat ? plot_w / static_cast<double>(ncat) : plot_w;
    size_t nser = std::max<size_t>(c.series.size(), 1);
    double bar_w = cat_w * kBarGroupFill / static_cast<double>(nser);
    // Labels wider than their slot are rotated, with room made below.
    size_t longest = 0;
    for (const std::string& cat : c.categories) longest = std::max(longest, cat.size());
    bool rotate = ncat > kRotateCategoriesAbove || static_cast<double>(longest) * kCharWidth > cat_w;
    double extra_bottom = rotate ? std::min(kMaxLabelDrop, static_cast<double>(longest) * kCharWidth / 2) : 0;
    std::string s = svg_open(c, kWidth, kHeight + extra_bottom) + pattern_defs(id) + axes(x, y, c, false, extra_bottom);
    size_t drawn = 0;
    for (size_t j = 0; j < ncat; ++j) {
        double cx = kLeft + cat_w * (static_cast<double>(j) + 0.5);
        std::string label = j < c.categories.size() ? c.categories[j] : std::to_string(j + 1);
        s += rotate ? text(cx, kHeight - kBottom + 14, label, "tick category", "end",
                           " transform=\"rotate(-30 " + num(cx) + " " + num(kHeight - kBottom + 14) + ")\"")
                    : text(cx, kHeight - kBottom + 18, label, "tick category");
    }
    std::vector<std::string> names;
    for (size_t k = 0; k < c.series.size(); ++k) {
        const ChartSeries& ser = c.series[k];
        names.push_back(ser.name.empty() ? c.y_label : ser.name);
        s += "<g class=\"series\" data-series=\"" + xml_escape(names.back()) + "\">";
        for (size_t j = 0; j < ser.y.size(); ++j) {
            double v = ser.y[j];
            std::string cat = j < c.categories.size() ? c.categories[j] : std::to_string(j + 1);
            if (!std::isfinite(v)) continue;
            double x0 = kLeft + cat_w * static_cast<double>(j) + cat_w * (1 - kBarGroupFill) / 2 + bar_w * static_cast<double>(k);
            double y0 = y.to_px(std::max(v, 0.0)), y1 = y.to_px(std::min(v, 0.0));
            std::string title = names.back() + ", " + cat + ": " + format_value(v) +
                                (j < ser.labels.size() && !ser.labels[j].empty() ? " (" + ser.labels[j] + ")" : "");
            std::string rect = "x=\"" + num(x0) + "\" y=\"" + num(y0) + "\" width=\"" + num(std::max(bar_w - 2, 1.0)) +
                               "\" height=\"" + num(std::max(y1 - y0, 0.5)) + "\"";
            s += "<g class=\"bar\"><rect " + rect + " fill=\"" + color(k) + "\"><title>" + xml_escape(title) + "</title></rect>";
            if (k % kPatterns) s += "<rect " + rect + " fill=\"url(#c" + std::to_string(id) + "p" + std::to_string(k % kPatterns) + ")\"/>";
            std::string label = j < ser.labels.size() && !ser.labels[j].empty() ? ser.labels[j] : tick_label(v);
            s += text(x0 + bar_w / 2 - 1, y0 - 4, label, "bar-label") + "</g>";
            ++drawn;
        }
        s += "</g>";
    }
    s += legend(names, "bars", id);
    if (drawn == 0) s += no_data("no values to plot");
    return s + "</svg>";
}

std::string roofline_chart(const ChartBlock& c, int id) {
    bool roof = c.ridge > 0 && c.peak > 0 && std::isfinite(c.ridge) && std::isfinite(c.peak);
    std::vector<double> xs, ys;
    for (const ChartSeries& s : c.series)
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
            if (s.x[i] > 0 && s.y[i] > 0 && std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
                xs.push_back(s.x[i]);
                ys.push_back(s.y[i]);
            }
    if (roof) {
        xs.push_back(c.ridge / 10);
        xs.push_back(c.ridge * 10);
        ys.push_back(c.peak * 2);
        ys.push_back(c.peak / 100);
    }
    Axis x = fit_axis(xs, true, false), y = fit_axis(ys, true, false);
    std::string s = plot_frame(c, x, y, id);
    LegendLines extra;
    if (roof) {
        // Memory roof: TFLOP/s = intensity x bandwidth, bandwidth = peak / ridge.
        double bw = c.peak / c.ridge;
        double x0 = x.lo, y0 = x0 * bw;
        s += "<g clip-path=\"url(#c" + std::to_string(id) + "clip)\"><path class=\"roof\" d=\"M" + num(x.to_px(x0)) + " " +
             num(y.to_px(std::max(y0, y.lo))) + "L" + num(x.to_px(c.ridge)) + " " + num(y.to_px(c.peak)) + "L" +
             num(x.to_px(x.hi)) + " " + num(y.to_px(c.peak)) + "\"><title>roof: min(peak " + xml_escape(format_value(c.peak)) +
             " TFLOP/s, intensity x " + xml_escape(format_value(bw)) + " TB/s)</title></path></g>";
        double rx = x.to_px(c.ridge);
        s += "<g class=\"ridge\" data-x=\"" + tick_label(c.ridge) + "\"><line x1=\"" + num(rx) + "\" x2=\"" + num(rx) +
             "\" y1=\"" + num(kTop) + "\" y2=\"" + num(kHeight - kBottom) + "\" class=\"mark-line\"/>" +
             text(rx + 4, kHeight - kBottom - 8, "ridge " + format_value(c.ridge) + " FLOP/B", "mark-label", "start") + "</g>";
        s += text(x.to_px(x.hi) - 6, y.to_px(c.peak) - 6, "peak " + format_value(c.peak) + " TFLOP/s", "mark-label", "end");
        s += text((kLeft + rx) / 2, kTop + 16, "memory-bound", "region-label");
        s += text((rx + kWidth - kRight) / 2, kTop + 16, "compute-bound", "region-label");
        extra.emplace_back("roof", "roof");
        extra.emplace_back("ridge point", "mark-line");
    }
    std::vector<std::string> names;
    size_t drawn = 0;
    for (size_t k = 0; k < c.series.size(); ++k) {
        const ChartSeries& ser = c.series[k];
        names.push_back(ser.name.empty() ? "achieved" : ser.name);
        s += "<g class=\"series\" data-series=\"" + xml_escape(names.back()) + "\">";
        for (size_t i = 0; i < ser.x.size() && i < ser.y.size(); ++i) {
            if (!(ser.x[i] > 0 && ser.y[i] > 0 && std::isfinite(ser.x[i]) && std::isfinite(ser.y[i]))) continue;
            double px = x.to_px(ser.x[i]), py = y.to_px(ser.y[i]);
            s += marker(k, px, py, color(k),
                        names.back() + ": " + format_value(ser.x[i]) + " FLOP/B, " + format_value(ser.y[i]) + " TFLOP/s");
            std::string label = i < ser.labels.size() && !ser.labels[i].empty() ? ser.labels[i] : names.back();
            s += text(px + 8, py - 8, label, "point-label", "start");
            ++drawn;
        }
        s += "</g>";
    }
    s += legend(names, "scatter", id, extra);
    if (drawn == 0) s += no_data("no achieved point: needs FLOPs, HBM bytes and time");
    else if (!roof) s += text(kWidth / 2, kTop + 16, "no target: no roof or ridge point (give --target)", "no-data");
    return s + "</svg>";
}

std::string timeline_chart(const ChartBlock& c, int) {
    size_t rows = c.series.size(), cols = 0;
    for (const ChartSeries& s : c.series) cols = std::max(cols, s.y.size());
    double plot_w = kWidth - kStripLabelWidth - kRight;
    double h = kTop + kRowHeight * static_cast<double>(rows) + kBottom;
    std::string s = svg_open(c, kWidth, h);
    if (rows == 0 || cols == 0) return s + text(kWidth / 2, h / 2, "no engine activity to show", "no-data") + "</svg>";
    double cell_w = plot_w / static_cast<double>(cols);
    for (size_t r = 0; r < rows; ++r) {
        const ChartSeries& ser = c.series[r];
        double y0 = kTop + kRowHeight * static_cast<double>(r);
        s += "<g class=\"series timeline-row\" data-series=\"" + xml_escape(ser.name) + "\">";
        s += text(kStripLabelWidth - 8, y0 + kRowHeight / 2 + 4, ser.name, "tick", "end");
        for (size_t i = 0; i < ser.y.size(); ++i) {
            double v = std::isfinite(ser.y[i]) ? std::clamp(ser.y[i], 0.0, 100.0) : 0;
            double x0 = kStripLabelWidth + cell_w * static_cast<double>(i);
            // One hue, darker = busier (reads the same in greyscale).
            s += "<rect class=\"cell\" x=\"" + num(x0) + "\" y=\"" + num(y0 + 1) + "\" width=\"" + num(cell_w + 0.3) +
                 "\" height=\"" + num(kRowHeight - 2) + "\" fill=\"#0072B2\" fill-opacity=\"" + num(0.06 + 0.94 * v / 100).substr(0, 4) +
                 "\"><title>" + xml_escape(ser.name + ": " + format_percent(v) +
                                           (i < ser.x.size() ? " at +" + format_ns(ser.x[i]) : "")) +
                 "</title></rect>";
        }
        s += "</g>";
    }
    // Time axis: a few labels from the buckets' start times.
    double axis_y = kTop + kRowHeight * static_cast<double>(rows);
    s += "<g class=\"axis x-axis\">";
    const ChartSeries& first = c.series.front();
    size_t step = std::max<size_t>(1, cols / 5);
    for (size_t i = 0; i < cols && i < first.x.size(); i += step) {
        double px = kStripLabelWidth + cell_w * static_cast<double>(i);
        s += "<line x1=\"" + num(px) + "\" x2=\"" + num(px) + "\" y1=\"" + num(axis_y) + "\" y2=\"" + num(axis_y + 5) +
             "\" class=\"tickmark\"/>" + text(px, axis_y + 18, "+" + format_ns(first.x[i]), "tick");
    }
    s += text(kStripLabelWidth + plot_w / 2, axis_y + 40, c.x_label, "axis-title") + "</g>";
    // Legend: the colour scale.
    s += "<g class=\"legend\">" + text(kStripLabelWidth, 18, "busy:", "legend-text", "start");
    for (int i = 0; i <= 4; ++i) {
        double v = 25.0 * i;
        double x0 = kStripLabelWidth + 44 + 52.0 * i;
        s += "<rect x=\"" + num(x0) + "\" y=\"8\" width=\"14\" height=\"12\" fill=\"#0072B2\" fill-opacity=\"" +
             num(0.06 + 0.94 * v / 100).substr(0, 4) + "\" stroke=\"#999\" stroke-width=\"0.5\"/>" +
             text(x0 + 18, 18, std::to_string(static_cast<int>(v)) + "%", "legend-text", "start");
    }
    return s + "</g></svg>";
}

}  // namespace

std::string xml_escape(const std::string& s) {
    return escape_chars(s, {{'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}});
}

std::string tick_label(double v) {
    if (!std::isfinite(v)) return "";
    double a = std::fabs(v);
    const char* suffix = "";
    if (a >= 1e12) { v /= 1e12; suffix = "T"; }
    else if (a >= 1e9) { v /= 1e9; suffix = "G"; }
    else if (a >= 1e6) { v /= 1e6; suffix = "M"; }
    else if (a >= 1e4) { v /= 1e3; suffix = "k"; }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g%s", v, suffix);
    return buf;
}

std::string chart_svg(const ChartBlock& c, int id) {
    if (c.kind == "bars") return bar_chart(c, id);
    if (c.kind == "roofline") return roofline_chart(c, id);
    if (c.kind == "timeline") return timeline_chart(c, id);
    return line_chart(c, id);  // line, scatter, and anything unknown as points
}

std::string hbars_svg(const std::vector<Bar>& bars, int) {
    double h = kHBarRow * static_cast<double>(bars.size()) + 8;
    double w = kHBarLabel + kHBarWidth + kHBarValue;
    std::string s = "<svg class=\"chart chart-hbars\" data-kind=\"hbars\" viewBox=\"0 0 " + num(w) + " " + num(h) +
                    "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">";
    for (size_t i = 0; i < bars.size(); ++i) {
        const Bar& b = bars[i];
        double f = std::isfinite(b.fraction) ? std::clamp(b.fraction, 0.0, 1.0) : 0;
        double y = 4 + kHBarRow * static_cast<double>(i);
        s += "<g class=\"bar\" data-label=\"" + xml_escape(b.label) + "\">" +
             text(kHBarLabel - 8, y + kHBarRow / 2 + 4, b.label, "tick", "end") + "<rect x=\"" + num(kHBarLabel) +
             "\" y=\"" + num(y + 3) + "\" width=\"" + num(kHBarWidth) + "\" height=\"" + num(kHBarRow - 6) +
             "\" class=\"track\"/><rect x=\"" + num(kHBarLabel) + "\" y=\"" + num(y + 3) + "\" width=\"" +
             num(kHBarWidth * f) + "\" height=\"" + num(kHBarRow - 6) + "\" fill=\"#0072B2\"><title>" +
             xml_escape(b.label + ": " + b.value) + "</title></rect>" +
             text(kHBarLabel + kHBarWidth + 8, y + kHBarRow / 2 + 4, b.value, "bar-value", "start") + "</g>";
    }
    return s + "</svg>";
}

std::string sparkline_svg(const std::vector<double>& values) {
    std::vector<double> v;
    for (double x : values)
        if (std::isfinite(x)) v.push_back(x);
    std::string s = "<svg class=\"sparkline\" viewBox=\"0 0 " + num(kSparkWidth) + " " + num(kSparkHeight) + "\" width=\"" +
                    num(kSparkWidth) + "\" height=\"" + num(kSparkHeight) + "\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">";
    if (v.empty()) return s + "</svg>";
    double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
    std::string d;
    for (size_t i = 0; i < v.size(); ++i) {
        double x = v.size() > 1 ? kSparkWidth * static_cast<double>(i) / static_cast<double>(v.size() - 1) : kSparkWidth / 2;
        double y = hi > lo ? kSparkHeight - 3 - (kSparkHeight - 6) * (v[i] - lo) / (hi - lo) : kSparkHeight / 2;
        d += (d.empty() ? "M" : "L") + num(x) + " " + num(y);
    }
    return s + "<path d=\"" + d + "\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1.5\"/></svg>";
}

}  // namespace nx
