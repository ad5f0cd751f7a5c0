// Calibration: reading the points, predicting them, judging the goals and
// printing the table (the fit itself is calibration_fit.cpp).
//
// Predictions are computed by simulating the workload with its events fed to
// ProfileBuilder, so utilisation figures come from the same metric code
// nx-convert applies to measured profiles.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "common/io/error.h"
#include "common/io/input.h"
#include "common/model/fitted.h"
#include "common/model/sim.h"
#include "common/profile/profile_builder.h"
#include "common/records/jsonl.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace nx::model {

namespace {

// Captures the summary ProfileBuilder computes.
class SummaryCapture : public ProfileSink {
public:
    void begin_profile(const ProfileInfo&) override {}
    void event(const Event&) override {}
    void end_profile(const ProfileInfo&, const ProfileSummary& summary) override { summary_ = summary; }
    const ProfileSummary& summary() const { return summary_; }

private:
    ProfileSummary summary_;
};

struct Prediction {
    SimResult result;
    ProfileSummary summary;
};

Prediction predict(const Workload& w, const Target& target, const ModelParams& params) {
    ProfileBuilder builder;
    SummaryCapture capture;
    builder.add_sink(&capture);
    ProfileInfo info;
    info.id = make_profile_id("calibration:" + w.name);
    info.name = w.name;
    info.source = "calibration";
    info.format = "sim";
    info.backend = "sim";
    info.target = target.name;
    info.dtype = w.dtype;
    info.core.physical_cores = workload_lnc(w, target);
    info.core.cores_from = "the workload's LNC";
    builder.begin_profile(info);
    Prediction p;
    p.result = simulate(w, target, &builder, params);
    builder.end_profile();
    p.summary = capture.summary();
    return p;
}

constexpr const char* kMetrics = "latency_ms, latency_us, tflops, hfu_percent, mfu_percent, tensor_active_percent";

// The predicted value of a published metric; nullopt for an unknown name.
std::optional<double> predicted_metric(const std::string& metric, const Prediction& p) {
    const SimResult& r = p.result;
    if (metric == "latency_ms") return r.latency_ns / 1e6;
    if (metric == "latency_us") return r.latency_ns / 1e3;
    if (metric == "tflops") return r.latency_ns > 0 ? r.model_flops / (r.latency_ns * 1e-9) / 1e12 : 0;
    if (metric == "hfu_percent") return p.summary.value_or("hfu_estimated_percent", NAN);
    if (metric == "mfu_percent") return p.summary.value_or("mfu_estimated_percent", NAN);
    if (metric == "tensor_active_percent") return p.summary.value_or("tensor_engine_active_time_percent", NAN);
    return std::nullopt;
}

bool is_latency(const std::string& metric) { return metric == "latency_ms" || metric == "latency_us"; }

// Workload fields a calibration point may set: those of a workload record
// (workload.h) but its study, name and target.
void read_workload(const rapidjson::Value& obj, Workload& w, const std::string& file, int64_t line) {
    if (!obj.IsObject()) throw Error("\"workload\" must be an object", file, line);
    for (auto it = obj.MemberBegin(); it != obj.MemberEnd(); ++it) {
        std::string key(it->name.GetString(), it->name.GetStringLength());
        const rapidjson::Value& v = it->value;
        auto text = [&]() {
            if (!v.IsString()) throw Error("workload field \"" + key + "\" must be a string", file, line);
            return std::string(v.GetString(), v.GetStringLength());
        };
        auto integer = [&]() {
            if (!v.IsInt64()) throw Error("workload field \"" + key + "\" must be an integer", file, line);
            return v.GetInt64();
        };
        // Any field of a workload record but those the point itself names.
        const WorkloadField* f = find_workload_field(key);
        if (!f || key == "study" || key == "name" || key == "target")
            throw Error("unknown workload field \"" + key + "\"", file, line);
        if (f->text) w.*f->text = text();
        else w.*f->number = integer();
    }
}

// "order_group": one group's name or an array of them (a point ranked both
// against its other dtype and against its unpooled twin, say).
std::vector<std::string> read_order_groups(const rapidjson::Value& doc, const std::string& file, int64_t line) {
    const rapidjson::Value* v = find_member(doc, "order_group");
    std::vector<std::string> groups;
    if (!v) return groups;
    auto name = [&](const rapidjson::Value& g) {
        if (!g.IsString() || g.GetStringLength() == 0)
            throw Error("\"order_group\" must be a group's name or an array of names", file, line);
        groups.emplace_back(g.GetString(), g.GetStringLength());
    };
    if (v->IsArray())
        for (const rapidjson::Value& g : v->GetArray()) name(g);
    else
        name(*v);
    return groups;
}

std::string json_text(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buf);
    v.Accept(writer);
    return std::string(buf.GetString(), buf.GetSize());
}

