// Reports on run records (nx-run): the matmul and pattern studies' own
// sections, and a plain table of runs for anything else.
#pragma once

#include <rapidjson/document.h>

#include <vector>

#include "common/report/document.h"
#include "common/report/matmul_study.h"
#include "common/report/report_input.h"

namespace nx {

void add_study_report(Document& doc, const std::vector<rapidjson::Document>& runs,
                      const std::vector<ProfileEntry>& profiles, const MatmulStudyOptions& options);

}  // namespace nx
