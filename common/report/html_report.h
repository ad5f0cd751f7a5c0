// The report as one self-contained HTML page (nx-report --format html): inline
// CSS and SVG charts (svg_chart.h), no fonts or images from the network (a
// Content-Security-Policy forbids any), so it opens offline and can be
// mailed or archived as a single file.  No scripts, but the document's own
// (Document::scripts: the ranks page sorts its table), which the policy
// allows by their hashes alone.
#pragma once

#include "common/io/output.h"
#include "common/report/document.h"

namespace nx {

void render_html(const Document& doc, Output& out);

}  // namespace nx
