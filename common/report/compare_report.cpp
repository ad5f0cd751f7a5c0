#include "common/report/compare_report.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "common/profile/metric_defs.h"
#include "common/report/prediction_band.h"
#include "common/report/source_label.h"
#include "common/format/units.h"

namespace nx {

namespace {

// Metrics shown without --all: time, utilisation, engines, DMA.
const char* const kKeyMetrics[] = {
    "total_time", "mfu_estimated_percent", "hfu_estimated_percent", "mbu_estimated_percent", "achieved_tflops",
    "mm_arithmetic_intensity", "tensor_engine_active_time_percent", "vector_engine_active_time_percent",
    "scalar_engine_active_time_percent", "gpsimd_engine_active_time_percent", "dma_active_time_percent",
    "dma_wait_percent", "tensor_engine_time_share_percent", "event_count", "tensor_engine_instruction_count",
    "matmul_instruction_count", "vector_engine_instruction_count", "dma_transfer_count", "dma_transfer_average_bytes",
    "hbm_read_bytes", "hbm_write_bytes",
};

}  // namespace

std::vector<std::string> compared_metric_names(const std::vector<const ProfileEntry*>& ps, bool all) {
    std::vector<std::string> names;
    if (!all) {
        for (const char* n : kKeyMetrics)
            for (const ProfileEntry* p : ps)
                if (p->summary.find(n)) {
                    names.emplace_back(n);
                    break;
                }
        return names;
    }
    std::set<std::string> seen;
    for (const MetricDef& d : metric_defs())
        for (const ProfileEntry* p : ps)
            if (p->summary.find(d.name) && seen.insert(std::string(d.name)).second) names.emplace_back(d.name);
    for (const ProfileEntry* p : ps)
        for (const MetricValue& m : p->summary.metrics)
            if (seen.insert(m.name).second) names.push_back(m.name);
    return names;
}

// Each profile's name for columns, series and headings: with its target and
// backend when the profiles compared come from more than one.
std::vector<std::string> profile_labels(const std::vector<const ProfileEntry*>& ps) {
    SourceLabels sources;
    for (const ProfileEntry* p : ps) sources.add(p->info.target, p->info.backend);
    std::vector<std::string> out;
    for (const ProfileEntry* p : ps) out.push_back(sources.label(p->info.name, p->info.target, p->info.backend));
    return out;
}

const std::vector<Engine>& compared_engines() {
    static const std::vector<Engine> engines = {Engine::tensor_matrix, Engine::tensor, Engine::vector, Engine::scalar,
                                                Engine::gpsimd, Engine::sync, Engine::dma};
    return engines;
}

int64_t engine_busy_ns(const ProfileEntry* p, Engine e) {
    for (const EngineStat& s : p->summary.engines)
        if (s.engine == e) return s.busy_ns;
    return 0;
}

double profile_total_ns(const ProfileEntry* p) {
    const MetricValue* t = p->summary.find("total_time");
    // The profiler gives seconds; the nanoseconds they stand for are whole
    // (0.008176 s is 8176000 ns, not the 8175999.999999999 the product is).
    return t ? std::round(t->value * 1e9) : static_cast<double>(p->summary.end_ns - p->summary.start_ns);
}

namespace {

// Total time and each engine's active time side by side, bars labelled
// with the ratio to the first profile (HTML; the tables say the same in text).
void add_time_bars(Document& doc, const std::vector<const ProfileEntry*>& ps, const std::vector<std::string>& labels) {
    constexpr double kNsPerUs = 1e3;
    ChartBlock c = chart_block("bars", "Time side by side (labels: ratio to " + labels[0] + ")", "", "time (us)");
    c.categories.push_back("total time");
    std::vector<Engine> shown;
    for (Engine e : compared_engines())
        for (const ProfileEntry* p : ps)
            if (engine_busy_ns(p, e) > 0) {
                shown.push_back(e);
                c.categories.push_back(std::string(to_string(e)) + " active");
                break;
            }
    for (size_t k = 0; k < ps.size(); ++k) {
        const ProfileEntry* p = ps[k];
        ChartSeries ser;
        ser.name = labels[k];
        std::vector<double> base = {profile_total_ns(ps[0])}, mine = {profile_total_ns(p)};
        for (Engine e : shown) {
            base.push_back(static_cast<double>(engine_busy_ns(ps[0], e)));
            mine.push_back(static_cast<double>(engine_busy_ns(p, e)));
        }
        for (size_t i = 0; i < mine.size(); ++i) {
            ser.y.push_back(mine[i] / kNsPerUs);
            ser.labels.push_back(base[i] > 0 ? format_ratio(mine[i] / base[i]) : "n/a");
        }
        c.series.push_back(std::move(ser));
    }
    doc.chart(c);
    doc.html_only();
}

}  // namespace

void add_comparison(Document& doc, const std::vector<const ProfileEntry*>& ps, bool all) {
    if (ps.empty()) return;
    std::vector<std::string> labels = profile_labels(ps);
    std::string title = "Comparison: ";
    for (size_t i = 0; i < ps.size(); ++i) title += (i ? " vs " : "") + labels[i];
    doc.heading(title);
    std::set<std::string> backends, targets;
    for (const ProfileEntry* p : ps) {
        backends.insert(p->info.backend);
        targets.insert(p->info.target);
    }
    if (backends.size() > 1)
        doc.paragraph("warning: these profiles come from different backends (sim predictions, cpu and neuron "
                      "measurements are not comparable as equals)");
    if (targets.size() > 1) doc.paragraph("warning: these profiles are for different targets");

    TableBlock t;
    t.columns = {"metric"};
    t.numeric = {false};
    for (size_t i = 0; i < ps.size(); ++i) {
        t.columns.push_back(labels[i]);
        t.numeric.push_back(true);
        if (i > 0) {
            t.columns.push_back("vs " + labels[0]);
            t.numeric.push_back(true);
        }
    }
    for (const std::string& name : compared_metric_names(ps, all)) {
        std::string unit(metric_unit(name));
        std::vector<std::string> row = {name};
        const MetricValue* base = ps[0]->summary.find(name);
        for (size_t i = 0; i < ps.size(); ++i) {
            const MetricValue* m = ps[i]->summary.find(name);
            row.push_back(m ? format_metric(m->value, unit) : "");
            if (i > 0)
                row.push_back(m && base && base->value != 0 ? format_ratio(m->value / base->value) : "");
        }
        t.rows.push_back(row);
    }
    doc.table(t);
    add_time_bars(doc, ps, labels);

    // Engine-time deltas against the first profile.
    for (size_t i = 1; i < ps.size(); ++i) {
        const ProfileEntry* a = ps[0];
        const ProfileEntry* b = ps[i];
        double dt = profile_total_ns(b) - profile_total_ns(a);
        const std::string &la = labels[0], &lb = labels[i];
        doc.heading("Where the time went: " + lb + " vs " + la, 2);
        std::string verdict = lb + " takes " + with_band(format_ns(profile_total_ns(b)), prediction_band(b->info)) + ", " +
                              (profile_total_ns(a) > 0 ? format_ratio(profile_total_ns(b) / profile_total_ns(a)) : std::string("n/a")) +
                              " the time of " + la + " (" + (dt >= 0 ? "+" : "") + format_ns(dt) + ").";
        TableBlock e;
        e.columns = {"engine", la, lb, "change", "share of the time change"};
        e.numeric = {false, true, true, true, true};
        struct Delta {
            Engine engine;
            int64_t da, db;
        };
        std::vector<Delta> deltas;
        for (Engine eng : compared_engines()) {
            int64_t x = engine_busy_ns(a, eng), y = engine_busy_ns(b, eng);
            if (x == 0 && y == 0) continue;
            deltas.push_back({eng, x, y});
        }
        std::sort(deltas.begin(), deltas.end(), [](const Delta& p, const Delta& q) {
            return std::llabs(p.db - p.da) > std::llabs(q.db - q.da);
        });
        for (const Delta& d : deltas) {
            double change = static_cast<double>(d.db - d.da);
            e.rows.push_back({std::string(to_string(d.engine)), format_ns(static_cast<double>(d.da)),
                              format_ns(static_cast<double>(d.db)), (change >= 0 ? "+" : "") + format_ns(change),
                              dt != 0 ? format_percent(100.0 * change / dt) : ""});
        }
        if (!deltas.empty()) {
            const Delta& top = deltas.front();
            double change = static_cast<double>(top.db - top.da);
            verdict += " The largest engine change is " + std::string(to_string(top.engine)) + " busy time (" +
                       (change >= 0 ? "+" : "") + format_ns(change) + ")";
            if (dt != 0) verdict += ", " + format_percent(100.0 * change / dt) + " of the difference";
            verdict += ". Engines overlap, so shares need not add up to 100%.";
        }
        doc.paragraph(verdict);
        if (!e.rows.empty()) doc.table(e);
    }
}

void write_comparison(const std::vector<const ProfileEntry*>& ps, bool all, RowWriter& out) {
    std::vector<std::string> cols = {"kind", "metric", "unit"};
    std::vector<std::string> labels = profile_labels(ps);
    // "b/a"; spaced when the labels carry their own "target/backend".
    std::string ratio = !ps.empty() && labels[0] != ps[0]->info.name ? " / " : "/";
    for (size_t i = 0; i < ps.size(); ++i) {
        cols.push_back(labels[i]);
        if (i > 0) cols.push_back(labels[i] + ratio + labels[0]);
    }
    out.columns(cols);
    for (const std::string& name : compared_metric_names(ps, all)) {
        std::vector<Cell> row = {Cell::of_text("comparison"), Cell::of_text(name),
                                 Cell::of_text(std::string(metric_unit(name)))};
        const MetricValue* base = ps.empty() ? nullptr : ps[0]->summary.find(name);
        for (size_t i = 0; i < ps.size(); ++i) {
            const MetricValue* m = ps[i]->summary.find(name);
            row.push_back(m ? Cell::of_real(m->value) : Cell{});
            if (i > 0) row.push_back(m && base && base->value != 0 ? Cell::of_real(m->value / base->value) : Cell{});
        }
        out.row(row);
    }
    out.finish();
}

}  // namespace nx
