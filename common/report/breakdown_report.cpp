#include "common/report/breakdown_report.h"

#include <algorithm>
#include <cmath>

#include "common/target/targets.h"
#include "common/format/units.h"

namespace nx {

namespace {

std::optional<double> metric(const ProfileSummary& s, const char* name) {
    const MetricValue* m = s.find(name);
    return m ? std::optional<double>(m->value) : std::nullopt;
}

Bar share_bar(std::string label, double part, double whole, const std::string& unit) {
    // The bar stops at full width; the text keeps the true share (figures
    // from different origins can add up past the whole).
    double f = whole > 0 ? part / whole : 0;
    return {std::move(label), std::clamp(f, 0.0, 1.0),
            format_value(part) + (unit.empty() ? "" : " " + unit) + "  " + format_percent(100.0 * f)};
}

// Explorer's FLOPs chart: the active FLOPs (peak x busy time) split into
// what the tensor engine did and what it could have done.
void tensor_flops(Document& doc, const ProfileSummary& s) {
    doc.heading("Tensor engine FLOPs (shares of the active FLOPs: peak x busy time)", 3);
    auto active = metric(s, "active_flops");
    // BF16-equivalent FLOPs, as the active FLOPs (the BF16 peak) count them.
    auto hardware = metric(s, "adjusted_hardware_flops");
    if (!hardware) hardware = metric(s, "hardware_flops");
    if (!active || !hardware || *active <= 0) {
        doc.paragraph(std::string("not in this profile: ") +
                      (!hardware ? "the tensor engine's FLOPs" : "its busy time at a known peak (--target)"));
        return;
    }
    double model = metric(s, "model_flops").value_or(NAN);
    double transpose = metric(s, "adjusted_transpose_flops").value_or(metric(s, "transpose_flops").value_or(0));
    double throttled = metric(s, "throttled_flops").value_or(0);
    std::vector<Bar> bars;
    if (!std::isnan(model)) bars.push_back(share_bar("model", model, *active, "FLOP"));
    bars.push_back(share_bar("transpose", transpose, *active, "FLOP"));
    double other = *hardware - transpose - (std::isnan(model) ? 0 : model);
    if (other > 0) bars.push_back(share_bar("other (padding, partial tiles)", other, *active, "FLOP"));
    if (metric(s, "throttled_flops")) bars.push_back(share_bar("throttled", throttled, *active, "FLOP"));
    bars.push_back(share_bar("active but idle", std::max(0.0, *active - *hardware - throttled), *active, "FLOP"));
    doc.bars(bars);
    if (const UnavailableMetric* u = s.find_unavailable("model_flops"); u && std::isnan(model))
        doc.paragraph("model FLOPs (the useful share): not available (" + u->reason + ")");
    else if (std::isnan(model))
        doc.paragraph("not in this profile: model FLOPs (the useful share)");
    if (!metric(s, "throttled_flops")) doc.paragraph("not in this profile: throttling (no throttle intervals)");
}

void dma_queue_types(Document& doc, const ProfileSummary& s) {
    doc.heading("DMA by queue type", 3);
    if (s.dma_queue_types.empty()) {
        doc.paragraph("not in this profile: the DMA transfers name no queue type");
        return;
    }
    int64_t bytes = 0;
    for (const QueueTypeStat& q : s.dma_queue_types) bytes += q.bytes;
    double span = static_cast<double>(s.end_ns - s.start_ns);
    std::vector<Bar> bars;
    TableBlock t;
    t.columns = {"queue type", "transfers", "bytes", "mean size", "busy", "of the time"};
    t.numeric = {false, true, true, true, true, true};
    std::vector<QueueTypeStat> qs = s.dma_queue_types;
    std::stable_sort(qs.begin(), qs.end(), [](const QueueTypeStat& a, const QueueTypeStat& b) { return a.bytes > b.bytes; });
    for (const QueueTypeStat& q : qs) {
        bars.push_back(share_bar(q.queue_type, static_cast<double>(q.bytes), static_cast<double>(bytes), "B"));
        t.rows.push_back({q.queue_type, format_count(static_cast<double>(q.transfers)), format_value(static_cast<double>(q.bytes)),
                          q.transfers > 0 ? format_value(static_cast<double>(q.bytes) / q.transfers) : "",
                          format_ns(static_cast<double>(q.busy_ns)),
                          span > 0 ? format_percent(100.0 * static_cast<double>(q.busy_ns) / span) : ""});
    }
    doc.bars(bars);
    doc.html_only();
    doc.table(t);
}

// Explorer's memory bandwidth donut: what HBM moved against what it could
// have moved in the profile's time (spill traffic is part of reads/writes).
void hbm_bandwidth(Document& doc, const ProfileEntry& p) {
    const ProfileSummary& s = p.summary;
    doc.heading("HBM bandwidth (shares of peak x total time)", 3);
    auto read = metric(s, "hbm_read_bytes");
    auto write = metric(s, "hbm_write_bytes");
    auto total = metric(s, "total_time");
    const Target* target = find_target(p.info.target);
    auto bandwidth = metric(s, "peak_hbm_bytes_per_s");  // the profile's own, else the target's
    if (!bandwidth && target) bandwidth = target->hbm_bytes_per_s_core();
    if (!read || !write || !total || !bandwidth) {
        doc.paragraph(std::string("not in this profile: ") +
                      (!read || !write ? "HBM bytes" : !bandwidth ? "the target's peak bandwidth (--target)" : "its time"));
        return;
    }
    double available = *bandwidth * *total;
    double reload = metric(s, "spill_reload_bytes").value_or(0), save = metric(s, "spill_save_bytes").value_or(0);
    doc.bars({share_bar("read", *read - reload, available, "B"), share_bar("write", *write - save, available, "B"),
              share_bar("spill reload", reload, available, "B"), share_bar("spill save", save, available, "B"),
              share_bar("unused", std::max(0.0, available - *read - *write), available, "B")});
}

void nki_share(Document& doc, const ProfileSummary& s) {
    doc.heading("NKI vs compiler-generated instructions", 3);
    static constexpr std::pair<Engine, const char*> kRows[] = {{Engine::tensor, "tensor"}, {Engine::vector, "vector"},
                                                               {Engine::scalar, "scalar"}, {Engine::gpsimd, "gpsimd"},
                                                               {Engine::sync, "sync"}};
    std::vector<Bar> bars;
    for (const auto& [e, prefix] : kRows) {
        auto pct = metric(s, (std::string(prefix) + "_engine_nki_instruction_percent").c_str());
        if (!pct) continue;
        double n = metric(s, (std::string(prefix) + "_engine_instruction_count").c_str()).value_or(NAN);
        std::string text = format_percent(*pct) + " NKI";
        if (!std::isnan(n)) text += " of " + format_count(n) + " (" + format_count(std::round(n * *pct / 100)) + " NKI, " +
                                    format_count(std::round(n * (100 - *pct) / 100)) + " compiler)";
        bars.push_back({std::string(prefix), std::clamp(*pct / 100, 0.0, 1.0), text});
    }
    if (bars.empty()) doc.paragraph("not in this profile: no instruction names an NKI source location");
    else doc.bars(bars);
}

}  // namespace

void add_breakdowns(Document& doc, const ProfileEntry& p) {
    doc.heading("Breakdowns", 2);
    tensor_flops(doc, p.summary);
    dma_queue_types(doc, p.summary);
    hbm_bandwidth(doc, p);
    nki_share(doc, p.summary);
}

}  // namespace nx
