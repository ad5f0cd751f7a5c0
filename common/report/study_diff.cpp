#include "common/report/study_diff.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/records/jsonl.h"
#include "common/records/backend_words.h"
#include "common/format/units.h"

namespace nx {

namespace {

constexpr const char* kHeadline = "latency_us.median";

struct Side {
    const rapidjson::Value* record;
    RunView view;
    std::string toolchain;
};

// workload ("study|name") -> "backend|target" -> its latest run.
using Runs = std::map<std::string, std::map<std::string, Side>>;

Runs index_runs(const std::vector<rapidjson::Document>& runs) {
    Runs out;
    for (const rapidjson::Document& r : runs) {
        RunView v = view_run(r);
        if (v.name.empty()) continue;
        std::string toolchain;
        if (auto t = find_member(r, "toolchain"); t && t->IsString()) toolchain = t->GetString();
        // Later records are later runs: a history's latest wins.
        out[v.study + "|" + v.name][v.backend + "|" + v.target] = Side{&r, v, toolchain};
    }
    return out;
}

std::string shape_of(const RunView& r) {
    std::string s;
    if (r.M > 0 || r.K > 0 || r.N > 0) {
        s = std::to_string(r.M) + "x" + std::to_string(r.K) + "x" + std::to_string(r.N);
        if (r.batch > 0) s = "batch " + std::to_string(r.batch) + " " + s;
    } else if (!r.pattern.empty()) {
        s = r.pattern + (r.size.empty() ? "" : " " + r.size);
    } else if (!r.model.empty()) {
        s = r.model + (r.phase.empty() ? "" : " " + r.phase);
        if (r.batch > 0) s += " batch " + std::to_string(r.batch);
        if (r.seq > 0) s += " seq " + std::to_string(r.seq);
    }
    if (!r.dtype.empty()) s += (s.empty() ? "" : " ") + r.dtype;
    return s.empty() ? r.name : s;
}

std::string workload_name(const std::string& key) { return key.substr(key.find('|') + 1); }

std::string wheres(const std::map<std::string, Side>& runs) {
    std::string out;
    for (const auto& [where, side] : runs)
        out += (out.empty() ? "" : ", ") + (side.view.backend.empty() ? "unknown backend" : side.view.backend) + " on " +
               (side.view.target.empty() ? "unknown target" : side.view.target);
    return out;
}

std::string signed_percent(double fraction) {
    if (!std::isfinite(fraction)) return "n/a";
    return (fraction >= 0 ? "+" : "") + format_percent(100 * fraction);
}

}  // namespace

std::string run_side_label(const RunView& r, const std::string& toolchain) {
    std::string s = (r.target.empty() ? "unknown target" : r.target) + " " +
                    (r.backend.empty() ? "unknown backend" : r.backend);
    if (predicts(r.backend)) s += " (predicted)";
    if (!toolchain.empty()) s += ", " + toolchain;
    return s;
}

StudyDiff diff_studies(const std::vector<rapidjson::Document>& before, const std::vector<rapidjson::Document>& after,
                       const std::vector<Gate>& gates) {
    StudyDiff d;
    Runs b = index_runs(before), a = index_runs(after);
    for (const auto& [key, old_runs] : b)
        if (!a.count(key)) d.only_before.push_back(workload_name(key));
    for (const auto& [key, new_runs] : a) {
        auto it = b.find(key);
        if (it == b.end()) {
            d.only_after.push_back(workload_name(key));
            continue;
        }
        const auto& old_runs = it->second;
        std::vector<std::pair<const Side*, const Side*>> pairs;
        if (old_runs.size() == 1 && new_runs.size() == 1) {
            pairs.emplace_back(&old_runs.begin()->second, &new_runs.begin()->second);
        } else {
            for (const auto& [where, side] : new_runs)
                if (auto o = old_runs.find(where); o != old_runs.end()) pairs.emplace_back(&o->second, &side);
            if (pairs.empty())
                d.ambiguous.push_back(workload_name(key) + " (before: " + wheres(old_runs) + "; after: " +
                                      wheres(new_runs) + ")");
        }
        for (const auto& [o, n] : pairs) {
            StudyDiffRow row;
            row.before = o->view;
            row.after = n->view;
            row.before_toolchain = o->toolchain;
            row.after_toolchain = n->toolchain;
            row.shape = shape_of(n->view);
            std::string record = n->view.name;
            // Named copies: lambdas cannot capture structured bindings (C++20 before clang 16).
            const auto& before_run = *o->record;
            const auto& after_run = *n->record;
            auto check = [&](const std::string& metric, const Gate* g) {
                std::optional<double> x = record_number(before_run, metric), y = record_number(after_run, metric);
                if (x && y) row.checks.push_back(check_gate(record, metric, *x, *y, g));
            };
            check(kHeadline, nullptr);
            // A run without a median (a failed run) has nothing to rank by.
            if (row.checks.empty()) {
                d.ambiguous.push_back(record + " (no " + kHeadline + " on one side)");
                continue;
            }
            for (const Gate& g : gates) check(g.metric, &g);
            d.rows.push_back(std::move(row));
        }
    }
    // Worst first; a change that cannot be a number (0 before) last.
    std::stable_sort(d.rows.begin(), d.rows.end(), [](const StudyDiffRow& x, const StudyDiffRow& y) {
        double cx = std::isfinite(x.change()) ? x.change() : -INFINITY;
        double cy = std::isfinite(y.change()) ? y.change() : -INFINITY;
        return cx > cy;
    });
    return d;
}

void add_study_diff(Document& doc, const StudyDiff& d, const std::string& before_name, const std::string& after_name) {
    doc.heading("Study diff: " + before_name + " -> " + after_name);
    size_t slower = 0, faster = 0, tripped = 0;
    for (const StudyDiffRow& r : d.rows) {
        slower += r.change() > 0;
        faster += r.change() < 0;
        for (const GateCheck& c : r.checks) tripped += c.tripped;
    }
    std::string summary = std::to_string(d.rows.size()) + " workload" + (d.rows.size() == 1 ? "" : "s") +
                          " matched: " + std::to_string(slower) + " slower, " + std::to_string(faster) + " faster";
    if (!d.rows.empty() && d.rows.front().change() > 0)
        summary += "; the worst, " + d.rows.front().before.name + " (" + d.rows.front().shape + "), " +
                   signed_percent(d.rows.front().change()) + " median latency";
    bool gated = std::any_of(d.rows.begin(), d.rows.end(), [](const StudyDiffRow& r) { return r.checks.size() > 1; });
    if (gated) summary += "; " + std::to_string(tripped) + " gate" + (tripped == 1 ? "" : "s") + " tripped";
    doc.paragraph(summary + ".");

    TableBlock t;
    t.columns = {"workload", "shape", "before", "after", "median before", "median after", "change"};
    t.numeric = {false, false, false, false, true, true, true};
    if (gated) {
        t.columns.push_back("gates");
        t.numeric.push_back(false);
    }
    for (const StudyDiffRow& r : d.rows) {
        // The toolchain only where it differs: two compiler versions.
        bool tc = r.before_toolchain != r.after_toolchain;
        const GateCheck& m = r.checks.front();
        std::vector<std::string> row = {r.before.name, r.shape, run_side_label(r.before, tc ? r.before_toolchain : ""),
                                        run_side_label(r.after, tc ? r.after_toolchain : ""),
                                        format_run_ns(r.before, m.baseline * 1e3), format_run_ns(r.after, m.current * 1e3),
                                        signed_percent(m.change)};
        if (gated) {
            std::string g;
            for (size_t i = 1; i < r.checks.size(); ++i)
                g += (g.empty() ? "" : "; ") + r.checks[i].gate + (r.checks[i].tripped ? " TRIPPED" : " ok");
            row.push_back(g);
        }
        t.rows.push_back(std::move(row));
    }
    if (!t.rows.empty()) doc.table(t);

    // The changes as bars, worst first (HTML; the table says the same).
    if (!d.rows.empty()) {
        ChartBlock c = chart_block("bars", "Median latency change, worst first", "", "change (%)");
        ChartSeries s;
        s.name = "change";
        constexpr size_t kBars = 24;
        for (size_t i = 0; i < d.rows.size() && i < kBars; ++i) {
            if (!std::isfinite(d.rows[i].change())) continue;
            c.categories.push_back(d.rows[i].before.name);
            s.y.push_back(100 * d.rows[i].change());
            s.labels.push_back(signed_percent(d.rows[i].change()));
        }
        c.series.push_back(std::move(s));
        if (!c.categories.empty()) {
            doc.chart(c);
            doc.html_only();
        }
    }

    std::vector<std::string> items;
    for (const std::string& w : d.only_before) items.push_back("only before: " + w);
    for (const std::string& w : d.only_after) items.push_back("only after: " + w);
    for (const std::string& w : d.ambiguous) items.push_back("not compared: " + w);
    if (!items.empty()) doc.items(items);
}

void write_study_diff(const StudyDiff& d, RowWriter& out) {
    out.columns({"kind", "study", "workload", "shape", "before_target", "before_backend", "before_toolchain",
                 "after_target", "after_backend", "after_toolchain", "metric", "before", "after", "change", "relative",
                 "gate", "tripped"});
    auto text = [](const std::string& s) { return s.empty() ? Cell{} : Cell::of_text(s); };
    for (const StudyDiffRow& r : d.rows)
        for (const GateCheck& c : r.checks)
            out.row({Cell::of_text("study_diff"), text(r.after.study), Cell::of_text(r.after.name), Cell::of_text(r.shape),
                     text(r.before.target), text(r.before.backend), text(r.before_toolchain), text(r.after.target),
                     text(r.after.backend), text(r.after_toolchain), Cell::of_text(c.metric), Cell::of_real(c.baseline),
                     Cell::of_real(c.current), std::isfinite(c.change) ? Cell::of_real(c.change) : Cell{},
                     Cell::of_int(c.relative ? 1 : 0), text(c.gate), Cell::of_int(c.tripped ? 1 : 0)});
    out.finish();
}

}  // namespace nx
