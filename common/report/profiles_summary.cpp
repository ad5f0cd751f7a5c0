#include "common/report/profiles_summary.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "common/profile/metric_defs.h"
#include "common/profile/profile_findings.h"
#include "common/profile/rules.h"
#include "common/report/natural_order.h"
#include "common/report/prediction_band.h"
#include "common/format/units.h"

namespace nx {

namespace {

std::string metric_cell(const ProfileSummary& s, const char* name) {
    const MetricValue* m = s.find(name);
    return m ? format_metric(m->value, std::string(metric_unit(name))) : "";
}

double total_time(const ProfileEntry& p) {
    const MetricValue* m = p.summary.find("total_time");
    return m ? m->value : static_cast<double>(p.summary.end_ns - p.summary.start_ns) * 1e-9;
}

std::string where(const ProfileInfo& i) {
    if (i.backend.empty()) return i.target;
    return i.target.empty() ? i.backend : i.backend + "/" + i.target;
}

void set_text(rapidjson::Document& d, const char* key, const std::string& value) {
    if (value.empty() || d.HasMember(key)) return;
    d.AddMember(rapidjson::Value(key, d.GetAllocator()), rapidjson::Value(value.c_str(), d.GetAllocator()),
                d.GetAllocator());
}

}  // namespace

bool wants_profiles_summary(const std::vector<ProfileEntry>& profiles, const std::vector<std::string>& named) {
    return named.empty() && profiles.size() > kProfilesForSummary;
}

std::vector<rapidjson::Document> runs_of_profiles(const std::vector<ProfileEntry>& profiles) {
    std::vector<rapidjson::Document> runs;
    for (const ProfileEntry& p : profiles) {
        const std::string& c = p.info.carried_json;
        if (c.find("\"latency_us\"") == std::string::npos) continue;
        rapidjson::Document d;
        d.Parse(c.data(), c.size());
        if (d.HasParseError() || !d.IsObject() || !d.HasMember("latency_us")) continue;
        d.RemoveMember("kind");
        d.AddMember("kind", "run", d.GetAllocator());
        set_text(d, "name", p.info.name);
        set_text(d, "backend", p.info.backend);
        set_text(d, "target", p.info.target);
        set_text(d, "dtype", p.info.dtype);
        runs.push_back(std::move(d));
    }
    return runs;
}

void add_profiles_summary(Document& doc, const std::vector<ProfileEntry>& profiles, const ReportOptions& o) {
    std::vector<std::pair<const ProfileEntry*, std::vector<Finding>>> rows;
    for (const ProfileEntry& p : profiles) rows.push_back({&p, profile_findings(p.info, p.summary, &o.thresholds)});
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        double ta = total_time(*a.first), tb = total_time(*b.first);
        if (ta != tb) return ta > tb;
        return natural_less(a.first->info.name, b.first->info.name);
    });

    doc.heading("Profiles (" + std::to_string(profiles.size()) + ", longest first)");
    TableBlock t;
    t.columns = {"profile", "backend/target", "total time", "MFU", "MBU", "bound", "findings", "worst finding"};
    t.numeric = {false, false, true, true, true, false, false, false};
    // Each rule (with its action: a GEMV's advice differs) across the study.
    struct Across {
        Severity severity;
        size_t profiles = 0;
        std::string example;
    };
    std::map<std::pair<std::string, std::string>, Across> across;
    for (const auto& [p, findings] : rows) {
        const ProfileSummary& s = p->summary;
        size_t critical = 0, warn = 0;
        for (const Finding& f : findings) {
            critical += f.severity == Severity::critical;
            warn += f.severity == Severity::warn;
            auto [it, fresh] = across.try_emplace({f.rule, f.action}, Across{f.severity, 0, p->info.name});
            ++it->second.profiles;
        }
        std::string counts = std::to_string(critical) + " critical, " + std::to_string(warn) + " warn";
        // findings come ranked: the first rule finding is the worst; the
        // source's warnings come first and are shown only when critical.
        std::string worst;
        for (const Finding& f : findings)
            if (f.severity != Severity::info && (f.rule.rfind("profiler_", 0) != 0 || f.severity == Severity::critical)) {
                worst = f.rule;
                break;
            }
        t.rows.push_back({p->info.name, where(p->info), with_band(format_seconds(total_time(*p)), prediction_band(p->info)),
                          metric_cell(s, "mfu_estimated_percent"), metric_cell(s, "mbu_estimated_percent"),
                          s.engines.empty() ? "" : classify_bound(s).verdict, counts, worst});
    }
    doc.table(t);

    doc.heading("Findings across the profiles", 2);
    if (across.empty()) {
        doc.paragraph("no rule fired in any profile");
    } else {
        std::vector<std::pair<std::pair<std::string, std::string>, Across>> list(across.begin(), across.end());
        std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
            return std::make_tuple(static_cast<int>(a.second.severity), a.second.profiles) >
                   std::make_tuple(static_cast<int>(b.second.severity), b.second.profiles);
        });
        TableBlock f;
        f.columns = {"rule", "severity", "profiles", "action", "e.g."};
        f.numeric = {false, false, true, false, false};
        for (const auto& [key, a] : list)
            f.rows.push_back({key.first, std::string(to_string(a.severity)),
                              std::to_string(a.profiles) + " of " + std::to_string(profiles.size()), key.second, a.example});
        doc.table(f);
    }
    doc.paragraph("a report for each profile: --each (or --profile NAME for one)");
}

void add_each_profile_report(Document& doc, const std::vector<ProfileEntry>& profiles, const ReportOptions& options) {
    std::vector<const ProfileEntry*> order;
    for (const ProfileEntry& p : profiles) order.push_back(&p);
    std::stable_sort(order.begin(), order.end(), [](const ProfileEntry* a, const ProfileEntry* b) {
        return natural_less(a->info.name, b->info.name);
    });
    for (const ProfileEntry* p : order) add_profile_report(doc, *p, options);
}

}  // namespace nx
