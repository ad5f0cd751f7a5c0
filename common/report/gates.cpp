#include "common/report/gates.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "common/io/error.h"
#include "common/profile/metric_defs.h"
#include "common/records/jsonl.h"
#include "common/report/source_label.h"
#include "common/format/units.h"

namespace nx {

namespace {

// A record reduced to what gates need: an identity and numeric values by
// (dotted) name.
struct Flat {
    std::string key;
    std::string name;
    std::string where;     // "sim on trn2": what else must match besides the name
    std::string target, backend;
    std::string headline;  // metric shown when no gate is given
    std::map<std::string, double> values;
};

void flatten(const rapidjson::Value& v, const std::string& prefix, std::map<std::string, double>& out) {
    if (v.IsNumber()) {
        if (std::isfinite(v.GetDouble())) out[prefix] = v.GetDouble();
    } else if (v.IsObject()) {
        for (auto& m : v.GetObject()) {
            std::string k = prefix.empty() ? m.name.GetString() : prefix + "." + m.name.GetString();
            flatten(m.value, k, out);
        }
    }
}

std::string field(const rapidjson::Value& r, const char* k) {
    try {
        return get_string(r, k).value_or("");
    } catch (const Error&) {
        return "";
    }
}

std::string where_of(const std::string& backend, const std::string& target) {
    return (backend.empty() ? "unknown backend" : backend) + " on " + (target.empty() ? "unknown target" : target);
}

std::vector<Flat> flatten_all(const ReportInput& in) {
    std::vector<Flat> out;
    for (const ProfileEntry& p : in.profiles) {
        Flat f;
        f.name = p.info.name;
        f.key = "profile|" + p.info.name + "|" + p.info.backend + "|" + p.info.target + "|" + std::to_string(p.info.rank);
        if (p.info.rank >= 0) f.name += " (rank " + std::to_string(p.info.rank) + ")";
        f.where = where_of(p.info.backend, p.info.target);
        f.target = p.info.target;
        f.backend = p.info.backend;
        f.headline = "total_time";
        for (const MetricValue& m : p.summary.metrics) f.values[m.name] = m.value;
        out.push_back(std::move(f));
    }
    for (const rapidjson::Document& r : in.runs) {
        Flat f;
        f.name = field(r, "name");
        f.key = "run|" + field(r, "study") + "|" + f.name + "|" + field(r, "backend") + "|" + field(r, "target");
        f.where = where_of(field(r, "backend"), field(r, "target"));
        f.target = field(r, "target");
        f.backend = field(r, "backend");
        f.headline = "latency_us.median";
        flatten(r, "", f.values);
        out.push_back(std::move(f));
    }
    for (const rapidjson::Document& r : in.benches) {
        Flat f;
        f.name = field(r, "name");
        f.key = "bench|" + f.name;
        f.headline = "value";
        flatten(r, "", f.values);
        out.push_back(std::move(f));
    }
    return out;
}

std::optional<double> lookup(const Flat& f, const std::string& metric) {
    auto it = f.values.find(metric);
    if (it != f.values.end()) return it->second;
    it = f.values.find("metrics." + metric);  // run records may nest metrics
    if (it != f.values.end()) return it->second;
    return std::nullopt;
}

// Edit distance counting a swap of neighbours as one edit ("medain" is one
// from "median"), to suggest the metric a misspelled gate meant.
size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

// A gate on a metric that no record has and nx does not define is a typo:
// say so, with the nearest names, rather than "no record matched".
void check_flat_gate_metrics(const std::vector<Gate>& gates, const std::vector<Flat>& current,
                             const std::vector<Flat>& baseline) {
    for (const Gate& g : gates) {
        if (find_metric_def(g.metric)) continue;
        std::set<std::string> names;
        bool found = false;
        for (const std::vector<Flat>* side : {&current, &baseline})
            for (const Flat& f : *side) {
                if (lookup(f, g.metric)) found = true;
                for (const auto& [name, value] : f.values) names.insert(name);
            }
        if (found) continue;
        std::string msg = "unknown metric '" + g.metric + "' in --fail-on '" + g.text + "': no record has it";
        std::vector<std::pair<size_t, std::string>> near;
        for (const std::string& n : names) near.emplace_back(edit_distance(g.metric, n), n);
        std::sort(near.begin(), near.end());
        if (!near.empty() && near.front().first <= 3) {
            msg += " (did you mean '" + near.front().second + "'?)";
        } else if (!near.empty()) {
            msg += "; the records have:";
            for (size_t i = 0; i < near.size() && i < 12; ++i) msg += (i ? ", " : " ") + near[i].second;
            if (near.size() > 12) msg += ", ...";
        }
        throw UsageError(msg);
    }
}

}  // namespace

void check_gate_metrics(const std::vector<Gate>& gates, const ReportInput& current, const ReportInput& baseline) {
    check_flat_gate_metrics(gates, flatten_all(current), flatten_all(baseline));
}

std::optional<double> record_number(const rapidjson::Value& r, const std::string& metric) {
    Flat f;
    flatten(r, "", f.values);
    return lookup(f, metric);
}

GateCheck check_gate(const std::string& record, const std::string& metric, double baseline, double current,
                     const Gate* g) {
    // A gate fails closed: NaN compares false both ways and would pass.
    if (g && (!std::isfinite(baseline) || !std::isfinite(current)))
        throw Error("gate '" + g->text + "' cannot be checked for " + record + ": the " +
                    (std::isfinite(current) ? "baseline" : "current") + " " + metric + " is not a finite number");
    GateCheck k;
    k.record = record;
    k.metric = metric;
    k.baseline = baseline;
    k.current = current;
    k.relative = !g || g->relative;
    k.change = k.relative ? (baseline != 0 ? (current - baseline) / std::fabs(baseline) : (current == baseline ? 0 : INFINITY))
                          : current - baseline;
    if (g) {
        k.gate = g->text;
        k.tripped = g->greater ? k.change > g->limit : k.change < g->limit;
    }
    return k;
}

std::vector<Gate> parse_gates(const std::vector<std::string>& specs) {
    std::vector<Gate> gates;
    for (const std::string& spec : specs) {
        std::stringstream ss(spec);
        std::string one;
        while (std::getline(ss, one, ','))
            if (!one.empty()) gates.push_back(parse_gate(one));
    }
    return gates;
}

Gate parse_gate(const std::string& text) {
    Gate g;
    g.text = text;
    size_t op = text.find_first_of("<>");
    if (op == std::string::npos || op == 0)
        throw UsageError("bad --fail-on '" + text + "': expected METRIC>N% or METRIC<-N% (e.g. 'total_time>5%')");
    g.metric = text.substr(0, op);
    while (!g.metric.empty() && g.metric.back() == ' ') g.metric.pop_back();
    g.greater = text[op] == '>';
    std::string num = text.substr(op + 1);
    if (!num.empty() && num[0] == '=') num.erase(0, 1);
    g.relative = !num.empty() && num.back() == '%';
    if (g.relative) num.pop_back();
    char* end = nullptr;
    g.limit = std::strtod(num.c_str(), &end);
    if (num.empty() || *end != '\0' || !std::isfinite(g.limit))
        throw UsageError("bad --fail-on '" + text + "': '" + num + "' is not a number");
    if (g.relative) g.limit /= 100.0;
    return g;
}

std::vector<GateCheck> check_baseline(const ReportInput& current, const ReportInput& baseline,
                                      const std::vector<Gate>& gates, BaselineMatch& match) {
    std::vector<std::string>& unmatched = match.unmatched;
    std::vector<Flat> base_all = flatten_all(baseline);
    std::vector<Flat> cur_all = flatten_all(current);
    check_flat_gate_metrics(gates, cur_all, base_all);
    // Profiles and bench records name one figure each: several baseline
    // records under one key are ambiguous and not compared.  Runs are a
    // history: the latest run of a workload is its baseline.
    std::map<std::string, Flat> base;
    std::map<std::string, int> seen;
    for (Flat& f : base_all) {
        ++seen[f.key];
        base[f.key] = std::move(f);
    }
    std::map<std::string, int> current_seen;
    for (const Flat& f : cur_all) ++current_seen[f.key];
    std::map<std::string, std::string> base_where;  // by name: where the baseline has it
    for (const auto& [key, f] : base) base_where.emplace(f.name, f.where);
    std::vector<GateCheck> out;
    match.records = cur_all.size();
    for (const Flat& cur : cur_all) {
        bool history = cur.key.rfind("run|", 0) == 0;
        if (base.count(cur.key)) ++match.matched;
        if (!history && (seen[cur.key] > 1 || current_seen[cur.key] > 1)) {
            unmatched.push_back(cur.name + " (ambiguous: several records share its name)");
            continue;
        }
        auto it = base.find(cur.key);
        if (it == base.end()) {
            unmatched.push_back(cur.name);
            auto w = base_where.find(cur.name);
            if (w != base_where.end() && w->second != cur.where)
                match.elsewhere.push_back(cur.name + " (baseline " + w->second + ", here " + cur.where + ")");
            continue;
        }
        auto check = [&](const std::string& metric, const Gate* g) {
            std::optional<double> b = lookup(it->second, metric), c = lookup(cur, metric);
            if (!b || !c) {
                if (g) unmatched.push_back(cur.name + " (no " + metric + ")");
                return;
            }
            GateCheck k = check_gate(cur.name, metric, *b, *c, g);
            k.target = cur.target;
            k.backend = cur.backend;
            out.push_back(k);
        };
        if (gates.empty()) check(cur.headline, nullptr);
        for (const Gate& g : gates) check(g.metric, &g);
    }
    return out;
}

void add_baseline_report(Document& doc, const std::vector<GateCheck>& checks, const BaselineMatch& match) {
    int tripped = 0;
    for (const GateCheck& c : checks) tripped += c.tripped;
    doc.heading("Baseline check");
    doc.paragraph(std::to_string(checks.size()) + " check" + (checks.size() == 1 ? "" : "s") + ", " +
                  std::to_string(tripped) + " tripped");
    TableBlock t;
    t.columns = {"record", "metric", "baseline", "current", "change", "gate", "status"};
    t.numeric = {false, false, true, true, true, false, false};
    // Records of several targets or backends, each checked against its own:
    // rows say which, or two would read the same.
    SourceLabels sources;
    for (const GateCheck& c : checks) sources.add(c.target, c.backend);
    for (const GateCheck& c : checks) {
        std::string change = c.relative ? (std::isfinite(c.change) ? (c.change >= 0 ? "+" : "") + format_percent(100 * c.change) : "n/a")
                                        : (c.change >= 0 ? "+" : "") + format_value(c.change);
        std::string unit(metric_unit(c.metric));
        t.rows.push_back({sources.label(c.record, c.target, c.backend), c.metric, format_metric(c.baseline, unit), format_metric(c.current, unit), change, c.gate,
                          c.gate.empty() ? "" : (c.tripped ? "TRIPPED" : "ok")});
    }
    doc.table(t);
    if (!match.unmatched.empty()) {
        std::vector<std::string> items;
        for (const std::string& u : match.unmatched) items.push_back("no baseline for " + u);
        doc.items(items);
    }
    if (!match.elsewhere.empty()) {
        std::string list;
        for (const std::string& e : match.elsewhere) list += (list.empty() ? "" : ", ") + e;
        doc.paragraph("Not comparable: the baseline has these records for another backend or target: " + list + ".");
    }
}

void write_baseline_checks(const std::vector<GateCheck>& checks, RowWriter& out) {
    out.columns({"kind", "record", "metric", "baseline", "current", "change", "relative", "gate", "tripped"});
    SourceLabels sources;
    for (const GateCheck& c : checks) sources.add(c.target, c.backend);
    for (const GateCheck& c : checks)
        out.row({Cell::of_text("gate_check"), Cell::of_text(sources.label(c.record, c.target, c.backend)), Cell::of_text(c.metric),
                 Cell::of_real(c.baseline), Cell::of_real(c.current),
                 std::isfinite(c.change) ? Cell::of_real(c.change) : Cell{}, Cell::of_int(c.relative ? 1 : 0),
                 c.gate.empty() ? Cell{} : Cell::of_text(c.gate), Cell::of_int(c.tripped ? 1 : 0)});
    out.finish();
}

}  // namespace nx
