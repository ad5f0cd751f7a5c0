// The report's breakdowns, as Neuron Explorer's summary page draws them (bars
// in every format; SVG charts in HTML): the tensor engine's active FLOPs as
// model / transpose / other / throttled / idle, DMA use by queue type, HBM
// bandwidth as read / write / spill reload / spill save / unused, and NKI
// versus compiler-generated instructions per engine.  A breakdown whose data
// the profile lacks says so ("not in this profile") instead of a figure.
#pragma once

#include "common/report/document.h"
#include "common/report/report_input.h"

namespace nx {

void add_breakdowns(Document& doc, const ProfileEntry& p);

}  // namespace nx
