// Run records (nx(7) RECORDS, kind "run"): written from what a backend
// measured (nx-run), and read back as the run history stores them (the
// checked, typed fields the database has columns for, and the whole record
// beside them), and read leniently as a RunView for the study reports (a
// report shows what a record has; a missing or mistyped field reads as
// unknown).
#pragma once

#include <rapidjson/document.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/workload/workload.h"

namespace nx {

// What one run of a workload measured, as a backend reports it.
struct Execution {
    std::vector<double> latencies_us;  // the timed executions
    std::optional<double> compile_ms;  // none: the backend has no compile step
    bool cached = false;               // a compiled artefact was reused
    std::string neff;                  // compiled artefact (neuron)
    std::string toolchain;             // what compiled/ran it, with version
    std::string note;                  // caveats ("bf16 runs as fp32 on the host")
    std::string predicted_json;        // sim: what the model predicts besides latency (JSON object)
};

// The run record of a workload's executions (warm-up ones dropped from the
// statistics), with its provenance.
std::string run_record_json(const Workload& w, const std::string& backend, const std::string& target,
                            const Execution& e, int warmup, const std::string& started_at, const std::string& host);

// "2026-11-21T19:33:14.123Z" and the host name, for provenance.
std::string utc_now_iso8601();
std::string host_name();

// One run record as the run history stores it (nx(7) RECORDS, kind "run").
struct RunRow {
    std::string study, name, op, backend, target, dtype, started_at, host;
    std::optional<double> median, mean, min, max, p95, stdev, n, compile_ms, tflops;
    std::string record;  // the whole record as JSON
};
// Checks and extracts a run record's fields; throws Error (no file/line: the
// caller adds them) for a missing name or a wrongly typed field.
RunRow run_row_from_record(const rapidjson::Value& rec, std::string record_json);

// A run record's fields as the study reports read them: text empty, counts 0
// and figures NaN where the record lacks them or has another type.
struct RunView {
    std::string name, study, op, dtype, backend, target;
    int64_t lnc = 0;  // physical cores of the logical core it ran on; 0: not said (the host CPU)
    int64_t M = 0, K = 0, N = 0, batch = 0, seq = 0;
    std::string pattern, size, phase, gemm, model;
    int64_t iterations = 0, features = 0, tp = 0;
    double median_us = NAN, p95_us = NAN, tflops = NAN, compile_ms = NAN;
    int64_t tiles_M = 0, tiles_K = 0, tiles_N = 0, tiles_total = 0;
    int64_t predicted_instructions = -1;
    double error_band_percent = NAN;  // sim: the model's error on comparable calibration points (NaN: none)
    bool predicted = false;           // the record carries a "predicted" object (sim)
    std::string variant;   // the matmul kernel variant that ran (sim: predicted.variant)
    bool cached = false;
};

RunView view_run(const rapidjson::Value& r);
std::vector<RunView> view_runs(const std::vector<rapidjson::Document>& runs);

RunView view_run(const rapidjson::Value& r);
std::vector<RunView> view_runs(const std::vector<rapidjson::Document>& runs);

}  // namespace nx
