// Run records (nx-run output) as typed rows for the study reports.
#pragma once

#include <rapidjson/document.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace nx {

struct RunView {
    std::string name, study, op, dtype, backend, target;
    int64_t M = 0, K = 0, N = 0, batch = 0, seq = 0;
    std::string pattern, size, phase, gemm, model;
    int64_t iterations = 0, features = 0, tp = 0;
    double median_us = NAN, p95_us = NAN, tflops = NAN, compile_ms = NAN;
    int64_t tiles_M = 0, tiles_K = 0, tiles_N = 0, tiles_total = 0;
    int64_t predicted_instructions = -1;
    double error_band_percent = NAN;  // sim: the model's error on comparable calibration points
    std::string variant;   // the matmul kernel variant that ran (sim: predicted.variant)
    bool cached = false;
};

RunView view_run(const rapidjson::Value& r);
std::vector<RunView> view_runs(const std::vector<rapidjson::Document>& runs);

// A run's time for a text table: "~55.0 us (+-20%)" for a prediction that
// carries an error band, format_ns otherwise.
std::string format_run_ns(const RunView& r, double ns);

// "sim (predicted by the nx model)" etc., for headings.
std::string backend_phrase(const std::string& backend);

}  // namespace nx
