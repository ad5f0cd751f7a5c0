// The report for one profile: headline metrics, memory/compute-bound verdict,
// findings with actions, engine activity, DMA statistics, top opcodes and
// layers, and what could not be derived; for a Chrome trace without Neuron
// engines, the trace report (trace_report.h) instead of the Neuron sections.
#pragma once

#include <vector>

#include "common/profile/rules.h"
#include "common/records/jsonl.h"
#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"

namespace nx {

struct ReportOptions {
    bool all = false;   // every finding, metric and note
    size_t top = 3;     // findings in the short list (2-4 like Neuron Explorer)
    RuleThresholds thresholds;  // --set RULE.threshold=V, --rules-file
    std::vector<WindowSpec> windows;  // --window: regions of the user's
};

void add_profile_report(Document& doc, const ProfileEntry& p, const ReportOptions& options);

// Findings as records (kind "finding") through a RowWriter (jsonl, csv ...).
void write_findings(const std::vector<ProfileEntry>& profiles, RowWriter& out, const ReportOptions& options);
std::vector<std::string> finding_columns();
// One finding as a row of finding_columns().
std::vector<Cell> finding_cells(const ProfileEntry& p, const Finding& f);

}  // namespace nx
