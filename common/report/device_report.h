// The profile report's section on a Kineto trace's device streams: where
// the device window went as HTA counts it (idle, computation, the rest),
// HTA's kernel type breakdown, each stream's idle time by cause and its
// launch queue, the launch statistics and each step's split
// (profile.h DeviceSummary, from the record: no events needed).
#pragma once

#include "common/profile/profile.h"
#include "common/report/document.h"

namespace nx {

void add_device_report(Document& doc, const DeviceSummary& d);

}  // namespace nx