// Ranks two latency rows the same way?
bool same_order(const CalibrationRow& a, const CalibrationRow& b) {
    return (a.published < b.published) == (a.predicted < b.predicted);
}

void judge_order(const std::vector<CalibrationPoint>& points, CalibrationReport& report) {
    // Latency rows by point name (one latency figure per point).
    std::map<std::string, const CalibrationRow*> latency;
    for (const CalibrationRow& r : report.rows)
        if (r.latency) latency[r.name] = &r;
    report.order_ok = true;
    std::map<std::string, std::vector<const CalibrationRow*>> groups;
    std::map<std::string, bool> group_counts;
    for (const CalibrationPoint& p : points) {
        auto it = latency.find(p.name);
        if (it == latency.end()) continue;
        for (const std::string& group : p.groups) {
            groups[group].push_back(it->second);
            auto [g, fresh] = group_counts.try_emplace(group, p.counts());
            if (!fresh) g->second = g->second && p.counts();
        }
    }
    for (const auto& [group, members] : groups) {
        auto by_published = members, by_predicted = members;
        std::stable_sort(by_published.begin(), by_published.end(),
                         [](const CalibrationRow* a, const CalibrationRow* b) { return a->published < b->published; });
        std::stable_sort(by_predicted.begin(), by_predicted.end(),
                         [](const CalibrationRow* a, const CalibrationRow* b) { return a->predicted < b->predicted; });
        const bool ok = by_published == by_predicted;
        if (group_counts[group]) report.order_ok = report.order_ok && ok;
        std::string line = group + (group_counts[group] ? "" : " (reference)") + ": " + (ok ? "as published" : "NOT as published") + " (";
        for (size_t i = 0; i < by_published.size(); ++i) line += (i ? " < " : "") + by_published[i]->name;
        report.order_notes.push_back(line + ")");
    }
    // The same kernel measured on two targets.
    report.targets_order_ok = true;
    for (size_t i = 0; i < points.size(); ++i)
        for (size_t j = i + 1; j < points.size(); ++j) {
            const CalibrationPoint &a = points[i], &b = points[j];
            if (a.workload_key != b.workload_key || a.target == b.target || !a.counts() || !b.counts()) continue;
            auto ra = latency.find(a.name), rb = latency.find(b.name);
            if (ra == latency.end() || rb == latency.end()) continue;
            const bool ok = same_order(*ra->second, *rb->second);
            report.targets_order_ok = report.targets_order_ok && ok;
            const bool a_faster = ra->second->published < rb->second->published;
            report.order_notes.push_back(a.target + " vs " + b.target + ", " + a.name + " / " + b.name + ": measured " +
                                         (a_faster ? a.target : b.target) + " faster, predicted " +
                                         (ra->second->predicted < rb->second->predicted ? a.target : b.target) +
                                         (ok ? " faster" : " faster: WRONG"));
        }
}

std::string format_value(double v) {
    char buf[32];
    if (!std::isfinite(v)) return "-";
    std::snprintf(buf, sizeof buf, std::fabs(v) >= 100 ? "%.1f" : "%.2f", v);
    return buf;
}

