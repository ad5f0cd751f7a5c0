// Calibration of the sim model against public measurements
// (common/model/calibration.jsonl; nx-sim(7), CALIBRATION).
//
// Every point is a workload on a target with its published figures, its
// source and a set: `fit` points determine the free parameters (ModelParams),
// `held_out` points only judge the model, `reference` points are shown but
// count toward nothing (proxies, interpretations, host wall times).  The
// model's goals are over the fit and held-out latencies: mean |error| <= 20%,
// every point within its tolerance (40%), leave-one-out mean <= 30%, each
// order group ranked as published, and trn1 vs trn2 ranked as measured where
// both are.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/io/output.h"
#include "common/model/cost_model.h"
#include "common/workload/workload.h"

namespace nx::model {

struct CalibrationPoint {
    std::string name;
    std::string target;
    Workload workload;
    std::string workload_key;  // the workload object's text: same kernel on two targets
    std::vector<std::pair<std::string, double>> published;  // metric -> value
    std::string source;
    std::string set;           // fit | held_out | reference
    std::vector<std::string> groups;  // order groups it belongs to (may be none)
    std::string note;
    double tolerance_percent = 0;
    std::string file;
    int64_t line = 0;
    bool counts() const { return set == "fit" || set == "held_out"; }
};

// Throws nx::Error naming the file and line for a bad data file.
std::vector<CalibrationPoint> read_calibration_points(const std::string& data_file);

struct CalibrationRow {
    std::string name;      // the calibration point
    std::string target;
    std::string family;    // matmul, elementwise, ...
    std::string dtype;
    int lnc = 1, lanes = 1;  // its logical core, and the physical cores its kernel used
    std::string set;
    std::string metric;    // latency_ms, hfu_percent, tflops ...
    std::string source;    // the document the published figure comes from
    std::string note;
    double published = 0;
    double predicted = 0;
    double error_percent = 0;       // (predicted - published) / published * 100
    double loo_error_percent = NAN; // leave-one-out (fit latency rows, after a fit)
    double recorded_percent = NAN;  // the residual fitted_params.inc recorded
    double tolerance_percent = 0;
    bool within = false;
    bool counts = false;   // a fit or held-out point
    bool latency = false;
};

struct CalibrationReport {
    std::vector<CalibrationRow> rows;
    ModelParams params;
    bool fitted = false;               // params come from a fit of this run
    int evaluations = 0;               // model evaluations the fit made
    double mean_abs_error_percent = 0; // fit + held-out latencies
    double fit_mean_percent = 0, held_out_mean_percent = 0;
    double loo_mean_percent = NAN;
    bool all_within = false;
    bool order_ok = false;             // every order group of counted points
    bool targets_order_ok = false;     // trn1 vs trn2 where both are measured
    std::vector<std::string> order_notes;  // "group: published a < b, predicted ..."
    bool goals_met = false;
    // --check: a latency more than kDriftPercent from the residual the last
    // fit recorded, or a counted point that fit left within its tolerance
    // and is now out of it.
    std::vector<std::string> drifted;
};

inline constexpr double kGoalMeanPercent = 20;
inline constexpr double kGoalPointPercent = 40;
inline constexpr double kGoalLooPercent = 30;
// How far a point may move from its recorded residual before --check fails.
inline constexpr double kDriftPercent = 2;

// Predictions with `params` (the compiled-in fitted values by default).
CalibrationReport evaluate_calibration(const std::vector<CalibrationPoint>& points, const ModelParams& params);
CalibrationReport run_calibration(const std::string& data_file);

// Fits the free parameters to the fit points' latencies (least squares on
// log error, starting from the compiled-in values), computes leave-one-out
// errors, and evaluates every point with the result.
CalibrationReport fit_calibration(const std::vector<CalibrationPoint>& points);
// fitted_params.inc: the parameters and every point's residual.
void write_fitted_params(const CalibrationReport& report, const std::string& data_file, const std::string& path);

void print_calibration(const CalibrationReport& report, Output& out);
// The --check verdict: every point where the last fit left it, or the drifts.
void print_check(const CalibrationReport& report, Output& out);

}  // namespace nx::model
