#include "common/report/compare_n.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "common/io/error.h"
#include "common/profile/metric_defs.h"
#include "common/report/compare_report.h"
#include "common/report/prediction_band.h"
#include "common/format/units.h"

namespace nx {

namespace {

// One compared figure: its value in each profile (profiles[0] the base);
// nullopt where the profile cannot say (no such metric, no regions, an
// opcode beyond a full top list).
struct Item {
    std::string what;  // metric, engine, opcode, region
    std::string name;
    std::string kind;  // regions: layer, iteration, window
    std::string unit;  // "ns", or the metric's unit
    std::vector<std::optional<double>> values;

    std::optional<double> change(size_t i) const {
        if (!values[0] || !values[i]) return std::nullopt;
        return *values[i] - *values[0];
    }
    // The largest change against the base, for ordering.
    double largest_change() const {
        double m = 0;
        for (size_t i = 1; i < values.size(); ++i)
            if (auto c = change(i)) m = std::max(m, std::fabs(*c));
        return m;
    }
};

std::vector<Item> metric_items(const std::vector<const ProfileEntry*>& ps, bool all) {
    std::vector<Item> out;
    for (const std::string& name : compared_metric_names(ps, all)) {
        Item it{"metric", name, "", std::string(metric_unit(name)), {}};
        for (const ProfileEntry* p : ps) {
            const MetricValue* m = p->summary.find(name);
            it.values.push_back(m ? std::optional<double>(m->value) : std::nullopt);
        }
        out.push_back(std::move(it));
    }
    return out;
}

std::vector<Item> engine_items(const std::vector<const ProfileEntry*>& ps) {
    std::vector<Item> out;
    for (Engine e : compared_engines()) {
        Item it{"engine", std::string(to_string(e)), "", "ns", {}};
        bool any = false;
        for (const ProfileEntry* p : ps) {
            int64_t ns = engine_busy_ns(p, e);
            any = any || ns > 0;
            it.values.push_back(static_cast<double>(ns));
        }
        if (any) out.push_back(std::move(it));
    }
    return out;
}

// Opcodes of every profile's top list.  A profile whose list is shorter than
// kTopKeys lists every opcode it ran, so a missing one ran for 0 ns; in a full
// list a missing one is unknown.
std::vector<Item> opcode_items(const std::vector<const ProfileEntry*>& ps) {
    std::vector<Item> out;
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < ps.size(); ++i)
        for (const KeyStat& k : ps[i]->summary.top_opcodes) {
            auto [it, fresh] = index.emplace(k.key, out.size());
            if (fresh) {
                out.push_back({"opcode", k.key, "", "ns", {}});
                for (const ProfileEntry* p : ps) {
                    const auto& list = p->summary.top_opcodes;
                    bool complete = !list.empty() && list.size() < kTopKeys;
                    out.back().values.push_back(complete ? std::optional<double>(0) : std::nullopt);
                }
            }
            out[it->second].values[i] = static_cast<double>(k.time_ns);
        }
    return out;
}

// Regions matched by kind and name; a profile with regions computed but not
// this one did not have it (nullopt: shown blank, no change).
std::vector<Item> region_items(const std::vector<const ProfileEntry*>& ps) {
    std::vector<Item> out;
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < ps.size(); ++i) {
        if (!ps[i]->regions) continue;
        for (const RegionResult& r : *ps[i]->regions) {
            auto [it, fresh] = index.emplace(r.region.kind + "\n" + r.region.name, out.size());
            if (fresh) out.push_back({"region", r.region.name, r.region.kind, "ns",
                                      std::vector<std::optional<double>>(ps.size())});
            out[it->second].values[i] = static_cast<double>(r.region.end_ns - r.region.start_ns);
        }
    }
    return out;
}

// The items that changed most first (stable: ties keep their order).
void sort_by_change(std::vector<Item>& items) {
    std::stable_sort(items.begin(), items.end(),
                     [](const Item& a, const Item& b) { return a.largest_change() > b.largest_change(); });
}

std::string signed_ns(double ns) { return (ns >= 0 ? "+" : "") + format_ns(ns); }

// A table of ns items: [label columns], base, then per other profile its
// value and change.
void add_ns_table(Document& doc, const std::vector<const ProfileEntry*>& ps, const std::vector<Item>& items,
                  const std::string& label, bool with_kind, size_t limit) {
    TableBlock t;
    t.columns = {label};
    t.numeric = {false};
    t.max_width = {60};
    if (with_kind) {
        t.columns.push_back("kind");
        t.numeric.push_back(false);
        t.max_width.push_back(0);
    }
    for (size_t i = 0; i < ps.size(); ++i) {
        t.columns.push_back(ps[i]->info.name);
        t.numeric.push_back(true);
        if (i > 0) {
            t.columns.push_back("change");
            t.numeric.push_back(true);
        }
    }
    for (size_t n = 0; n < items.size() && n < limit; ++n) {
        const Item& it = items[n];
        std::vector<std::string> row = {it.name};
        if (with_kind) row.push_back(it.kind);
        for (size_t i = 0; i < ps.size(); ++i) {
            row.push_back(it.values[i] ? format_ns(*it.values[i]) : "");
            if (i > 0) row.push_back(it.change(i) ? signed_ns(*it.change(i)) : "");
        }
        t.rows.push_back(std::move(row));
    }
    doc.table(t);
    if (items.size() > limit)
        doc.paragraph(std::to_string(items.size() - limit) + " more (--all lists them)");
}

}  // namespace

