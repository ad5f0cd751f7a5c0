// Reports on run records (nx-run): the runs as a table with latency
// statistics and throughput; the matmul and pattern studies add their own
// sections (study answers) on top.
#pragma once

#include <rapidjson/document.h>

#include <vector>

#include "common/report/document.h"

namespace nx {

void add_study_report(Document& doc, const std::vector<rapidjson::Document>& runs, bool all);

}  // namespace nx
