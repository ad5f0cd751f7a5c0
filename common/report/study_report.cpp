#include "common/report/study_report.h"

#include <algorithm>
#include <cmath>

#include "common/report/natural_order.h"
#include "common/report/pattern_study.h"
#include "common/report/run_view.h"
#include "common/format/units.h"

namespace nx {

void add_study_report(Document& doc, const std::vector<rapidjson::Document>& records,
                      const std::vector<ProfileEntry>& profiles, const MatmulStudyOptions& options) {
    std::vector<RunView> runs = view_runs(records);
    add_matmul_study(doc, runs, options);
    add_pattern_study(doc, runs, profiles);
    std::vector<const RunView*> others;
    for (const RunView& r : runs)
        if (r.op != "matmul" && r.op != "pattern") others.push_back(&r);
    if (others.empty()) return;
    std::stable_sort(others.begin(), others.end(),
                     [](const RunView* a, const RunView* b) { return natural_less(a->name, b->name); });
    doc.heading("Runs");
    TableBlock t;
    t.columns = {"name", "op", "backend", "target", "median", "p95", "TFLOP/s", "compile"};
    t.numeric = {false, false, false, false, true, true, true, true};
    for (const RunView* r : others)
        t.rows.push_back({r->name, r->op, r->backend, r->target, format_run_ns(*r, r->median_us * 1e3), format_run_ns(*r, r->p95_us * 1e3),
                          std::isfinite(r->tflops) ? format_value(r->tflops) : "",
                          std::isfinite(r->compile_ms) ? format_ns(r->compile_ms * 1e6) : ""});
    doc.table(t);
}

}  // namespace nx
