// Charts as inline SVG for the HTML report: line and scatter plots (linear
// or log axes, dashed markers such as tile boundaries), grouped bars with
// labels (ratios), the roofline (achieved TFLOP/s against arithmetic
// intensity under the target's roof and ridge point), the engine timeline
// strip, horizontal bars and sparklines.
//
// Every chart has axes with ticks, axis titles with units and a legend.
// Colours are the Okabe-Ito palette (distinguishable with the common colour
// vision deficiencies), and never the only cue: series also differ by marker
// shape and dash pattern, bars by fill pattern, and values are printed.
// Non-finite values and, on log axes, values <= 0 are left out; a chart with
// nothing to draw says so.  Elements carry classes (chart, axis, legend,
// series, point, bar, x-mark, roof, ridge, cell) that tests look for.
#pragma once

#include <string>
#include <vector>

#include "common/report/document.h"

namespace nx {

// `id` makes pattern and clip ids unique within one HTML page.
std::string chart_svg(const ChartBlock& c, int id);
std::string hbars_svg(const std::vector<Bar>& bars, int id);
std::string sparkline_svg(const std::vector<double>& values);

// Text for SVG/HTML: & < > " ' escaped.
std::string xml_escape(const std::string& s);
// Tick labels: "0.5", "128", "4k", "1.5M", "2G".
std::string tick_label(double v);

}  // namespace nx
