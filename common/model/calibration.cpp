// Calibration: every public measurement in the data file against the model.
//
// Each line of the data file is one calibration point: a workload, a target,
// the published figures with their source, a tolerance, whether the point
// counts toward the calibration goals, and an order group (points whose
// latencies must rank as published).  Predictions are computed by simulating
// the workload with its events fed to ProfileBuilder, so utilisation figures
// come from the same metric code nx-convert applies to measured profiles.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "common/io/error.h"
#include "common/io/input.h"
#include "common/model/sim.h"
#include "common/profile/profile_builder.h"
#include "common/records/jsonl.h"

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

Prediction predict(const Workload& w, const Target& target) {
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
    builder.begin_profile(info);
    Prediction p;
    p.result = simulate(w, target, &builder);
    builder.end_profile();
    p.summary = capture.summary();
    return p;
}

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

// Workload fields a calibration point may set.
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
        if (key == "op") w.op = text();
        else if (key == "dtype") w.dtype = text();
        else if (key == "variant") w.variant = text();
        else if (key == "opname") w.opname = text();
        else if (key == "pattern") w.pattern = text();
        else if (key == "size") w.size = text();
        else if (key == "M") w.M = integer();
        else if (key == "K") w.K = integer();
        else if (key == "N") w.N = integer();
        else if (key == "batch") w.batch = integer();
        else if (key == "seq") w.seq = integer();
        else if (key == "hidden") w.hidden = integer();
        else if (key == "intermediate") w.intermediate = integer();
        else if (key == "iterations") w.iterations = integer();
        else if (key == "features") w.features = integer();
        else if (key == "rows") w.rows = integer();
        else if (key == "cols") w.cols = integer();
        else throw Error("unknown workload field \"" + key + "\"", file, line);
    }
}

// Do the goal latencies of each order group rank as published?
bool order_matches(const std::vector<CalibrationRow>& rows, const std::map<size_t, std::string>& group_of) {
    std::map<std::string, std::vector<const CalibrationRow*>> groups;
    for (const auto& [i, g] : group_of) groups[g].push_back(&rows[i]);
    for (auto& [g, members] : groups) {
        auto by_published = members;
        auto by_predicted = members;
        std::stable_sort(by_published.begin(), by_published.end(),
                         [](const CalibrationRow* a, const CalibrationRow* b) { return a->published < b->published; });
        std::stable_sort(by_predicted.begin(), by_predicted.end(),
                         [](const CalibrationRow* a, const CalibrationRow* b) { return a->predicted < b->predicted; });
        if (by_published != by_predicted) return false;
    }
    return true;
}

std::string format_value(double v) {
    char buf[32];
    if (!std::isfinite(v)) return "-";
    std::snprintf(buf, sizeof buf, std::fabs(v) >= 100 ? "%.1f" : "%.2f", v);
    return buf;
}

std::string pad(std::string s, size_t width, bool right = false) {
    if (s.size() >= width) return s;
    std::string fill(width - s.size(), ' ');
    return right ? fill + s : s + fill;
}

}  // namespace

