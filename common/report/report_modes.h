// nx-report's ways of reporting, as rows of one table (report_modes.cpp): a
// check against a baseline, a diff of two run sets, the ranks of a capture,
// a comparison of profiles, and, when none of their options is given, the
// report of whatever the records are (profiles, a study, query rows).  Each
// row says which option asks for it, what it loads beyond the inputs, and
// how it writes records and what it adds to the document; run_report() does
// what they share: load, label predictions, write records or render the
// document, and exit 3 when a gate tripped.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/format/row_format.h"
#include "common/io/output.h"
#include "common/profile/rules.h"
#include "common/report/matmul_study.h"
#include "common/report/report_formats.h"
#include "common/store/region_store.h"

namespace nx {

// What nx-report was asked, its options parsed.
struct ReportRequest {
    std::vector<std::string> inputs;    // files (or "-"); none and no --db: stdin
    std::vector<std::string> dbs;       // --db
    std::vector<std::string> profiles;  // --profile NAME|PATTERN
    std::vector<std::string> fail_on;   // --fail-on gates
    std::string baseline, base, study_diff, rules_file;
    std::vector<WindowSpec> windows;
    MatmulStudyOptions study;
    bool compare = false, ranks = false, all = false, bounds = false, each = false, keep_going = false,
         first_run_ok = false;
    size_t top = 3;
    RuleThresholds thresholds;  // --set; they win over --rules-file
};

// The options that each select a mode, in the order messages name them:
// at most one may be given (OptionRule::one_of).
inline constexpr const char* kReportModeOptions = "baseline,compare,study-diff,ranks";

// Registers every file the request reads (file_guard.h), so an output that
// would replace one is refused: call before the output is created.
void guard_report_inputs(const ReportRequest& request);

// Runs the request into `out` in `format`; returns the exit status (3: a
// gate tripped).  Throws Error for inputs it cannot use.
int run_report(const ReportRequest& request, Output& out, const ReportFormat& format, bool terminal);

// nx-report --list rules: the rule table, with the thresholds the request set.
void write_rule_listing(const ReportRequest& request, Output& out, const ReportFormat& format);

}  // namespace nx
