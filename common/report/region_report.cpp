#include "common/report/region_report.h"

#include <algorithm>

#include "common/report/profile_report.h"
#include "common/report/trace_report.h"
#include "common/format/units.h"

namespace nx {

std::string activity_sparkline(const ProfileSummary& s, size_t width) {
    static constexpr std::string_view kLevels = " .:-=+*#%@";
    std::vector<double> peak;
    for (const EngineTimeline& t : s.timeline) {
        if (!is_compute_engine(t.engine)) continue;
        if (peak.size() < t.active_percent.size()) peak.resize(t.active_percent.size(), 0);
        for (size_t b = 0; b < t.active_percent.size(); ++b) peak[b] = std::max(peak[b], t.active_percent[b]);
    }
    if (peak.empty() || width == 0) return {};
    std::string out;
    for (size_t c = 0; c < width; ++c) {
        size_t lo = c * peak.size() / width, hi = std::max(lo + 1, (c + 1) * peak.size() / width);
        double v = 0;
        for (size_t b = lo; b < hi && b < peak.size(); ++b) v = std::max(v, peak[b]);
        size_t level = static_cast<size_t>(std::clamp(v, 0.0, 100.0) / 100.0 * (kLevels.size() - 1) + 0.5);
        out += kLevels[level];
    }
    return out;
}

void add_region_report(Document& doc, const ProfileEntry& p, const RegionReportOptions& o) {
    if (!p.regions) {
        // A profile record carries figures, not events: say where regions come from.
        if (!p.stored && !is_trace_profile(p.info, p.summary))
            doc.paragraph("Regions: not computed for a profile record (it carries no events); load the profile into "
                          "a study database (nx-convert --db FILE) and run nx-report --db FILE for per-region figures.");
        return;
    }
    const std::vector<RegionResult>& regions = *p.regions;
    std::vector<const RegionResult*> order;
    for (const RegionResult& r : regions) order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](const RegionResult* a, const RegionResult* b) {
        return a->region.end_ns - a->region.start_ns > b->region.end_ns - b->region.start_ns;
    });
    size_t n = o.all ? order.size() : std::min(order.size(), o.top);
    std::string title = "Regions (by time; an event counts where it starts, clipped at the region's end)";
    if (n < order.size())
        title = "Regions (top " + std::to_string(n) + " of " + std::to_string(order.size()) +
                " by time; --all for every one)";
    doc.heading(title, 2);
    if (order.empty()) {
        doc.paragraph("no layer, iteration or window in this profile (--window FROM:TO adds one)");
    } else {
        TableBlock t;
        t.columns = {"region", "kind", "start", "duration", "of the profile", "TensorE", "DMA", "activity", "worst finding"};
        t.numeric = {false, false, true, true, true, true, true, false, false};
        t.max_width = {48, 0, 0, 0, 0, 0, 0, 0, 0};
        double span = static_cast<double>(p.summary.end_ns - p.summary.start_ns);
        auto pct = [](const ProfileSummary& s, const char* name) {
            const MetricValue* m = s.find(name);
            return m ? format_percent(m->value) : std::string("n/a");
        };
        for (size_t k = 0; k < n; ++k) {
            const RegionResult& r = *order[k];
            double dur = static_cast<double>(r.region.end_ns - r.region.start_ns);
            std::string worst = "none";
            if (!r.findings.empty()) {
                const Finding& f = r.findings.front();
                worst = f.rule + " (" + std::string(to_string(f.severity)) + ", " + f.metric + " " +
                        format_value(f.value) + ")";
            }
            t.rows.push_back({r.region.name, r.region.kind,
                              format_ns(static_cast<double>(r.region.start_ns - p.summary.start_ns)), format_ns(dur),
                              span > 0 ? format_percent(100.0 * dur / span) : "",
                              pct(r.summary, "tensor_engine_active_time_percent"), pct(r.summary, "dma_active_time_percent"),
                              "[" + activity_sparkline(r.summary, 16) + "]", worst});
        }
        doc.table(t);
    }
    if (!p.region_notes.empty()) doc.items(p.region_notes);
}

void write_region_findings(const ProfileEntry& p, RowWriter& out) {
    if (!p.regions) return;
    for (const RegionResult& r : *p.regions)
        for (const Finding& f : r.findings) out.row(finding_cells(p, f));
}

}  // namespace nx
