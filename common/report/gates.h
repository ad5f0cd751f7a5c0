// Regression gates: compare records with a baseline (a JSONL file or a study
// database) and trip on changes like 'total_time>5%' (exit 3), for cron jobs
// and CI.  Works on profile records (metrics), run records (latency_us.median,
// tflops, ...) and bench records (value).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"

namespace nx {

// "METRIC>N%" trips when the metric rose more than N% over the baseline,
// "METRIC<-N%" when it fell more than N%; without '%', N is an absolute change.
struct Gate {
    std::string text;
    std::string metric;
    bool greater;   // '>' (rise) or '<' (fall)
    double limit;
    bool relative;
};
// Throws UsageError on a malformed expression.
Gate parse_gate(const std::string& text);
// Every --fail-on given, each possibly comma-separated.
std::vector<Gate> parse_gates(const std::vector<std::string>& specs);

struct GateCheck {
    std::string record;      // the matched record's name
    std::string target, backend;  // where it ran (labels when checks span several)
    std::string metric;
    double baseline = 0, current = 0;
    double change = 0;       // relative (fraction) or absolute
    bool relative = true;
    std::string gate;        // the expression, or empty for an informative row
    bool tripped = false;
};

// What matching found beyond the checks themselves.
struct BaselineMatch {
    std::vector<std::string> unmatched;  // current records without a usable baseline, and why
    size_t records = 0;                  // current records
    size_t matched = 0;                  // of them, those the baseline has
    // Unmatched records the baseline has under the same name for another
    // backend or target: "mm (baseline neuron on trn1, here sim on trn2)".
    std::vector<std::string> elsewhere;
};

// One metric of one record against its baseline figure, the gate applied
// (g null: an informative row).  A gate fails closed: a figure that is not a
// finite number throws Error.
GateCheck check_gate(const std::string& record, const std::string& metric, double baseline, double current,
                     const Gate* g);
// Throws UsageError for a gate on a metric that nx does not define and no
// record of either side has (a misspelling), naming the nearest ones.
void check_gate_metrics(const std::vector<Gate>& gates, const ReportInput& current, const ReportInput& baseline);
// A record's number by dotted name ("latency_us.median"; a run's nested
// "metrics" too).
std::optional<double> record_number(const rapidjson::Value& r, const std::string& metric);

// Matches records by kind, name, backend and target (runs: study too) and
// applies the gates; without gates, reports each record's headline metric.
// Throws UsageError for a gate metric no record has (a misspelling must not
// read as a missing baseline).
std::vector<GateCheck> check_baseline(const ReportInput& current, const ReportInput& baseline,
                                      const std::vector<Gate>& gates, BaselineMatch& match);

void add_baseline_report(Document& doc, const std::vector<GateCheck>& checks, const BaselineMatch& match);
void write_baseline_checks(const std::vector<GateCheck>& checks, RowWriter& out);

}  // namespace nx
