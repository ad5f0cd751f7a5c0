// The study summary of many profiles (nx-report on a study's profile records
// or database): one table, a row of headline figures per profile, longest
// first, and the findings across the study (each rule once, with how many
// profiles it fired in), rather than a full report per profile.  When the
// profiles were captured from nx-run's runs (their records carry the run), the
// study's own answers (study_report.h) come first, made from those runs.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "common/report/document.h"
#include "common/report/profile_report.h"
#include "common/report/report_input.h"

namespace nx {

// More profiles than this, none named with --profile, get the summary.
constexpr size_t kProfilesForSummary = 3;
bool wants_profiles_summary(const std::vector<ProfileEntry>& profiles, const std::vector<std::string>& named);

// The run records the profiles carry (a profile captured from nx-run keeps
// its run's fields), with the profile's name, backend, target and dtype; only
// profiles that carry a run's latency.
std::vector<rapidjson::Document> runs_of_profiles(const std::vector<ProfileEntry>& profiles);

void add_profiles_summary(Document& doc, const std::vector<ProfileEntry>& profiles, const ReportOptions& options);

// The full report of each profile (nx-report --each), in natural name order
// (mm_128x512x512 before mm_1024x512x512; natural_order.h).
void add_each_profile_report(Document& doc, const std::vector<ProfileEntry>& profiles, const ReportOptions& options);

}  // namespace nx
