// The vmap / scan / for-loop study's report: time per pattern, the
// TensorMatrix share of engine time beside the published study's own ratio
// (pattern_study_tensormatrix_share_percent), instruction counts, how the for-loop
// scales from small to large, the memory/compute verdict, and the ranking —
// the questions the pattern study asked.
#pragma once

#include <vector>

#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/report/run_view.h"

namespace nx {

void add_pattern_study(Document& doc, const std::vector<RunView>& runs, const std::vector<ProfileEntry>& profiles);

}  // namespace nx