std::vector<const ProfileEntry*> order_by_base(const std::vector<ProfileEntry>& profiles, const std::string& base) {
    std::vector<const ProfileEntry*> out;
    for (const ProfileEntry& p : profiles) out.push_back(&p);
    if (base.empty() || out.empty()) return out;
    std::vector<size_t> hits;
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i]->info.name == base || out[i]->info.id == base) hits.push_back(i);
    if (hits.size() != 1) {
        std::string names;
        for (size_t i = 0; i < out.size() && i < 12; ++i) names += (i ? ", " : "") + out[i]->info.name;
        if (out.size() > 12) names += ", ...";
        throw Error("--base " + base + ": " +
                    (hits.empty() ? "not one of the profiles compared (" + names + ")"
                                  : std::to_string(hits.size()) + " profiles have that name; give its id (nx-query profiles)"));
    }
    std::rotate(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(hits[0]),
                out.begin() + static_cast<std::ptrdiff_t>(hits[0]) + 1);
    return out;
}

void add_compare_deltas(Document& doc, const std::vector<const ProfileEntry*>& ps, const CompareDeltaOptions& o) {
    if (ps.size() < 2) return;
    const ProfileEntry* base = ps[0];
    const std::string& bn = base->info.name;
    size_t limit = o.all ? SIZE_MAX : o.top;

    // One line per profile: its total time against the base and the engine
    // whose busy time moved most.  Engines overlap, so shares need not add up.
    doc.heading("Against " + bn, 2);
    double base_ns = profile_total_ns(base);
    doc.paragraph("Base: " + bn + ", " + with_band(format_ns(base_ns), prediction_band(base->info)) + ". Each profile's largest engine change is the engine "
                  "whose busy time moved most; engines overlap, so shares need not add up to 100%.");
    TableBlock t;
    t.columns = {"profile", "total time", "vs " + bn, "change", "largest engine change", "share of the change"};
    t.numeric = {false, true, true, true, false, true};
    std::vector<Item> engines = engine_items(ps);
    for (size_t i = 1; i < ps.size(); ++i) {
        double ns = profile_total_ns(ps[i]), dt = ns - base_ns;
        std::string engine, share;
        double best = -1;
        for (const Item& e : engines)
            if (auto c = e.change(i); c && std::fabs(*c) > best) {
                best = std::fabs(*c);
                engine = e.name + " " + signed_ns(*c);
                share = dt != 0 ? format_percent(100.0 * *c / dt) : "";
            }
        if (best <= 0) engine.clear(), share.clear();
        t.rows.push_back({ps[i]->info.name, with_band(format_ns(ns), prediction_band(ps[i]->info)), base_ns > 0 ? format_ratio(ns / base_ns) : "n/a",
                          signed_ns(dt), engine, share});
    }
    doc.table(t);

    std::vector<Item> opcodes = opcode_items(ps);
    sort_by_change(opcodes);
    doc.heading("Opcodes against " + bn, 2);
    if (opcodes.empty()) {
        doc.paragraph("Opcodes: not in these profiles.");
    } else {
        doc.paragraph("Time per opcode, the largest changes first (from each profile's top " +
                      std::to_string(kTopKeys) + "; blank: beyond a profile's list).");
        add_ns_table(doc, ps, opcodes, "opcode", false, limit);
    }

    std::vector<Item> regions = region_items(ps);
    sort_by_change(regions);
    doc.heading("Regions against " + bn, 2);
    if (regions.empty()) {
        doc.paragraph("Regions: not in these profiles (regions need the events: read the profiles from a study "
                      "database).");
    } else {
        doc.paragraph("Region durations matched by kind and name, the largest changes first (blank: the profile "
                      "has no such region).");
        add_ns_table(doc, ps, regions, "region", true, limit);
    }
}

void write_compare_deltas(const std::vector<const ProfileEntry*>& ps, const CompareDeltaOptions& o, RowWriter& out) {
    out.columns({"kind", "what", "name", "unit", "base", "profile", "base_value", "value", "change", "ratio"});
    if (ps.size() < 2) {
        out.finish();
        return;
    }
    std::vector<Item> items = metric_items(ps, o.all);
    for (std::vector<Item> more : {engine_items(ps), opcode_items(ps), region_items(ps)}) {
        if (more.empty() || more.front().what == "engine") {
            items.insert(items.end(), more.begin(), more.end());
            continue;
        }
        sort_by_change(more);
        if (!o.all && more.size() > o.top) more.resize(o.top);
        items.insert(items.end(), more.begin(), more.end());
    }
    auto real = [](const std::optional<double>& v) { return v ? Cell::of_real(*v) : Cell{}; };
    for (const Item& it : items)
        for (size_t i = 1; i < ps.size(); ++i) {
            std::optional<double> c = it.change(i);
            std::optional<double> ratio;
            if (c && *it.values[0] != 0) ratio = *it.values[i] / *it.values[0];
            std::string name = it.kind.empty() ? it.name : it.kind + ":" + it.name;
            out.row({Cell::of_text("comparison_delta"), Cell::of_text(it.what), Cell::of_text(name),
                     Cell::of_text(it.unit), Cell::of_text(ps[0]->info.name), Cell::of_text(ps[i]->info.name),
                     real(it.values[0]), real(it.values[i]), real(c), real(ratio)});
        }
    out.finish();
}

}  // namespace nx
