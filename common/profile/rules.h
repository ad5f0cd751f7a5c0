// Findings: the rules of neuron-facts.md section 4 (the Neuron Explorer
// summary and the NKI performance guide) and the pattern study's
// instruction-mix heuristic, as one table of data (rules.cpp), evaluated
// against a profile's metrics.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/profile/profile.h"

namespace nx {

enum class Severity { info, warn, critical };
std::string_view to_string(Severity s);

struct Finding {
    std::string rule;
    Severity severity;
    std::string metric;     // what was measured ("a/b" for ratios)
    double value;
    double threshold;
    std::string message;    // the condition and its cause, with numbers
    std::string action;
    double excess;          // how far past the threshold, relative: ranks findings
};

// Rules whose inputs the profile lacks are skipped; `missing` (optional)
// collects their ids and the metric they needed.
std::vector<Finding> evaluate_rules(const ProfileSummary& summary, std::vector<std::string>* missing = nullptr);

// The source's own warnings ("warnings" carried with the profile, from the
// neuron-profile JSON array or Explorer's Warning table; Explorer's Error
// table as "errors") as findings: rule "profiler_warning" (warn) or
// "profiler_error" (critical), metric = the source's category, the message
// as the profiler wrote it, and an action where nx knows one (missing DMA
// metadata: capture with --enable-dge-notifs).  Reports show them first.
std::vector<Finding> source_findings(const ProfileInfo& info);

// Orders findings (critical first, then the furthest past its threshold) and
// marks which belong in the short list: at most `top` and one per metric.
void rank_findings(std::vector<Finding>& findings);
std::vector<const Finding*> top_findings(const std::vector<Finding>& ranked, size_t top);

// The rule table for documentation (nx-report --rules, nx-report(1)).
struct RuleInfo {
    std::string id;
    std::string severity;
    std::string condition;
    std::string action;
};
std::vector<RuleInfo> rule_table();

// Memory- or compute-bound verdict with the evidence used:
// "compute-bound" | "memory-bound" | "balanced" | "unknown".
struct BoundVerdict {
    std::string verdict;
    std::string evidence;
};
BoundVerdict classify_bound(const ProfileSummary& summary);

}  // namespace nx
