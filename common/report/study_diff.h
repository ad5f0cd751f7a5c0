// nx-report --study-diff: two run sets (two nights, two targets, two compiler
// versions) matched by workload, study and name, whatever backend, target or
// toolchain ran them: which shapes got slower and by how much, worst first,
// each side labelled by target and backend (sim: predicted).  --fail-on gates
// (gates.h, the nightly gate's syntax) apply to each matched pair.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "common/report/document.h"
#include "common/report/gates.h"
#include "common/format/row_format.h"
#include "common/report/run_view.h"

namespace nx {

struct StudyDiffRow {
    RunView before, after;
    std::string before_toolchain, after_toolchain;  // the run records' "toolchain"
    std::string shape;               // "1024x1024x1024 bf16", "for_loop small" ...
    std::vector<GateCheck> checks;   // latency_us.median first, then each gate's
    double change() const { return checks.front().change; }  // relative, of the median latency
};

struct StudyDiff {
    std::vector<StudyDiffRow> rows;       // the slowest-got first
    std::vector<std::string> only_before;  // workloads one side lacks
    std::vector<std::string> only_after;
    std::vector<std::string> ambiguous;    // several backends/targets, none pairing up
};

// The latest run of each workload (per backend and target) on each side;
// a workload run on one backend and target per side pairs across them,
// otherwise the runs on the same backend and target pair.  Throws Error when
// a gate cannot be checked (a figure that is not finite).
StudyDiff diff_studies(const std::vector<rapidjson::Document>& before, const std::vector<rapidjson::Document>& after,
                       const std::vector<Gate>& gates);

// "trn1 neuron", "trn2 sim (predicted)", then ", TOOLCHAIN" when not empty.
std::string run_side_label(const RunView& r, const std::string& toolchain);

void add_study_diff(Document& doc, const StudyDiff& d, const std::string& before_name, const std::string& after_name);
// Rows: kind "study_diff", study, workload, shape, before_target, before_backend,
// before_toolchain, after_target, after_backend, after_toolchain, metric,
// before, after, change, relative, gate, tripped.
void write_study_diff(const StudyDiff& d, RowWriter& out);

}  // namespace nx
