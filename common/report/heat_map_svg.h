// A heat map of many rows for the HTML report: rows x columns of values,
// each panel drawn as one image of one pixel a cell (png_image.h) scaled to
// the page, so a thousand rows of fifty buckets cost kilobytes, not the
// fifty thousand shapes an SVG of cells would be.  Around the panels, in one
// SVG: the rows' groups (nodes, and processes within them) as bands and
// labels in the left margin, marked rows (the straggler, the outliers)
// labelled in the right margin, a title on each row that the browser shows
// on hover, the columns' axis, and each panel's colour scale.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nx {

struct HeatRow {
    std::string title;     // hover text: what the row is, with its figures
    std::string group;     // consecutive rows of one group share a band and a label (a node); empty: none
    std::string subgroup;  // a thinner band within the group (a process); empty: none
    std::string mark;      // a label in the right margin ("rank 700 straggler"); empty: unmarked
    bool strong = false;   // marked in the warning colour (the straggler)
};

struct HeatPanel {
    std::string title;                       // above the panel: "compute (% of each bucket)"
    std::vector<std::vector<double>> cells;  // a row each (HeatMap::rows), a value a column; NaN: no data
    double lo = 0, hi = 100;                 // the colour scale's ends; values beyond are clamped
    std::string lo_label, hi_label;          // the scale's ends as text ("0%", "100%")
    // Colours from lo to hi, spaced evenly (the ramp is interpolated
    // between them).
    std::vector<std::array<uint8_t, 3>> ramp;
};

struct HeatMap {
    std::string caption;
    std::vector<HeatRow> rows;
    std::vector<HeatPanel> panels;                     // side by side, one to three
    std::vector<std::pair<double, std::string>> ticks;  // along the columns: fraction 0..1 of the width, label
    std::string x_label;                               // under the axis
    std::string no_data_label;                         // what a NaN cell means ("no profile")
};

// The figure (<figure class="heat-map">), `id` unique within the page.
std::string heat_map_html(const HeatMap& map, int id);

// The page's rules for heat_map_html's figures (Document::style).
extern const char* const kHeatMapStyle;

}  // namespace nx
