#include "common/report/bounds_report.h"

#include <algorithm>
#include <climits>

#include "common/report/trace_report.h"
#include "common/format/units.h"

namespace nx {

namespace {

// Why a range has no critical path.
std::string no_path_reason(const ProfileEntry& p, bool region) {
    if (!p.dependencies)
        return "not computed here: the critical path needs the profile's events (a study database: nx-convert --db, "
               "then nx-report DB)";
    if (p.dependencies->flow_rows == 0) return "not in this profile: no dependency data (Explorer's Flow table)";
    return region ? "no dependency chain starts and continues in this region" : "no Flow row joins two timed steps";
}

std::string bound_text(const Bound& b, double measured) {
    if (!b.ns) return b.basis;
    std::string text = format_ns(*b.ns);
    if (measured > 0) text += "  " + format_percent(100.0 * *b.ns / measured) + " of the time";
    return text + "  (" + b.basis + ")";
}

std::string cell(const Bound& b) { return b.ns ? format_ns(*b.ns) : "n/a"; }

}  // namespace

Bounds profile_bounds(const ProfileEntry& p, const RegionResult* r) {
    CriticalPath path;
    const CriticalPath* found = nullptr;
    if (p.dependencies && p.dependencies->flow_rows > 0) {
        path = r ? critical_path(*p.dependencies, r->region.start_ns, r->region.end_ns)
                 : critical_path(*p.dependencies, INT64_MIN, INT64_MAX);
        found = &path;
    }
    return compute_bounds(r ? r->summary : p.summary, p.info.target, found, no_path_reason(p, r != nullptr));
}

void add_bounds_report(Document& doc, const ProfileEntry& p, bool all) {
    doc.heading("Bounds (the least time the work could take: measured time against the highest)", 2);
    Bounds b = profile_bounds(p, nullptr);
    std::vector<Bar> bars;
    for (const Bound& x : b.bounds)
        bars.push_back({x.name, x.ns && b.measured_ns > 0 ? std::clamp(*x.ns / b.measured_ns, 0.0, 1.0) : 0.0,
                        bound_text(x, b.measured_ns)});
    doc.bars(bars);
    std::vector<Fact> facts = {{"measured", format_ns(b.measured_ns)}};
    if (const Bound* top = b.top())
        facts.push_back({"highest bound", top->name + ", " + format_ns(*top->ns) + " (measured is " +
                                              format_value(b.over_highest()) + "x it)"});
    else
        facts.push_back({"highest bound", "none: no bound has its data in this profile"});
    if (!b.critical_where.empty())
        facts.push_back({"on the critical path", b.critical_where + " (most time of its " +
                                                     std::to_string(b.critical_steps) + " steps)"});
    doc.facts(facts);
    if (!p.regions || p.regions->empty()) return;
    std::vector<const RegionResult*> order;
    for (const RegionResult& r : *p.regions) order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](const RegionResult* a, const RegionResult* c) {
        return a->region.end_ns - a->region.start_ns > c->region.end_ns - c->region.start_ns;
    });
    size_t n = all ? order.size() : std::min<size_t>(order.size(), 10);
    TableBlock t;
    t.columns = {"region", "measured", "memory", "compute", "dependency", "highest", "measured / highest",
                 "on the critical path"};
    t.numeric = {false, true, true, true, true, false, true, false};
    t.max_width = {48, 0, 0, 0, 0, 0, 0, 0};
    for (size_t k = 0; k < n; ++k) {
        Bounds rb = profile_bounds(p, order[k]);
        const Bound* top = rb.top();
        t.rows.push_back({order[k]->region.name, format_ns(rb.measured_ns), cell(rb.bounds[0]), cell(rb.bounds[1]),
                          cell(rb.bounds[2]), top ? top->name : "none", top ? format_value(rb.over_highest()) + "x" : "",
                          rb.critical_where.empty() ? "-" : rb.critical_where});
    }
    doc.table(t);
}

void write_bound_records(const std::vector<ProfileEntry>& profiles, RowWriter& out) {
    bool any = std::any_of(profiles.begin(), profiles.end(),
                           [](const ProfileEntry& p) { return !is_trace_profile(p.info, p.summary); });
    if (!any) return;
    out.columns({"kind", "profile", "name", "region", "start_ns", "end_ns", "measured_ns", "memory_bound_ns",
                 "compute_bound_ns", "dependency_bound_ns", "highest_bound", "measured_over_highest",
                 "critical_engine_queue", "critical_steps", "not_in_profile"});
    auto row = [&](const ProfileEntry& p, const RegionResult* r) {
        Bounds b = profile_bounds(p, r);
        std::vector<Cell> c = {Cell::of_text("bound"), Cell::of_text(p.info.id), Cell::of_text(p.info.name),
                               r ? Cell::of_text(r->region.name) : Cell{},
                               Cell::of_int(r ? r->region.start_ns : p.summary.start_ns),
                               Cell::of_int(r ? r->region.end_ns : p.summary.end_ns), Cell::of_real(b.measured_ns)};
        std::string missing;
        for (const Bound& x : b.bounds) {
            c.push_back(x.ns ? Cell::of_real(*x.ns) : Cell{});
            if (!x.ns) missing += (missing.empty() ? "" : "; ") + x.name + ": " + x.basis;
        }
        const Bound* top = b.top();
        c.push_back(top ? Cell::of_text(top->name) : Cell{});
        c.push_back(top ? Cell::of_real(b.over_highest()) : Cell{});
        c.push_back(b.critical_where.empty() ? Cell{} : Cell::of_text(b.critical_where));
        c.push_back(Cell::of_int(static_cast<int64_t>(b.critical_steps)));
        c.push_back(missing.empty() ? Cell{} : Cell::of_text(missing));
        out.row(c);
    };
    for (const ProfileEntry& p : profiles) {
        if (is_trace_profile(p.info, p.summary)) continue;
        row(p, nullptr);
        if (p.regions)
            for (const RegionResult& r : *p.regions) row(p, &r);
    }
    out.finish();
}

}  // namespace nx
