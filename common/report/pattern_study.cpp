#include "common/report/pattern_study.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/profile/rules.h"
#include "common/records/backend_words.h"
#include "common/format/units.h"
#include "common/workload/for_loop_size.h"

namespace nx {

namespace {

// The study's own ratio, named as its definition so that it is not read as
// TensorE's share of busy time.
constexpr const char* kStudyRatioColumn = "study TensorMatrix ratio";

// for_loop trip counts relative to small (for_loop_size.h: 3, 10, 30 at 3 iterations).
double loop_scale(const RunView& r) {
    return static_cast<double>(for_loop_trips(r.size, r.iterations)) / static_cast<double>(for_loop_trips("small", r.iterations));
}

const ProfileEntry* profile_for(const std::vector<ProfileEntry>& ps, const RunView& r) {
    // Latest profile of the same workload, backend and target (captures carry the run's fields).
    const ProfileEntry* found = nullptr;
    for (const ProfileEntry& p : ps)
        if (p.info.name == r.name && (p.info.backend.empty() || p.info.backend == r.backend) &&
            (p.info.target.empty() || p.info.target == r.target))
            found = &p;
    return found;
}

// Patterns are compared only under the same conditions: the same work
// (batch, features, iterations, dtype) on the same backend, target and LNC.
struct Conditions {
    int64_t batch = 0, features = 0, iterations = 0;
    std::string dtype, backend, target;
    int64_t lnc = 0;
    auto operator<=>(const Conditions&) const = default;
};

Conditions conditions_of(const RunView& r) { return {r.batch, r.features, r.iterations, r.dtype, r.backend, r.target, r.lnc}; }

void pattern_section(Document& doc, std::vector<const RunView*> runs, const std::vector<ProfileEntry>& profiles,
                     bool several);

double engine_ns(const ProfileEntry* p, bool tensor_matrix) {
    if (!p) return NAN;
    double ns = 0;
    for (const EngineStat& e : p->summary.engines) {
        if (e.engine == Engine::dma) continue;
        if ((e.engine == Engine::tensor_matrix) == tensor_matrix) ns += static_cast<double>(e.busy_ns);
    }
    return ns;
}

}  // namespace

void add_pattern_study(Document& doc, const std::vector<RunView>& all, const std::vector<ProfileEntry>& profiles) {
    // Per conditions, the latest run of each workload name.
    std::map<Conditions, std::map<std::string, const RunView*>> groups;
    for (const RunView& r : all)
        if (r.op == "pattern" && std::isfinite(r.median_us)) groups[conditions_of(r)][r.name] = &r;
    if (groups.empty()) return;
    doc.heading("Pattern study: vmap, scan and for-loop");
    for (const auto& [cond, by_name] : groups) {
        std::vector<const RunView*> runs;
        for (const auto& [name, r] : by_name) runs.push_back(r);
        pattern_section(doc, runs, profiles, groups.size() > 1);
    }
}

namespace {

// One run's figures from its profile (NAN, empty or the prediction where
// no profile was captured).
struct PatternFigures {
    double tensor_matrix_ns = NAN, other_ns = NAN;
    double share = NAN;        // tensor_engine_time_share_percent
    double study_ratio = NAN;  // pattern_study_tensormatrix_share_percent
    double model_share = NAN;  // model FLOPs / tensor engine FLOPs
    double device_ns = NAN;
    int64_t instructions = -1;
    std::string bound;
};

PatternFigures pattern_figures(const RunView& r, const ProfileEntry* p) {
    PatternFigures f;
    f.tensor_matrix_ns = engine_ns(p, true);
    f.other_ns = engine_ns(p, false);
    f.instructions = p ? p->summary.events : r.predicted_instructions;
    if (!p) return f;
    f.share = p->summary.value_or("tensor_engine_time_share_percent", NAN);
    f.study_ratio = p->summary.value_or("pattern_study_tensormatrix_share_percent", NAN);
    f.bound = classify_bound(p->summary).verdict;
    f.device_ns = p->summary.value_or("total_time", NAN) * 1e9;
    // TensorMatrix time counts as using the array only when its FLOPs
    // are mostly the model's, not layout transposes.
    double hw = p->summary.value_or("hardware_flops", NAN);
    double model = p->summary.value_or("model_flops", NAN);
    f.model_share = hw > 0 && std::isfinite(model) ? model / hw : NAN;
    return f;
}

// What the table of a group's runs found, for the answers.
struct PatternFindings {
    const RunView* best_share = nullptr;
    double best_share_value = -1;
    bool any_share = false;
    bool any_study_ratio = false;
    double best_model_share = -1;  // model FLOPs / tensor engine FLOPs, the highest seen
    std::vector<std::string> launch_bound;
};

// The runs ranked by latency, with their engines' time, as a table and
// (on the HTML page) bars.
PatternFindings pattern_table(Document& doc, const std::vector<const RunView*>& runs,
                              const std::vector<ProfileEntry>& profiles) {
    const double fastest = runs.front()->median_us;
    TableBlock t;
    t.columns = {"rank", "pattern", "latency", "vs fastest", "instructions", "TensorMatrix busy", "other engines busy",
                 "TensorMatrix share", kStudyRatioColumn, "bound"};
    t.numeric = {true, false, true, true, true, true, true, true, true, false};
    ChartBlock lat = chart_block("bars", "Latency per pattern", "", "latency (us)");
    ChartSeries ls;
    ls.name = "latency (us)";
    ChartBlock share = lat;
    share.title = "TensorMatrix share of engine time";
    share.y_label = "percent";
    ChartSeries ss;
    ss.name = "TensorMatrix share (%)";
    int rank = 0;
    PatternFindings found;
    for (const RunView* r : runs) {
        PatternFigures f = pattern_figures(*r, profile_for(profiles, *r));
        if (std::isfinite(f.study_ratio)) found.any_study_ratio = true;
        // The device busy for less than half the run: the rest is the host
        // dispatching launches, which no engine or memory change speeds up.
        if (std::isfinite(f.device_ns) && f.device_ns < 0.5 * r->median_us * 1e3) {
            f.bound = "launch-bound";
            found.launch_bound.push_back(r->name + " (the device works " + format_ns(f.device_ns) + " of " +
                                         format_ns(r->median_us * 1e3) + ")");
        }
        if (std::isfinite(f.share)) found.any_share = true;
        if (std::isfinite(f.model_share)) found.best_model_share = std::max(found.best_model_share, f.model_share);
        if (std::isfinite(f.share) && f.share > 0 && std::isfinite(f.model_share) && f.model_share >= 0.5 &&
            f.share > found.best_share_value) {
            found.best_share_value = f.share;
            found.best_share = r;
        }
        t.rows.push_back({std::to_string(++rank), r->name, format_run_ns(*r, r->median_us * 1e3),
                          format_ratio(r->median_us / fastest),
                          f.instructions >= 0 ? format_count(static_cast<double>(f.instructions)) : "",
                          std::isfinite(f.tensor_matrix_ns) ? format_ns(f.tensor_matrix_ns) : "",
                          std::isfinite(f.other_ns) ? format_ns(f.other_ns) : "",
                          std::isfinite(f.share) ? format_percent(f.share) : "",
                          std::isfinite(f.study_ratio) ? format_percent(f.study_ratio) : "", f.bound});
        lat.categories.push_back(r->name);
        ls.x.push_back(rank);
        ls.y.push_back(r->median_us);
        share.categories.push_back(r->name);
        ss.x.push_back(rank);
        ss.y.push_back(std::isfinite(f.share) ? f.share : 0);
    }
    lat.series.push_back(ls);
    share.series.push_back(ss);
    doc.table(t);
    if (found.any_study_ratio)
        doc.paragraph(std::string(kStudyRatioColumn) +
                      ": the published study's own \"TensorMatrix ratio\" (its perfetto_analyzer.py): time in slices "
                      "named MATMUL, TENSOR_TENSOR or TENSOR_REDUCE on any engine, over that time plus WRITE and COPY "
                      "(pattern_study_tensormatrix_share_percent). TensorMatrix share is TensorE's share of the "
                      "engines' busy time (tensor_engine_time_share_percent): a different question.");
    // The bars repeat the table: for the HTML page only.
    doc.chart(lat);
    doc.html_only();
    if (found.any_share) {
        doc.chart(share);
        doc.html_only();
    }
    return found;
}

// How the for-loop's time grows from small to the larger sizes against
// its iterations; empty without small and another size.
std::string for_loop_scaling(std::map<std::string, const RunView*>& loop) {
    if (!loop.count("small") || loop.size() <= 1) return "";
    std::string scaling = "for-loop from small to";
    const RunView* small = loop["small"];
    for (const char* size : {"medium", "large"}) {
        if (!loop.count(size)) continue;
        const RunView* r = loop[size];
        double ratio = r->median_us / small->median_us, scale = loop_scale(*r);
        scaling += std::string(" ") + size + ": " + format_ratio(ratio) + " the time for " +
                   format_ratio(scale) + " the iterations" +
                   (ratio < scale * 0.8 ? " (fixed costs dominate)"
                    : ratio > scale * 1.2 ? " (worse than linear)"
                                                        : " (about linear)") +
                   ";";
    }
    if (scaling.back() == ';') scaling.pop_back();
    return scaling;
}

// The study's answers: fastest and slowest, the best use of the systolic
// array, launch-bound runs, the for-loop's scaling and per-launch cost.
std::vector<std::string> pattern_answers(const std::vector<const RunView*>& runs, const PatternFindings& found) {
    const RunView& any = *runs.front();
    const double fastest = runs.front()->median_us;
    const RunView* slowest = runs.back();
    std::vector<std::string> answers;
    answers.push_back("fastest: " + runs.front()->name + " (" + format_ns(fastest * 1e3) + "); slowest: " + slowest->name +
                      " at " + format_ratio(slowest->median_us / fastest) + " the time");
    if (found.best_share)
        answers.push_back("the systolic array is used best by " + found.best_share->name + ": TensorMatrix " +
                          format_percent(found.best_share_value) + " of engine time");
    else if (found.any_share && found.best_model_share >= 0)
        answers.push_back("no pattern does its arithmetic on the systolic array: the TensorMatrix time here is layout "
                          "transposes (model FLOPs are at most " + format_percent(100 * found.best_model_share) +
                          " of the tensor engine's)");
    if (!found.launch_bound.empty()) {
        std::string list;
        for (const std::string& l : found.launch_bound) list += (list.empty() ? "" : ", ") + l;
        answers.push_back("launch-bound: " + list + "; the rest is host dispatch, so fuse the launches "
                          "(one graph for the loop) rather than tune the kernel");
    }
    std::map<std::string, const RunView*> loop;
    for (const RunView* r : runs)
        if (r->pattern == "for_loop") loop[r->size] = r;
    if (std::string scaling = for_loop_scaling(loop); !scaling.empty()) answers.push_back(scaling);
    for (const RunView* r : runs)
        if (r->pattern == "for_loop_launch") {
            auto it = loop.find(r->size);
            if (it != loop.end())
                answers.push_back("launching every iteration (" + r->name + ") costs " +
                                  format_ratio(r->median_us / it->second->median_us) + " the unrolled loop: host dispatch per launch");
        }
    if (predicts(any.backend))
        answers.push_back("this ranking is " + provenance_label(any.backend) +
                          ", not measured: confirm it on a device (make study-patterns BACKEND=neuron)");
    return answers;
}

void pattern_section(Document& doc, std::vector<const RunView*> runs, const std::vector<ProfileEntry>& profiles,
                     bool several) {
    const RunView& any = *runs.front();
    std::string conditions = "iterations " + std::to_string(any.iterations) + ", batch " + std::to_string(any.batch) +
                             (any.features > 0 ? ", features " + std::to_string(any.features) : "") + ", dtype " +
                             any.dtype + "; " + backend_phrase(any.backend) + " on " + target_text(any);
    if (several) doc.heading(conditions, 2);
    else doc.paragraph(conditions + ".");
    std::stable_sort(runs.begin(), runs.end(), [](const RunView* a, const RunView* b) { return a->median_us < b->median_us; });
    const PatternFindings found = pattern_table(doc, runs, profiles);
    doc.heading("Answers", several ? 3 : 2);
    doc.items(pattern_answers(runs, found));
}

}  // namespace

}  // namespace nx