std::string format_percent(double v) {
    if (!std::isfinite(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", v);
    return buf;
}

std::string format_tolerance(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", v);
    return buf;
}

std::string pad(std::string s, size_t width, bool right = false) {
    if (s.size() >= width) return right ? " " + s : s + " ";
    std::string fill(width - s.size(), ' ');
    return right ? fill + s : s + fill;
}

}  // namespace

std::vector<CalibrationPoint> read_calibration_points(const std::string& data_file) {
    auto input = InputSource::open(data_file);
    JsonlReader reader(*input);
    rapidjson::Document doc;
    std::vector<CalibrationPoint> points;
    while (reader.next(doc)) {
        CalibrationPoint p;
        p.file = reader.name();
        p.line = reader.line();
        auto name = get_string(doc, "name");
        auto target = get_string(doc, "target");
        auto source = get_string(doc, "source");
        auto tolerance = get_number(doc, "tolerance_percent");
        const rapidjson::Value* workload = find_member(doc, "workload");
        const rapidjson::Value* published = find_member(doc, "published");
        if (!name || !target || !source || !tolerance || !workload || !published)
            throw Error("a calibration point needs name, target, workload, published, source and tolerance_percent", p.file,
                        p.line);
        if (!published->IsObject() || published->MemberCount() == 0)
            throw Error("\"published\" must be an object of figures", p.file, p.line);
        if (!find_target(*target)) throw Error("unknown target '" + *target + "' (known: " + target_names() + ")", p.file, p.line);
        p.set = get_string(doc, "set").value_or("reference");
        if (p.set != "fit" && p.set != "held_out" && p.set != "reference")
            throw Error("\"set\" must be fit, held_out or reference, not \"" + p.set + "\"", p.file, p.line);
        for (const CalibrationPoint& q : points)
            if (q.name == *name) throw Error("calibration point \"" + *name + "\" appears twice", p.file, p.line);
        p.name = *name;
        p.target = *target;
        p.source = *source;
        p.tolerance_percent = *tolerance;
        p.groups = read_order_groups(doc, p.file, p.line);
        p.note = get_string(doc, "note").value_or("");
        p.workload.study = "calibration";
        p.workload.name = p.name;
        p.workload.target = p.target;
        read_workload(*workload, p.workload, p.file, p.line);
        p.workload_key = json_text(*workload);
        int latencies = 0;
        for (auto it = published->MemberBegin(); it != published->MemberEnd(); ++it) {
            std::string metric(it->name.GetString(), it->name.GetStringLength());
            if (!it->value.IsNumber() || !(it->value.GetDouble() > 0))
                throw Error("published \"" + metric + "\" must be a positive number", p.file, p.line);
            if (!predicted_metric(metric, Prediction{}))
                throw Error("unknown published metric \"" + metric + "\" (known: " + kMetrics + ")", p.file, p.line);
            latencies += is_latency(metric);
            p.published.emplace_back(metric, it->value.GetDouble());
        }
        if (p.set == "fit" && latencies != 1)
            throw Error("a fit point needs exactly one published latency (latency_ms or latency_us)", p.file, p.line);
        points.push_back(std::move(p));
    }
    return points;
}

CalibrationReport evaluate_calibration(const std::vector<CalibrationPoint>& points, const ModelParams& params) {
    CalibrationReport report;
    report.params = params;
    for (const CalibrationPoint& pt : points) {
        Prediction p;
        try {
            p = predict(pt.workload, *find_target(pt.target), params);
        } catch (Error& e) {
            if (e.where().empty()) {
                e.set_where(pt.file);
                e.set_line(pt.line);
            }
            throw;
        }
        for (const auto& [metric, value] : pt.published) {
            CalibrationRow row;
            row.name = pt.name;
            row.target = pt.target;
            row.family = std::string(op_family(pt.workload.op));
            row.dtype = std::string(to_string(*parse_dtype(pt.workload.dtype)));
            row.lnc = p.result.lnc;
            row.lanes = p.result.lanes;
            row.set = pt.set;
            row.metric = metric;
            row.source = pt.source;
            row.note = pt.note;
            row.published = value;
            row.predicted = *predicted_metric(metric, p);
            row.error_percent = 100.0 * (row.predicted - row.published) / row.published;
            row.tolerance_percent = pt.tolerance_percent;
            row.within = std::fabs(row.error_percent) <= row.tolerance_percent;
            row.counts = pt.counts();
            row.latency = is_latency(metric);
            if (row.latency)
                for (const FittedResidual& r : fitted_residuals())
                    if (row.name == r.point) row.recorded_percent = r.error_percent;
            report.rows.push_back(std::move(row));
        }
    }
    double sum = 0, fit_sum = 0, held_sum = 0;
    int n = 0, fit_n = 0, held_n = 0;
    report.all_within = true;
    for (const CalibrationRow& r : report.rows) {
        // --check: every latency stays where the last fit left it, and no
        // counted point the fit left within its tolerance leaves it.
        const bool recorded = std::isfinite(r.recorded_percent);
        const bool drift = !recorded ? r.latency : std::fabs(r.error_percent - r.recorded_percent) > kDriftPercent;
        const bool left_tolerance = r.counts && !r.within && (!recorded || std::fabs(r.recorded_percent) <= r.tolerance_percent);
        if (left_tolerance || drift)
            report.drifted.push_back(r.name + " " + r.metric + ": error " + format_percent(r.error_percent) +
                                     (std::isfinite(r.recorded_percent) ? ", recorded " + format_percent(r.recorded_percent)
                                                                        : (r.latency ? ", no recorded residual" : "")) +
                                     ", tolerance " + format_tolerance(r.tolerance_percent));
        if (!r.counts || !r.latency) continue;
        report.all_within = report.all_within && r.within;
        const double e = std::fabs(r.error_percent);
        sum += e;
        ++n;
        if (r.set == "fit") fit_sum += e, ++fit_n;
        else held_sum += e, ++held_n;
    }
    report.mean_abs_error_percent = n ? sum / n : 0;
    report.fit_mean_percent = fit_n ? fit_sum / fit_n : 0;
    report.held_out_mean_percent = held_n ? held_sum / held_n : 0;
    judge_order(points, report);
    report.goals_met = n > 0 && report.all_within && report.mean_abs_error_percent <= kGoalMeanPercent && report.order_ok &&
                       report.targets_order_ok;
    return report;
}

CalibrationReport run_calibration(const std::string& data_file) {
    return evaluate_calibration(read_calibration_points(data_file), fitted_params());
}

void print_check(const CalibrationReport& report, Output& out) {
    out.write(report.drifted.empty() ? "\ncheck: every point where the last fit left it\n"
                                     : "\ncheck FAILED (run make calibrate after changing the model):\n");
    for (const std::string& d : report.drifted) out.write("  " + d + "\n");
}

void print_calibration(const CalibrationReport& report, Output& out) {
    out.write(std::string("nx-sim calibration: public measurements against the model (") +
              (report.fitted ? "parameters fitted in this run" : "the compiled-in fitted parameters") + ")\n");
    out.write("set: fit = fitted on, held_out = judges the model only, reference = shown, counts toward nothing\n\n");
    out.write(pad("point", 28) + pad("target", 7) + pad("set", 10) + pad("metric", 22) + pad("published", 11, true) +
              pad("predicted", 11, true) + pad("error", 9, true) + pad("LOO", 9, true) + pad("tol", 6, true) + "  within\n");
    for (const CalibrationRow& r : report.rows) {
        out.write(pad(r.name, 28) + pad(r.target, 7) + pad(r.set, 10) + pad(r.metric, 22) + pad(format_value(r.published), 11, true) +
                  pad(format_value(r.predicted), 11, true) + pad(format_percent(r.error_percent), 9, true) +
                  pad(format_percent(r.loo_error_percent), 9, true) + pad(format_tolerance(r.tolerance_percent), 6, true) +
                  "  " + (r.within ? "yes" : "NO") + "\n");
    }
    char line[512];
    std::snprintf(line, sizeof line,
                  "\nlatency |error| over fit + held-out points: mean %.1f%% (goal <= %.0f%%): %s; fit points %.1f%%, held-out "
                  "points %.1f%%\n",
                  report.mean_abs_error_percent, kGoalMeanPercent, report.mean_abs_error_percent <= kGoalMeanPercent ? "yes" : "no",
                  report.fit_mean_percent, report.held_out_mean_percent);
    out.write(line);
    std::snprintf(line, sizeof line, "every fit and held-out point within its tolerance (%.0f%%): %s\n", kGoalPointPercent,
                  report.all_within ? "yes" : "no");
    out.write(line);
    if (std::isfinite(report.loo_mean_percent))
        std::snprintf(line, sizeof line, "leave-one-out mean |error| over the fit points: %.1f%% (goal <= %.0f%%): %s\n",
                      report.loo_mean_percent, kGoalLooPercent, report.loo_mean_percent <= kGoalLooPercent ? "yes" : "no");
    else
        std::snprintf(line, sizeof line, "leave-one-out: computed by a fit (make calibrate), not by a check\n");
    out.write(line);
    out.write(std::string("order groups ranked as published: ") + (report.order_ok ? "yes" : "no") +
              "; trn1 vs trn2 ranked as measured: " + (report.targets_order_ok ? "yes" : "no") + "\n");
    for (const std::string& n : report.order_notes) out.write("  " + n + "\n");
    out.write(std::string("result: ") + (report.goals_met ? "goals met" : "GOALS NOT MET") + "\n");

    out.write("\nparameters:\n");
    for (const ParamInfo& p : model_param_info()) {
        std::snprintf(line, sizeof line, "  %-16s %12.6g %-3s %s\n", p.name, report.params.*p.field, p.unit, p.what);
        out.write(line);
    }
    out.write("\nsources and notes:\n");
    std::string last;
    for (const CalibrationRow& r : report.rows) {
        if (r.name == last) continue;
        last = r.name;
        out.write("  " + r.name + ": " + r.source + "\n");
        if (!r.note.empty()) out.write("    note: " + r.note + "\n");
    }
}

}  // namespace nx::model