CalibrationReport run_calibration(const std::string& data_file) {
    auto input = InputSource::open(data_file);
    JsonlReader reader(*input);
    rapidjson::Document doc;
    CalibrationReport report;
    std::map<size_t, std::string> goal_latency_groups;  // row index -> order group
    while (reader.next(doc)) {
        const std::string& file = reader.name();
        const int64_t line = reader.line();
        auto name = get_string(doc, "name");
        auto target_name = get_string(doc, "target");
        auto source = get_string(doc, "source");
        auto tolerance = get_number(doc, "tolerance_percent");
        const rapidjson::Value* workload = find_member(doc, "workload");
        const rapidjson::Value* published = find_member(doc, "published");
        if (!name || !target_name || !source || !tolerance || !workload || !published)
            throw Error("a calibration point needs name, target, workload, published, source and tolerance_percent", file, line);
        if (!published->IsObject() || published->MemberCount() == 0)
            throw Error("\"published\" must be an object of figures", file, line);
        const Target* target = find_target(*target_name);
        if (!target) throw Error("unknown target '" + *target_name + "' (known: " + target_names() + ")", file, line);
        const rapidjson::Value* goal_v = find_member(doc, "goal");
        const bool goal = goal_v && goal_v->IsBool() && goal_v->GetBool();
        const std::string group = get_string(doc, "order_group").value_or("");
        const std::string note = get_string(doc, "note").value_or("");

        Workload w;
        w.study = "calibration";
        w.name = *name;
        w.target = *target_name;
        read_workload(*workload, w, file, line);
        Prediction p;
        try {
            p = predict(w, *target);
        } catch (Error& e) {
            if (e.where().empty()) {
                e.set_where(file);
                e.set_line(line);
            }
            throw;
        }

        for (auto it = published->MemberBegin(); it != published->MemberEnd(); ++it) {
            std::string metric(it->name.GetString(), it->name.GetStringLength());
            if (!it->value.IsNumber() || it->value.GetDouble() == 0)
                throw Error("published \"" + metric + "\" must be a non-zero number", file, line);
            auto predicted = predicted_metric(metric, p);
            if (!predicted)
                throw Error("unknown published metric \"" + metric +
                                "\" (known: latency_ms, latency_us, tflops, hfu_percent, mfu_percent, tensor_active_percent)",
                            file, line);
            CalibrationRow row;
            row.name = *name;
            row.metric = metric;
            row.source = *source;
            row.note = note;
            row.published = it->value.GetDouble();
            row.predicted = *predicted;
            row.error_percent = 100.0 * (row.predicted - row.published) / row.published;
            row.tolerance_percent = *tolerance;
            row.within = std::fabs(row.error_percent) <= row.tolerance_percent;
            row.goal = goal;
            if (goal && is_latency(metric) && !group.empty()) goal_latency_groups[report.rows.size()] = group;
            report.rows.push_back(std::move(row));
        }
    }
    double sum = 0;
    int n = 0;
    bool all_within = true;
    for (const CalibrationRow& r : report.rows) {
        if (!r.goal) continue;
        all_within = all_within && r.within;
        if (is_latency(r.metric)) {
            sum += std::fabs(r.error_percent);
            ++n;
        }
    }
    report.mean_abs_error_percent = n > 0 ? sum / n : 0;
    report.order_ok = order_matches(report.rows, goal_latency_groups);
    report.goals_met = n > 0 && all_within && report.mean_abs_error_percent <= kCalibrationMeanGoalPercent && report.order_ok;
    return report;
}

void print_calibration(const CalibrationReport& report, Output& out) {
    out.write("nx-sim calibration: published measurements against the model (* = counts toward the goals)\n\n");
    out.write(pad("point", 28) + pad("metric", 22) + pad("published", 11, true) + pad("predicted", 11, true) +
              pad("error", 9, true) + pad("tol", 6, true) + "  within\n");
    for (const CalibrationRow& r : report.rows) {
        char err[32];
        std::snprintf(err, sizeof err, "%+.1f%%", r.error_percent);
        char tol[16];
        std::snprintf(tol, sizeof tol, "%.0f%%", r.tolerance_percent);
        out.write(pad(r.name, 28) + pad(r.metric, 22) + pad(format_value(r.published), 11, true) +
                  pad(format_value(r.predicted), 11, true) + pad(err, 9, true) + pad(tol, 6, true) + "  " +
                  (r.within ? "yes" : "NO") + (r.goal ? " *" : "") + "\n");
    }
    char line[256];
    bool all_within = true;
    for (const CalibrationRow& r : report.rows)
        if (r.goal) all_within = all_within && r.within;
    std::snprintf(line, sizeof line,
                  "\ngoals: every * figure within its tolerance: %s; mean |error| of the * latencies %.1f%% (goal <= %.0f%%): %s; "
                  "latencies rank as published: %s\nresult: %s\n",
                  all_within ? "yes" : "no", report.mean_abs_error_percent, kCalibrationMeanGoalPercent,
                  report.mean_abs_error_percent <= kCalibrationMeanGoalPercent ? "yes" : "no", report.order_ok ? "yes" : "no",
                  report.goals_met ? "goals met" : "GOALS NOT MET");
    out.write(line);
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
