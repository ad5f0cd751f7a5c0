// A profile's findings, assembled once for every place that shows or stores
// them (the report's sections and findings rows, the dataset's findings
// table): the rules' findings fitted to the workload, and before them the
// profiler's own warnings.
#pragma once

#include <string>
#include <vector>

#include "common/profile/profile.h"
#include "common/profile/rules.h"

namespace nx {

// The rules' findings on `summary` under `thresholds` (nullptr: the rules'
// own), their advice fitted to the workload (a GEMV is memory-bound by
// nature; a matmul-free kernel has no matmul to restructure), ranked.
// `missing`, when given, receives the rules the profile lacks data for.
std::vector<Finding> rule_findings(const ProfileInfo& info, const ProfileSummary& summary,
                                   const RuleThresholds* thresholds = nullptr,
                                   std::vector<std::string>* missing = nullptr);

// The profiler's own warnings (over the profile's whole window), then
// rule_findings: what the report's findings rows and the dataset's findings
// table hold, in that order.
std::vector<Finding> profile_findings(const ProfileInfo& info, const ProfileSummary& summary,
                                      const RuleThresholds* thresholds = nullptr);

}  // namespace nx
