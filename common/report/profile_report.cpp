#include "common/report/profile_report.h"

#include <algorithm>
#include <cmath>

#include <rapidjson/document.h>

#include "common/import/importer.h"
#include "common/profile/profile_findings.h"
#include "common/profile/metric_defs.h"
#include "common/profile/profile_record.h"
#include "common/records/jsonl.h"
#include "common/records/backend_words.h"
#include "common/report/bounds_report.h"
#include "common/report/breakdown_report.h"
#include "common/report/device_report.h"
#include "common/report/prediction_band.h"
#include "common/report/region_report.h"
#include "common/report/system_links.h"
#include "common/report/trace_report.h"
#include "common/format/units.h"

namespace nx {

namespace {

std::string engine_label(Engine e, BusyOrigin origin = BusyOrigin::instructions) {
    // The profiler's tensor intervals cover the whole TensorE (both rows).
    if (e == Engine::tensor && origin == BusyOrigin::profiler) return "Tensor (all of TensorE)";
    switch (e) {
        case Engine::tensor_matrix: return "TensorMatrix";
        case Engine::tensor: return "Tensor (LoadStationary)";
        case Engine::vector: return "Vector";
        case Engine::scalar: return "Scalar";
        case Engine::gpsimd: return "GpSimd";
        case Engine::sync: return "Sync";
        case Engine::dma: return "DMA (all queues)";
        case Engine::host: return "Host";
        case Engine::none: break;
    }
    return "other";
}

// Peak figures are stored in FLOP/s; charts speak TFLOP/s.
constexpr double kFlopsPerTflops = 1e12;

std::string metric_text(const ProfileSummary& s, const char* name) {
    const MetricValue* m = s.find(name);
    if (m) return format_metric(m->value, std::string(metric_unit(name)));
    // The source has the field but not the figure: say what the profiler said.
    if (const UnavailableMetric* u = s.find_unavailable(name)) return "not available (" + u->reason + ")";
    return "n/a";
}

// "45.0% of the time", or "n/a" when the metric is missing.
std::string of_the_time(const ProfileSummary& s, const char* name) {
    return s.find(name) ? metric_text(s, name) + " of the time" : "n/a";
}

// Arithmetic intensity against achieved TFLOP/s under the target's roof.
void add_roofline(Document& doc, const ProfileEntry& p) {
    const ProfileSummary& s = p.summary;
    const MetricValue* ai = s.find("mm_arithmetic_intensity");
    const MetricValue* achieved = s.find("achieved_tflops");
    const MetricValue* ridge = s.find("peak_flops_bandwidth_ratio");
    const MetricValue* peak = s.find("peak_flops");
    ChartBlock c = chart_block("roofline", "Roofline: achieved TFLOP/s against arithmetic intensity",
                               "arithmetic intensity (FLOP/B)", "achieved (TFLOP/s)");
    c.log_x = c.log_y = true;
    if (ridge && peak) {
        c.ridge = ridge->value;
        c.peak = peak->value / kFlopsPerTflops;
    }
    if (ai && achieved) c.series.push_back({p.info.name, {ai->value}, {achieved->value}, {p.info.name}});
    doc.chart(c);
    doc.html_only();
    std::vector<std::string> missing;
    if (!ai) missing.push_back("arithmetic intensity (hardware FLOPs and HBM bytes)");
    if (!achieved) missing.push_back("achieved TFLOP/s (FLOPs and total time)");
    if (!ridge || !peak) missing.push_back("the target's peak and ridge point (--target)");
    if (!missing.empty()) {
        std::string text = "The roofline lacks ";
        for (size_t i = 0; i < missing.size(); ++i) text += (i ? (i + 1 == missing.size() ? " and " : ", ") : "") + missing[i];
        doc.paragraph(text + ".");
        doc.html_only();
    }
}

// Each engine row's busy share per time bucket: a heat strip in HTML,
// sparklines in text.
void add_timeline(Document& doc, const ProfileSummary& s) {
    if (s.timeline.empty() || s.end_ns <= s.start_ns) return;
    double span = static_cast<double>(s.end_ns - s.start_ns);
    ChartBlock c = chart_block("timeline",
                               "Engine activity over time (" + std::to_string(kTimelineBuckets) + " buckets of " +
                                   format_ns(span / kTimelineBuckets) + ")",
                               "time since the profile start", "busy (%)");
    for (const EngineTimeline& t : s.timeline) {
        ChartSeries ser;
        BusyOrigin origin = BusyOrigin::instructions;
        for (const EngineStat& e : s.engines)
            if (e.engine == t.engine) origin = e.origin;
        ser.name = engine_label(t.engine, origin);
        for (size_t b = 0; b < t.active_percent.size(); ++b) {
            ser.x.push_back(span * static_cast<double>(b) / static_cast<double>(t.active_percent.size()));
            ser.y.push_back(t.active_percent[b]);
        }
        c.categories.push_back(ser.name);
        c.series.push_back(std::move(ser));
    }
    doc.chart(c);
}

// Device profiles (neuron-profile JSON, Explorer Parquet) record DMA per
// packet; nx's model and traces record whole transfers.
bool dma_records_are_packets(const ProfileInfo& i) {
    return format_has(i.format, kDmaPackets);
}
std::string dma_record_word(const ProfileInfo& i) {
    return dma_records_are_packets(i) ? " DMA packets" : " transfers";
}

// A carried object or array of the profile (versions, layers), or null.
const rapidjson::Value* carried_member(const rapidjson::Document& doc, const char* key) {
    if (!doc.IsObject()) return nullptr;
    auto it = doc.FindMember(key);
    return it == doc.MemberEnd() ? nullptr : &it->value;
}

// "profiler 2.27.33.0, runtime 2.29.40, compiler 2.22.12471.0" from the
// carried "versions" object (neuron_json.cpp; explorer_parquet.cpp names the
// viewer "explorer").
std::string versions_text(const ProfileInfo& i) {
    if (i.carried_json.find("\"versions\"") == std::string::npos) return {};
    rapidjson::Document doc = carried_document(i);
    const rapidjson::Value* v = carried_member(doc, "versions");
    if (!v || !v->IsObject()) return {};
    std::string out;
    for (const char* k : {"profiler", "explorer", "runtime", "compiler", "driver"}) {
        auto it = v->FindMember(k);
        if (it == v->MemberEnd()) continue;
        std::string text = it->value.IsString() ? it->value.GetString() : to_json(it->value);
        out += (out.empty() ? "" : ", ") + std::string(k) + " " + text;
    }
    return out;
}

// The profiler's per-layer figures (layer_summary, carried as "layers").
void add_layers(Document& doc, const ProfileInfo& i, const ReportOptions& o) {
    if (i.carried_json.find("\"layers\"") == std::string::npos) return;
    rapidjson::Document d = carried_document(i);
    const rapidjson::Value* layers = carried_member(d, "layers");
    if (!layers || !layers->IsArray() || layers->Empty()) return;
    TableBlock t;
    t.columns = {"layer", "duration", "Tensor", "Vector", "Scalar", "GpSimd", "Sync", "MFU"};
    t.numeric = {false, true, true, true, true, true, true, true};
    auto pct = [](const rapidjson::Value& l, const char* k) {
        auto it = l.FindMember(k);
        return it != l.MemberEnd() && it->value.IsNumber() ? format_percent(it->value.GetDouble()) : std::string();
    };
    size_t n = 0;
    for (const auto& l : layers->GetArray()) {
        if (!l.IsObject()) continue;
        if (!o.all && n++ >= 10) break;
        auto name = l.FindMember("name");
        auto dur = l.FindMember("duration_ns");
        t.rows.push_back({name != l.MemberEnd() && name->value.IsString() ? name->value.GetString() : "",
                          dur != l.MemberEnd() && dur->value.IsNumber() ? format_ns(dur->value.GetDouble()) : "",
                          pct(l, "tensor_engine_active_time_percent"), pct(l, "vector_engine_active_time_percent"),
                          pct(l, "scalar_engine_active_time_percent"), pct(l, "gpsimd_engine_active_time_percent"),
                          pct(l, "sync_engine_active_time_percent"), pct(l, "mfu_estimated_percent")});
    }
    doc.heading("Layers (the profiler's layer_summary: engine active time, MFU)", 2);
    doc.table(t);
}

// A session's executions (executions.h): each NEFF's spread, then the slow
// ones with what grew in them.
void add_executions(Document& doc, const ProfileSummary& s) {
    if (!s.execution_digest) return;
    const ExecutionDigest& d = *s.execution_digest;
    doc.heading("Executions (" + format_count(static_cast<double>(d.count)) + " of " +
                    format_count(static_cast<double>(d.neffs.size())) + " NEFF" + (d.neffs.size() == 1 ? "" : "s") + ")",
                2);
    TableBlock t;
    t.columns = {"NEFF", "executions", "min", "median", "p90", "max"};
    t.numeric = {false, true, true, true, true, true};
    for (const NeffSpread& n : d.neffs)
        t.rows.push_back({n.neff, format_count(static_cast<double>(n.executions)), format_ns(static_cast<double>(n.min_ns)),
                          format_ns(static_cast<double>(n.median_ns)), format_ns(static_cast<double>(n.p90_ns)),
                          format_ns(static_cast<double>(n.max_ns))});
    doc.table(t);
    if (d.slow.empty()) return;
    TableBlock slow;
    slow.columns = {"slow execution", "NEFF", "time", "vs its NEFF's median", "what grew"};
    slow.numeric = {true, false, true, true, false};
    for (const SlowExecution& x : d.slow)
        slow.rows.push_back({std::to_string(x.index), x.neff, format_ns(static_cast<double>(x.dur_ns)),
                             format_ratio(static_cast<double>(x.dur_ns) / static_cast<double>(x.median_ns)), x.what_changed});
    doc.table(slow);
}

void add_notes(Document& doc, const ProfileSummary& s, const std::vector<std::string>& missing, const ReportOptions& o) {
    std::vector<std::string> notes = s.notes;
    if (o.all)
        for (const std::string& m : missing) notes.push_back("rule not evaluated: " + m);
    if (!notes.empty()) {
        doc.heading("Notes", 2);
        doc.items(notes);
    }
}

// The profile record's tracks (profiles without engine rows: Chrome traces,
// system profiles): their threads and streams with busy time.
void add_track_table(Document& doc, const ProfileSummary& s, const ReportOptions& o) {
    doc.heading("Tracks (busy time = union of their slices)", 2);
    TableBlock t;
    t.columns = {"track", "process", "slices", "busy", "of the profile"};
    t.numeric = {false, false, true, true, true};
    double span = static_cast<double>(s.end_ns - s.start_ns);
    size_t n = o.all ? s.tracks.size() : std::min<size_t>(s.tracks.size(), 10);
    for (size_t j = 0; j < n; ++j) {
        const TrackStat& k = s.tracks[j];
        t.rows.push_back({k.track, k.process, format_count(static_cast<double>(k.events)),
                          format_ns(static_cast<double>(k.busy_ns)),
                          span > 0 ? format_percent(100.0 * static_cast<double>(k.busy_ns) / span) : ""});
    }
    doc.table(t);
}

// The profile's identity and headline: source, backend, target, the peak
// MFU divides by, versions, the total time (with its band when predicted).
std::string add_profile_facts(Document& doc, const ProfileEntry& p, bool trace) {
    const ProfileSummary& s = p.summary;
    const ProfileInfo& i = p.info;
    std::vector<Fact> facts = {
        {"source", i.source + " (" + i.format + ")"},
        {"backend", backend_phrase(i.backend)},
    };
    if (!trace || !i.target.empty())
        facts.push_back({"target", i.target.empty() ? "unknown (give --target for MFU, MBU, ridge point)" : i.target});
    // What MFU, HFU and MBU divide by, and where each figure came from.
    if (!s.peak_basis.empty() && s.find("peak_flops"))
        facts.push_back({"peak", format_value(s.find("peak_flops")->value / kFlopsPerTflops) + " TFLOP/s: " + s.peak_basis});
    if (!i.dtype.empty()) facts.push_back({"dtype", i.dtype});
    if (i.rank >= 0) facts.push_back({"rank", std::to_string(i.rank)});
    std::string versions = versions_text(i);
    if (!versions.empty()) facts.push_back({"versions", versions});
    std::string system = system_profile_text(i);
    if (!system.empty()) facts.push_back({"system profile", system});
    // A predicted total time carries the model's error band, as the study
    // tables print it, and the points the band comes from.
    const PredictionBand band = prediction_band(i);
    const std::string total = s.find("total_time") ? with_band(metric_text(s, "total_time"), band) : metric_text(s, "total_time");
    facts.push_back({"total time", total});
    if (band.known() && s.find("total_time"))
        facts.push_back({"error band", band_text(band.percent) + ", the model's error on comparable calibration points" +
                                           (band.basis.empty() ? std::string() : ": " + band.basis)});
    else if (band.predicted && s.find("total_time"))
        facts.push_back({"error band", band.basis.empty() ? std::string("none") : band.basis});
    facts.push_back({"events", format_count(static_cast<double>(s.events))});
    doc.facts(facts);
    return total;
}

// The profiler's own warnings come before nx's figures: they say which of
// them to distrust.
void add_profiler_warnings(Document& doc, const ProfileInfo& i) {
    std::vector<Finding> warnings = source_findings(i);
    if (warnings.empty()) return;
    doc.heading("Profiler warnings", 2);
    std::vector<FindingItem> items;
    for (const Finding& f : warnings) items.push_back({std::string(to_string(f.severity)), f.rule, f.message, f.action});
    doc.findings(items);
}

void add_disagreements(Document& doc, const ProfileSummary& s) {
    if (s.disagreements.empty()) return;
    doc.heading("Source and nx disagree (more than 10%)", 2);
    TableBlock t;
    t.columns = {"metric", "source figure", "nx figure", "nx made it"};
    t.numeric = {false, true, true, false};
    for (const MetricDisagreement& d : s.disagreements) {
        std::string unit(metric_unit(d.metric));
        t.rows.push_back({d.metric, format_metric(d.source, unit), format_metric(d.derived, unit), d.derived_from});
    }
    doc.table(t);
    doc.paragraph("the metrics use the source's figures; the nx figures are shown for comparison");
}

// MFU, HFU, MBU, intensity against the ridge point, the bound; the headline
// as cards in HTML (text shows the same as facts).
void add_utilisation(Document& doc, const ProfileEntry& p, const std::string& total) {
    const ProfileSummary& s = p.summary;
    BoundVerdict bound = classify_bound(s);
    doc.cards({{"total time", total},
               {"MFU", metric_text(s, "mfu_estimated_percent")},
               {"MBU", metric_text(s, "mbu_estimated_percent")},
               {"bound", bound.verdict}});
    doc.html_only();

    doc.heading("Utilisation", 2);
    doc.facts({
        {"MFU", metric_text(s, "mfu_estimated_percent")},
        {"HFU", metric_text(s, "hfu_estimated_percent")},
        {"MBU", metric_text(s, "mbu_estimated_percent")},
        {"achieved", s.find("achieved_tflops") ? format_value(s.find("achieved_tflops")->value) + " TFLOP/s" : "n/a"},
        {"arithmetic intensity",
         s.find("mm_arithmetic_intensity") ? format_value(s.find("mm_arithmetic_intensity")->value) + " FLOP/B" : "n/a"},
        {"ridge point",
         s.find("peak_flops_bandwidth_ratio") ? format_value(s.find("peak_flops_bandwidth_ratio")->value) + " FLOP/B"
                                              : "n/a"},
        {"bound", bound.verdict + " (" + bound.evidence + ")"},
    });
    add_roofline(doc, p);
}

// The rules' findings (the top ones unless --all), and Explorer's rules the
// profile cannot answer; returns those rules' data needs for the notes.
std::vector<std::string> add_findings(Document& doc, const ProfileEntry& p, const ReportOptions& o) {
    std::vector<std::string> missing;
    std::vector<Finding> findings = rule_findings(p.info, p.summary, &o.thresholds, &missing);
    std::vector<const Finding*> shown;
    if (o.all) for (const Finding& f : findings) shown.push_back(&f);
    else shown = top_findings(findings, o.top);
    std::string title = "Findings";
    if (!o.all && shown.size() < findings.size())
        title += " (top " + std::to_string(shown.size()) + " of " + std::to_string(findings.size()) + "; --all for every one)";
    doc.heading(title, 2);
    if (shown.empty()) {
        doc.paragraph("no rule fired");
    } else {
        std::vector<FindingItem> items;
        for (const Finding* f : shown) items.push_back({std::string(to_string(f->severity)), f->rule, f->message, f->action});
        doc.findings(items);
    }
    // Explorer's rules this profile cannot answer: said, not guessed.
    std::vector<std::string> absent = explorer_rules_missing(missing);
    if (!absent.empty()) {
        std::string text = "not in this profile (Explorer rules without their data): ";
        for (size_t k = 0; k < absent.size(); ++k) text += (k ? ", " : "") + absent[k];
        doc.paragraph(text);
    }
    return missing;
}

// One bar per engine row: busy share, busy time, instructions (semaphore
// waits apart) and their mean; then the timeline.
void add_engines(Document& doc, const ProfileEntry& p, const ReportOptions& o) {
    const ProfileSummary& s = p.summary;
    if (s.engines.empty()) {
        if (!s.tracks.empty()) return add_track_table(doc, s, o);
        doc.heading("Engines", 2);
        doc.paragraph("no engine events in this profile: engine activity, the timeline and the top lists need its "
                      "instructions (a metrics-only source such as summary-json has none)");
        return;
    }
    doc.heading("Engines (active time = union of busy intervals; semaphore waits are not work)", 2);
    std::vector<Bar> bars;
    for (const EngineStat& e : s.engines) {
        // The mean is of the engine's work: a semaphore wait lasts as long
        // as the engine is idle, and would make the mean a wait time.
        // Records written before nx kept the work figures: every instruction.
        bool work = e.work_instructions >= 0;
        int64_t n = work ? e.work_instructions : e.instructions;
        double mean = n > 0 ? static_cast<double>(work ? e.work_sum_ns : e.busy_sum_ns) / n : 0;
        int64_t waits = work ? e.instructions - e.work_instructions : 0;
        std::string count = format_count(static_cast<double>(e.instructions)) +
                            (e.engine == Engine::dma ? dma_record_word(p.info) : " instr");
        if (waits > 0)
            count += " (" + format_count(static_cast<double>(waits)) + (waits == 1 ? " semaphore wait)" : " semaphore waits)");
        bars.push_back({engine_label(e.engine, e.origin), e.active_percent / 100.0,
                        format_percent(e.active_percent) + "  " + format_ns(static_cast<double>(e.busy_ns)) +
                            "  " + count + ", mean " + (n > 0 ? format_ns(mean) : std::string("n/a")) +
                            (work || e.engine == Engine::dma ? "" : " (semaphore waits included)") + "  (" +
                            std::string(to_string(e.origin)) + ")"});
    }
    doc.bars(bars);
    add_timeline(doc, s);
}

void add_dma(Document& doc, const ProfileEntry& p) {
    const ProfileSummary& s = p.summary;
    if (!s.find("dma_transfer_count") && !s.find_unavailable("dma_transfer_count")) return;
    doc.heading("DMA", 2);
    const MetricValue* count = s.find("dma_transfer_count");
    std::vector<Fact> dma = {
        {count && count->measured ? "transfers (the profiler's count)" : "transfers", metric_text(s, "dma_transfer_count")},
        {"bytes", metric_text(s, "dma_transfer_total_bytes")},
        {"average transfer", metric_text(s, "dma_transfer_average_bytes")},
    };
    // A device profile's DMA records are packets of those transfers:
    // a different count, named as such.
    for (const EngineStat& e : s.engines)
        if (e.engine == Engine::dma && dma_records_are_packets(p.info))
            dma.push_back({"packets (records in the profile)", format_count(static_cast<double>(e.instructions))});
    dma.push_back({"active", of_the_time(s, "dma_active_time_percent")});
    dma.push_back({"not hidden by compute", of_the_time(s, "dma_wait_percent")});
    doc.facts(dma);
}

// The busiest opcodes and layers (ten unless --all), each with its share.
void add_top_tables(Document& doc, const ProfileSummary& s, const ReportOptions& o) {
    auto key_table = [&](const std::vector<KeyStat>& stats, const char* name) {
        TableBlock t;
        t.columns = {name, "count", "time", "share"};
        t.numeric = {false, true, true, true};
        size_t n = o.all ? stats.size() : std::min<size_t>(stats.size(), 10);
        double total = 0;
        for (const KeyStat& k : stats) total += static_cast<double>(k.time_ns);
        for (size_t j = 0; j < n; ++j)
            t.rows.push_back({stats[j].key, format_count(static_cast<double>(stats[j].instructions)),
                              format_ns(static_cast<double>(stats[j].time_ns)),
                              total > 0 ? format_percent(100.0 * stats[j].time_ns / total) : ""});
        return t;
    };
    if (!s.top_opcodes.empty()) {
        doc.heading("Top opcodes (summed instruction time)", 2);
        doc.table(key_table(s.top_opcodes, "opcode"));
    }
    if (!s.top_layers.empty()) {
        doc.heading("Top layers", 2);
        doc.table(key_table(s.top_layers, "layer / HLO op"));
    }
}

// --all: every metric with its unit and origin, and the figures the source lacks.
void add_all_metrics(Document& doc, const ProfileSummary& s) {
    doc.heading("All metrics", 2);
    TableBlock t;
    t.columns = {"metric", "value", "unit", "origin"};
    t.numeric = {false, true, false, false};
    for (const MetricValue& m : s.metrics)
        t.rows.push_back({m.name, format_value(m.value), std::string(metric_unit(m.name)), m.measured ? "source" : "derived"});
    for (const UnavailableMetric& u : s.unavailable)
        t.rows.push_back({u.name, "not available", std::string(metric_unit(u.name)), u.reason});
    doc.table(t);
}

}  // namespace

void add_profile_report(Document& doc, const ProfileEntry& p, const ReportOptions& o) {
    const ProfileSummary& s = p.summary;
    const ProfileInfo& i = p.info;
    doc.heading("Profile " + i.name);
    // A Chrome trace has no Neuron engines: no MFU, roofline or engine rows,
    // but the trace report (trace_report.h).
    bool trace = is_trace_profile(i, s);
    std::string total = add_profile_facts(doc, p, trace);
    add_profiler_warnings(doc, i);
    if (trace) {
        if (s.device) add_device_report(doc, *s.device);
        // Without its events, the record's own track figures still say where
        // the time went.
        if (!p.trace && !s.tracks.empty()) add_track_table(doc, s, o);
        add_trace_report(doc, p, o);
        // nx's notes are about Neuron metrics (target, dtype, opcodes) here.
        if (o.all) add_notes(doc, s, {}, o);
        return;
    }
    add_disagreements(doc, s);
    add_utilisation(doc, p, total);
    std::vector<std::string> missing = add_findings(doc, p, o);
    add_region_report(doc, p, {o.all, 10});
    add_engines(doc, p, o);
    add_dma(doc, p);
    add_executions(doc, s);
    add_layers(doc, i, o);
    add_device_profiles(doc, i, s.start_ns);
    add_breakdowns(doc, p);
    add_bounds_report(doc, p, o.all);
    add_top_tables(doc, s, o);
    if (o.all) add_all_metrics(doc, s);
    add_notes(doc, s, missing, o);
}

std::vector<std::string> finding_columns() {
    return {"kind", "profile", "name", "rule", "severity", "metric", "value", "threshold", "message", "action",
            "region", "start_ns", "end_ns"};
}

void write_findings(const std::vector<ProfileEntry>& profiles, RowWriter& out, const ReportOptions& o) {
    out.columns(finding_columns());
    for (const ProfileEntry& p : profiles) {
        for (const Finding& f : profile_findings(p.info, p.summary, &o.thresholds)) out.row(finding_cells(p, f));
        write_region_findings(p, out);
    }
    out.finish();
}

std::vector<Cell> finding_cells(const ProfileEntry& p, const Finding& f) {
    return {Cell::of_text("finding"), Cell::of_text(p.info.id), Cell::of_text(p.info.name), Cell::of_text(f.rule),
            Cell::of_text(std::string(to_string(f.severity))), Cell::of_text(f.metric), Cell::of_real(f.value),
            Cell::of_real(f.threshold), Cell::of_text(f.message), Cell::of_text(f.action),
            Cell::of_text(f.region), Cell::of_int(f.start_ns), Cell::of_int(f.end_ns)};
}

}  // namespace nx
