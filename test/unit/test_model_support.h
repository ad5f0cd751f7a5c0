// Helpers shared by the sim backend's unit tests (test_model_*.cpp):
// workload builders and an ImportHandler that keeps what it receives.
#pragma once

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/io/error.h"
#include "common/model/sim.h"
#include "common/profile/profile_builder.h"

namespace nx::model::testing {

inline Workload matmul_workload(int64_t M, int64_t K, int64_t N, const std::string& variant = "",
                                const std::string& dtype = "bf16", const std::string& target = "trn1") {
    Workload w;
    w.study = "test";
    w.name = "mm_" + std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N);
    w.op = "matmul";
    w.M = M;
    w.K = K;
    w.N = N;
    w.dtype = dtype;
    w.variant = variant;
    w.target = target;
    return w;
}

inline Workload elementwise_workload(const std::string& op, int64_t rows, int64_t cols, const std::string& dtype = "bf16",
                                     const std::string& target = "trn1") {
    Workload w;
    w.name = op;
    w.op = "elementwise";
    w.opname = op;
    w.rows = rows;
    w.cols = cols;
    w.dtype = dtype;
    w.target = target;
    return w;
}

inline SimResult run(const Workload& w) { return simulate(w, workload_target(w)); }

// Each workload refused with exactly its message.
inline void expect_refused(const std::vector<std::pair<Workload, std::string>>& cases) {
    for (const auto& [w, message] : cases) {
        try {
            run(w);
            ADD_FAILURE() << "accepted: " << message;
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()), message);
        }
    }
}

// An event with its strings copied.
struct RecordedEvent {
    EventType type;
    Engine engine;
    std::string track, name, opcode, hlo, layer, tensor;
    int64_t ts, dur, bytes;
    double flops, model_flops;
    DmaKind kind;
    bool transpose;
    int32_t pcore;
};

class Recorder : public ImportHandler {
public:
    void begin_profile(const ProfileInfo&) override {}
    void source_metric(std::string_view name, double value) override { metrics[std::string(name)] = value; }
    void event(const Event& e) override {
        events.push_back({e.type, e.engine, std::string(e.track), std::string(e.name), std::string(e.opcode),
                          std::string(e.hlo_name), std::string(e.layer), std::string(e.tensor), e.ts_ns, e.dur_ns, e.bytes,
                          e.flops, e.model_flops, e.dma_kind, e.transpose, e.pcore});
    }
    void update_info(const ProfileInfo&) override {}
    void end_profile() override {}
    void abort_profile() override {}

    // Every event as text, for byte-for-byte comparisons.
    std::string text() const {
        std::string s;
        for (const RecordedEvent& e : events) {
            s += std::to_string(e.ts) + ' ' + std::to_string(e.dur) + ' ' + e.track + ' ' + e.name + ' ' + e.opcode + ' ' +
                 e.layer + ' ' + e.tensor + ' ' + e.hlo + ' ' + std::to_string(e.bytes) + ' ' + std::to_string(e.flops) + '\n';
        }
        return s;
    }

    std::vector<RecordedEvent> events;
    std::map<std::string, double> metrics;
};

// Keeps the summary ProfileBuilder computes.
class SummarySink : public ProfileSink {
public:
    void begin_profile(const ProfileInfo&) override {}
    void event(const Event&) override {}
    void end_profile(const ProfileInfo&, const ProfileSummary& s) override { summary = s; }
    ProfileSummary summary;
};

// Simulates through ProfileBuilder, as nx-capture/nx-convert would.
inline ProfileSummary summarize(const Workload& w, SimResult* result = nullptr) {
    ProfileBuilder builder;
    SummarySink sink;
    builder.add_sink(&sink);
    ProfileInfo info;
    info.id = make_profile_id(w.name);
    info.backend = "sim";
    info.format = "sim";
    info.target = workload_target(w).name;
    info.dtype = w.dtype;
    builder.begin_profile(info);
    SimResult r = simulate(w, workload_target(w), &builder);
    builder.end_profile();
    if (result) *result = r;
    return sink.summary;
}

// The repository's calibration data: NX_SOURCE_DIR, else relative to this file.
inline std::string calibration_data_path() {
    if (const char* dir = std::getenv("NX_SOURCE_DIR")) return std::string(dir) + "/common/model/calibration.jsonl";
    std::string here = __FILE__;  // .../test/unit/test_model_support.h
    for (int i = 0; i < 3; ++i) {
        size_t slash = here.find_last_of('/');
        here = slash == std::string::npos ? std::string() : here.substr(0, slash);
    }
    return (here.empty() ? std::string() : here + "/") + "common/model/calibration.jsonl";
}

}  // namespace nx::model::testing
