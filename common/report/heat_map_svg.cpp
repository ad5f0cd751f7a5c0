#include "common/report/heat_map_svg.h"

#include <algorithm>
#include <cmath>

#include "common/report/png_image.h"
#include "common/report/svg_chart.h"

namespace nx {

const char* const kHeatMapStyle = R"CSS(
figure.heat-map { margin: 12px 0 18px; }
figure.heat-map svg { width: 100%; height: auto; display: block; font-size: 12px; }
figure.heat-map .panel-title { fill: #222; font-weight: 600; }
figure.heat-map .legend-text, figure.heat-map .tick, figure.heat-map .group-label { fill: #444; }
figure.heat-map .group-label { font-size: 10px; }
figure.heat-map .axis-title { fill: #222; }
figure.heat-map .g0 { fill: #9aa5b1; } figure.heat-map .g1 { fill: #d5dbe1; }
figure.heat-map .s0 { fill: #b8c2cc; } figure.heat-map .s1 { fill: #e9edf1; }
figure.heat-map .sep { stroke: #fff; stroke-width: 1; }
figure.heat-map .tickmark, figure.heat-map .leader { stroke: #777; }
figure.heat-map .frame { fill: none; stroke: #888; }
figure.heat-map .mark { fill: #0072B2; } figure.heat-map .mark.strong { fill: #D55E00; }
figure.heat-map .mark-label { fill: #005A8C; font-size: 11px; } figure.heat-map .mark-label.strong { fill: #A34400; font-weight: 700; }
figure.heat-map .hits rect { fill: transparent; }
figure.heat-map .hits rect:hover { fill: rgba(0, 0, 0, .18); }
)CSS";

namespace {

// The drawing's units: the SVG scales to the page, and at 1280 px a unit is
// about a pixel, so each panel's image is drawn at its displayed size.
constexpr int kWidth = 1200;
constexpr int kLeft = 150;         // group labels and bands
constexpr int kMarkMargin = 150;   // marks and their labels
constexpr int kPlainMargin = 10;
constexpr int kGap = 16;           // between panels
constexpr int kTop = 30;           // panel titles and scales
constexpr int kBottom = 40;        // the axis and its title
constexpr int kLevels = 64;        // colours of a panel's scale
constexpr int kLabelStep = 12;     // the least distance between two labels

// A row's height: readable rows for a few ranks, a thin one each for
// thousands, the picture's height bounded where it can be.
int row_height(size_t rows) {
    if (rows <= 16) return 18;
    return std::clamp(static_cast<int>(640 / rows), 1, 18);
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

std::array<uint8_t, 3> ramp_colour(const std::vector<std::array<uint8_t, 3>>& ramp, double t) {
    if (ramp.size() == 1) return ramp[0];
    double at = std::clamp(t, 0.0, 1.0) * static_cast<double>(ramp.size() - 1);
    size_t i = std::min(static_cast<size_t>(at), ramp.size() - 2);
    double f = at - static_cast<double>(i);
    std::array<uint8_t, 3> c{};
    for (size_t k = 0; k < 3; ++k)
        c[k] = static_cast<uint8_t>(std::lround(ramp[i][k] + f * (ramp[i + 1][k] - ramp[i][k])));
    return c;
}

std::string hex(const std::array<uint8_t, 3>& c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
    return buf;
}

// The panel as an image of its displayed size (each cell repeated over
// its pixels), so no browser scaling drops a one-pixel row or blurs a cell.
PaletteImage panel_image(const HeatPanel& p, size_t rows, int row_px, int width) {
    static const std::array<uint8_t, 3> kNoData = {140, 140, 140};
    PaletteImage img;
    img.width = width;
    img.height = static_cast<int>(rows) * row_px;
    std::vector<std::array<uint8_t, 3>> ramp = p.ramp.empty() ? std::vector<std::array<uint8_t, 3>>{{255, 255, 255}, {0, 0, 0}} : p.ramp;
    for (int l = 0; l < kLevels; ++l) img.palette.push_back(ramp_colour(ramp, l / double(kLevels - 1)));
    img.palette.push_back(kNoData);
    img.pixels.assign(static_cast<size_t>(img.width) * static_cast<size_t>(img.height), 0);
    for (size_t r = 0; r < rows; ++r) {
        const std::vector<double>* cells = r < p.cells.size() ? &p.cells[r] : nullptr;
        size_t columns = cells ? cells->size() : 0;
        std::vector<uint8_t> line(static_cast<size_t>(width), kLevels);
        for (int x = 0; x < width && columns > 0; ++x) {
            size_t c = std::min(columns - 1, static_cast<size_t>(x) * columns / static_cast<size_t>(width));
            double v = (*cells)[c];
            if (!std::isfinite(v)) continue;
            double t = p.hi > p.lo ? (v - p.lo) / (p.hi - p.lo) : 0;
            line[static_cast<size_t>(x)] = static_cast<uint8_t>(std::lround(std::clamp(t, 0.0, 1.0) * (kLevels - 1)));
        }
        for (int y = 0; y < row_px; ++y)
            std::copy(line.begin(), line.end(),
                      img.pixels.begin() + static_cast<std::ptrdiff_t>((r * static_cast<size_t>(row_px) + static_cast<size_t>(y)) *
                                                                       static_cast<size_t>(width)));
    }
    return img;
}

// Runs of consecutive rows with the same key.
struct Run {
    size_t first, last;
};
template <class Key>
std::vector<Run> runs_of(size_t rows, Key key) {
    std::vector<Run> out;
    for (size_t r = 0; r < rows; ++r) {
        if (!out.empty() && key(r) == key(out.back().first)) out.back().last = r;
        else out.push_back({r, r});
    }
    return out;
}

// Label positions (centres) from wanted positions in order, at least
// kLabelStep apart, within [lo, hi] where the room allows.
std::vector<double> spread_labels(std::vector<double> want, double lo, double hi) {
    for (size_t i = 0; i < want.size(); ++i) {
        want[i] = std::max(want[i], lo);
        if (i > 0) want[i] = std::max(want[i], want[i - 1] + kLabelStep);
    }
    for (size_t i = want.size(); i-- > 0;) {
        if (want[i] > hi) want[i] = hi;
        if (i + 1 < want.size()) want[i] = std::min(want[i], want[i + 1] - kLabelStep);
    }
    return want;
}

// Where a heat map's parts go: rows of rh units, panels of pw, a right
// margin for marks where any row has one.
struct HeatLayout {
    explicit HeatLayout(const HeatMap& map)
        : rows(map.rows.size()), rh(row_height(rows)), height(static_cast<int>(rows) * rh),
          right(std::any_of(map.rows.begin(), map.rows.end(), [](const HeatRow& r) { return !r.mark.empty(); })
                    ? kMarkMargin
                    : kPlainMargin),
          total(kTop + height + kBottom) {
        const int panels = std::max<int>(1, static_cast<int>(map.panels.size()));
        pw = (kWidth - kLeft - right - kGap * (panels - 1)) / panels;
    }
    int y_of(size_t r) const { return kTop + static_cast<int>(r) * rh; }

    size_t rows;
    int rh, height, right, total;
    int pw = 0;
};

// Panel p: its title, its scale, its image, its frame and its axis.
std::string panel_svg(const HeatMap& map, const HeatLayout& l, int id, int p) {
    const HeatPanel& panel = map.panels[static_cast<size_t>(p)];
    const int x = kLeft + p * (l.pw + kGap);
    const std::string grad = "heat-" + std::to_string(id) + "-" + std::to_string(p);
    std::string s = "<text class=\"panel-title\" x=\"" + std::to_string(x) + "\" y=\"14\">" + xml_escape(panel.title) + "</text>";
    s += "<linearGradient id=\"" + grad + "\">";
    const size_t stops = std::max<size_t>(panel.ramp.size(), 2);
    for (size_t k = 0; k < stops; ++k) {
        double t = static_cast<double>(k) / static_cast<double>(stops - 1);
        s += "<stop offset=\"" + num(100 * t) + "%\" stop-color=\"" +
             hex(ramp_colour(panel.ramp.empty() ? std::vector<std::array<uint8_t, 3>>{{255, 255, 255}, {0, 0, 0}}
                                                : panel.ramp,
                             t)) +
             "\"/>";
    }
    s += "</linearGradient>";
    const int lx = x + l.pw - 150;
    s += "<text class=\"legend-text\" x=\"" + std::to_string(lx - 4) + "\" y=\"16\" text-anchor=\"end\">" +
         xml_escape(panel.lo_label) + "</text><rect x=\"" + std::to_string(lx) + "\" y=\"6\" width=\"100\" height=\"12\" fill=\"url(#" +
         grad + ")\" stroke=\"#888\" stroke-width=\".5\"/><text class=\"legend-text\" x=\"" + std::to_string(lx + 104) +
         "\" y=\"16\">" + xml_escape(panel.hi_label) + "</text>";
    if (l.rows > 0)
        s += "<image class=\"panel\" data-panel=\"" + std::to_string(p) + "\" x=\"" + std::to_string(x) + "\" y=\"" +
             std::to_string(kTop) + "\" width=\"" + std::to_string(l.pw) + "\" height=\"" + std::to_string(l.height) +
             "\" preserveAspectRatio=\"none\" href=\"" + png_data_uri(panel_image(panel, l.rows, l.rh, l.pw)) + "\"/>";
    s += "<rect class=\"frame\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(kTop) + "\" width=\"" +
         std::to_string(l.pw) + "\" height=\"" + std::to_string(l.height) + "\"/>";
    // The axis under each panel.
    for (const auto& [f, label] : map.ticks) {
        std::string tx = num(x + f * l.pw);
        s += "<line class=\"tickmark\" x1=\"" + tx + "\" x2=\"" + tx + "\" y1=\"" + std::to_string(kTop + l.height) +
             "\" y2=\"" + std::to_string(kTop + l.height + 4) + "\"/><text class=\"tick\" x=\"" + tx + "\" y=\"" +
             std::to_string(kTop + l.height + 16) + "\" text-anchor=\"" +
             (f <= 0 ? "start" : f >= 1 ? "end" : "middle") + "\">" + xml_escape(label) + "</text>";
    }
    s += "<text class=\"axis-title\" x=\"" + std::to_string(x + l.pw / 2) + "\" y=\"" + std::to_string(l.total - 6) +
         "\" text-anchor=\"middle\">" + xml_escape(map.x_label) + "</text>";
    return s;
}

// Groups in the left margin: bands, separators across the panels where
// the groups are tall enough to tell apart, labels where they fit; then
// the subgroups' bands.
std::string groups_svg(const HeatMap& map, const HeatLayout& l) {
    std::string s;
    std::vector<Run> groups = runs_of(l.rows, [&](size_t r) { return map.rows[r].group; });
    double last_label = -1e9;
    // A line over a row's top pixel hides nothing only where rows are
    // several pixels tall.
    const bool separators = l.rh >= 4;
    for (size_t g = 0; g < groups.size(); ++g) {
        const Run& run = groups[g];
        const std::string& name = map.rows[run.first].group;
        if (name.empty()) continue;
        int y = l.y_of(run.first), h = static_cast<int>(run.last - run.first + 1) * l.rh;
        s += "<rect class=\"g" + std::to_string(g % 2) + "\" x=\"" + std::to_string(kLeft - 20) + "\" y=\"" +
             std::to_string(y) + "\" width=\"8\" height=\"" + std::to_string(h) + "\"><title>" + xml_escape(name) +
             ": " + std::to_string(run.last - run.first + 1) + " row" + (run.last > run.first ? "s" : "") +
             "</title></rect>";
        double centre = y + h / 2.0;
        if (h >= kLabelStep - 1 || centre - last_label >= 2 * kLabelStep) {
            s += "<text class=\"group-label\" x=\"" + std::to_string(kLeft - 24) + "\" y=\"" + num(centre + 3.5) +
                 "\" text-anchor=\"end\">" + xml_escape(name) + "</text>";
            last_label = centre;
        }
        if (separators && g > 0)
            s += "<line class=\"sep\" x1=\"" + std::to_string(kLeft) + "\" x2=\"" + std::to_string(kWidth - l.right) +
                 "\" y1=\"" + std::to_string(y) + "\" y2=\"" + std::to_string(y) + "\"/>";
    }
    std::vector<Run> subgroups = runs_of(l.rows, [&](size_t r) { return map.rows[r].group + "\n" + map.rows[r].subgroup; });
    for (size_t k = 0; k < subgroups.size(); ++k) {
        const Run& run = subgroups[k];
        if (map.rows[run.first].subgroup.empty()) continue;
        s += "<rect class=\"s" + std::to_string(k % 2) + "\" x=\"" + std::to_string(kLeft - 10) + "\" y=\"" +
             std::to_string(l.y_of(run.first)) + "\" width=\"6\" height=\"" +
             std::to_string(static_cast<int>(run.last - run.first + 1) * l.rh) + "\"><title>" +
             xml_escape(map.rows[run.first].group + " " + map.rows[run.first].subgroup) + "</title></rect>";
    }
    return s;
}

// Marks in the right margin: a triangle at the row, its label as near as
// the others leave room for, a leader line where it had to move.
std::string marks_svg(const HeatMap& map, const HeatLayout& l) {
    std::string s;
    std::vector<size_t> marked;
    for (size_t r = 0; r < l.rows; ++r)
        if (!map.rows[r].mark.empty()) marked.push_back(r);
    std::vector<double> want;
    for (size_t r : marked) want.push_back(l.y_of(r) + l.rh / 2.0);
    std::vector<double> at = spread_labels(want, kTop + 5, kTop + l.height + kBottom - 10);
    const int mx = kWidth - l.right + 3;
    for (size_t k = 0; k < marked.size(); ++k) {
        const HeatRow& row = map.rows[marked[k]];
        const std::string cls = row.strong ? " strong" : "";
        double cy = want[k];
        s += "<g class=\"marked\" data-row=\"" + std::to_string(marked[k]) + "\"><polygon class=\"mark" + cls +
             "\" points=\"" + num(mx) + "," + num(cy) + " " + num(mx + 9) + "," + num(cy - 4.5) + " " + num(mx + 9) + "," +
             num(cy + 4.5) + "\"/>";
        if (std::fabs(at[k] - cy) > 1)
            s += "<line class=\"leader\" x1=\"" + num(mx + 9) + "\" y1=\"" + num(cy) + "\" x2=\"" + num(mx + 16) +
                 "\" y2=\"" + num(at[k]) + "\"/>";
        s += "<text class=\"mark-label" + cls + "\" x=\"" + num(mx + 18) + "\" y=\"" + num(at[k] + 4) + "\">" +
             xml_escape(row.mark) + "</text><title>" + xml_escape(row.title) + "</title></g>";
    }
    return s;
}

bool any_cell_without_data(const HeatMap& map) {
    return std::any_of(map.panels.begin(), map.panels.end(), [](const HeatPanel& p) {
        return std::any_of(p.cells.begin(), p.cells.end(), [](const std::vector<double>& row) {
            return std::any_of(row.begin(), row.end(), [](double v) { return !std::isfinite(v); });
        });
    });
}

}  // namespace

std::string heat_map_html(const HeatMap& map, int id) {
    const HeatLayout l(map);
    std::string s = "<figure class=\"heat-map\" id=\"heat-" + std::to_string(id) + "\"><figcaption>" +
                    xml_escape(map.caption) + "</figcaption>";
    s += "<svg class=\"heat\" viewBox=\"0 0 " + std::to_string(kWidth) + " " + std::to_string(l.total) +
         "\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"" + xml_escape(map.caption) + "\">";
    for (int p = 0; p < static_cast<int>(map.panels.size()); ++p) s += panel_svg(map, l, id, p);
    if (std::any_of(map.rows.begin(), map.rows.end(), [](const HeatRow& r) { return !r.group.empty(); }))
        s += groups_svg(map, l);
    // A title on each row, over the panels: the browser shows it on hover.
    s += "<g class=\"hits\">";
    for (size_t r = 0; r < l.rows; ++r)
        s += "<rect x=\"" + std::to_string(kLeft) + "\" y=\"" + std::to_string(l.y_of(r)) + "\" width=\"" +
             std::to_string(kWidth - l.right - kLeft) + "\" height=\"" + std::to_string(l.rh) + "\"><title>" +
             xml_escape(map.rows[r].title) + "</title></rect>";
    s += "</g>";
    s += marks_svg(map, l);
    s += "</svg>";
    if (any_cell_without_data(map))
        s += "<p class=\"heat-note\"><span class=\"no-data-swatch\"></span> " + xml_escape(map.no_data_label) + "</p>";
    return s + "</figure>";
}

}  // namespace nx
