// Findings: both generations of Neuron Explorer's summary rules (SDK
// 2.27-2.28 and 2.29 on), the rules of neuron-facts.md section 4 (the NKI
// performance guide), Explorer's timeline warnings (small DMA transfers) and
// nx's own (throttling share, tensors reloaded, the pattern study's
// instruction mix), as one table of data (rules.cpp), evaluated against a
// profile's metrics or a region's (regions.h).  Thresholds can be set per
// run (RuleThresholds: nx-report --set RULE.threshold=V).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/profile.h"

namespace nx {

enum class Severity { info, warn, critical };
std::string_view to_string(Severity s);
std::optional<Severity> parse_severity(std::string_view s);
template <>
struct TextCodec<Severity> {
    static std::string_view text(Severity s) { return to_string(s); }
    static std::optional<Severity> parse(std::string_view s) { return parse_severity(s); }
};

struct Finding {
    std::string rule;
    Severity severity;
    std::string metric;     // what was measured ("a/b" for ratios)
    double value;
    double threshold;
    std::string message;    // the condition and its cause, with numbers
    std::string action;
    double excess;          // how far past the threshold, relative: ranks findings
    // What it applies to: "profile" (the whole profile) or a region's name
    // (regions.h), and that time range in the profile's clock.
    std::string region = "profile";
    int64_t start_ns = 0;
    int64_t end_ns = 0;
};
// As the dataset's findings table has them (the report shows the same).
inline constexpr Field<Finding> kFindingFields[] = {
    field<&Finding::rule>("rule", "the rule's id (a profiler warning's own)"),
    field<&Finding::severity>("severity", "info, warn or critical"),
    field<&Finding::metric, NullWhen::empty>("metric", "what was measured (a/b for ratios)"),
    field<&Finding::value, NullWhen::not_finite>("value", "its value"),
    field<&Finding::threshold, NullWhen::not_finite>("threshold", "the rule's threshold"),
    free_text(field<&Finding::message>("message", "the condition and its cause, with numbers")),
    free_text(field<&Finding::action, NullWhen::empty>("action", "what to change")),
};

// Thresholds set for a run, by rule id (nx-report --set RULE.threshold=V).
struct RuleThresholds {
    std::map<std::string, double, std::less<>> values;
    // Parses "RULE.threshold=V" into `values`; the error text on a bad
    // setting (unknown rule, a rule compared against a metric, not a number).
    std::optional<std::string> set(std::string_view setting);
    // Reads settings from a file, one per line ('#' comments, blank lines);
    // the error text names the file and line.
    std::optional<std::string> read_file(const std::string& path);
};

// Rules whose inputs the profile lacks are skipped; `missing` (optional)
// collects their ids and the metric they needed.  Findings apply to the
// summary's whole time range (region "profile").
std::vector<Finding> evaluate_rules(const ProfileSummary& summary, std::vector<std::string>* missing = nullptr,
                                    const RuleThresholds* thresholds = nullptr);
// The rules from Neuron Explorer (either generation) whose inputs the
// profile lacks: what the report lists as "not in this profile".
std::vector<std::string> explorer_rules_missing(const std::vector<std::string>& missing);

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

// Rows of the threshold wording table (rules.cpp) whose rule does not exist
// or whose message does not hold the words a --set threshold replaces: empty
// when every row can do its job.  For tests.
std::vector<std::string> threshold_wording_mismatches();

// The rule table for documentation (nx-report --rules, nx-report(1)).
struct RuleInfo {
    std::string id;
    std::string severity;
    std::string condition;
    std::string action;
    std::string origin;     // "Explorer 2.27", "Explorer 2.29", "Explorer 2.32", "NKI guide", "nx", "pattern study"
    double threshold = 0;   // the default threshold --set changes (NaN: compared against a metric)
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
