// Benchmark of the sim backend (make build/bin/bench-model_speed).
//
// Simulates the NKI tutorial's 4096 x 8192 x 8192 bf16 matmul on trn1 in each
// kernel variant and reports, as one JSON object per line on stdout (and a
// readable line on stderr):
//   model_instructions_per_s       simulated instructions per second of wall time
//                                  with every event streamed to a consumer
//   model_instructions_per_s_*     the same without events / through ProfileBuilder
//   model_matmul_latency_ms_VARIANT predicted latency per variant, with its
//                                  instruction count and simulation wall time
//   model_peak_buffered_events_M*  the reorder buffer's high-water mark for the
//                                  shape and for one with 2x / 4x the instructions
//                                  (flat: memory does not grow with the program)
//   model_max_rss_bytes            peak resident memory of the process
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "common/model/sim.h"
#include "common/profile/profile_builder.h"

namespace {

using Clock = std::chrono::steady_clock;

// Receives every event and keeps nothing (a sink that writes elsewhere).
class CountingHandler : public nx::ImportHandler {
public:
    void begin_profile(const nx::ProfileInfo&) override {}
    void source_metric(std::string_view, double) override {}
    void event(const nx::Event& e) override {
        ++events;
        checksum += e.ts_ns + e.dur_ns;
    }
    void update_info(const nx::ProfileInfo&) override {}
    void end_profile() override {}
    void abort_profile() override {}
    int64_t events = 0;
    int64_t checksum = 0;
};

enum class Mode { no_events, streamed, profile_builder };

struct Run {
    nx::model::SimResult result;
    double wall_s = 0;
    int64_t events = 0;
};

Run run(const nx::Workload& w, Mode mode) {
    const nx::Target& target = *nx::find_target(w.target);
    Run r;
    auto t0 = Clock::now();
    if (mode == Mode::no_events) {
        r.result = nx::model::simulate(w, target);
    } else if (mode == Mode::streamed) {
        CountingHandler h;
        r.result = nx::model::simulate(w, target, &h);
        r.events = h.events;
    } else {
        nx::ProfileBuilder builder;
        nx::ProfileInfo info;
        info.target = w.target;
        info.dtype = w.dtype;
        info.backend = "sim";
        builder.begin_profile(info);
        r.result = nx::model::simulate(w, target, &builder);
        builder.end_profile();
    }
    r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
}

nx::Workload matmul(int64_t M, int64_t K, int64_t N, const std::string& variant) {
    nx::Workload w;
    w.study = "bench";
    w.op = "matmul";
    w.M = M;
    w.K = K;
    w.N = N;
    w.dtype = "bf16";
    w.target = "trn1";
    w.variant = variant;
    w.name = "matmul_" + std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N) + "_bf16_" + variant;
    return w;
}

void figure(const std::string& name, double value, const std::string& unit, const std::string& extra = "") {
    std::printf("{\"name\":\"%s\",\"value\":%.6g,\"unit\":\"%s\",\"workload\":\"matmul_4096x8192x8192_bf16\",\"target\":\"trn1\"%s}\n",
                name.c_str(), value, unit.c_str(), extra.c_str());
}

}  // namespace

int main() {
    const char* variants[] = {"naive", "hoisted", "blocked_free", "blocked_mnk", "auto"};
    double instr_streamed = 0, wall_streamed = 0, instr_plain = 0, wall_plain = 0, instr_pb = 0, wall_pb = 0;
    for (const char* v : variants) {
        nx::Workload w = matmul(4096, 8192, 8192, v);
        Run plain = run(w, Mode::no_events);
        Run streamed = run(w, Mode::streamed);
        Run pb = run(w, Mode::profile_builder);
        instr_plain += static_cast<double>(plain.result.instructions);
        wall_plain += plain.wall_s;
        instr_streamed += static_cast<double>(streamed.result.instructions);
        wall_streamed += streamed.wall_s;
        instr_pb += static_cast<double>(pb.result.instructions);
        wall_pb += pb.wall_s;
        char extra[256];
        std::snprintf(extra, sizeof extra,
                      ",\"variant\":\"%s\",\"used\":\"%s\",\"instructions\":%lld,\"events\":%lld,\"sim_wall_s\":%.4f,"
                      "\"sim_wall_s_streamed\":%.4f,\"sim_wall_s_profile_builder\":%.4f",
                      v, streamed.result.variant.c_str(), static_cast<long long>(streamed.result.instructions),
                      static_cast<long long>(streamed.events), plain.wall_s, streamed.wall_s, pb.wall_s);
        // One record per figure: the variant is part of the name.
        figure(("model_matmul_latency_ms_" + std::string(v)).c_str(), streamed.result.latency_ns / 1e6, "ms", extra);
        std::fprintf(stderr,
                     "matmul 4096x8192x8192 bf16 trn1 %-12s (%s): %8.3f ms predicted, %8lld instructions, %8lld events; "
                     "sim %.3f s (no events) %.3f s (streamed) %.3f s (ProfileBuilder)\n",
                     v, streamed.result.variant.c_str(), streamed.result.latency_ns / 1e6,
                     static_cast<long long>(streamed.result.instructions), static_cast<long long>(streamed.events),
                     plain.wall_s, streamed.wall_s, pb.wall_s);
    }
    figure("model_instructions_per_s", instr_streamed / wall_streamed, "instr/s", ",\"mode\":\"events streamed\"");
    figure("model_instructions_per_s_no_events", instr_plain / wall_plain, "instr/s", ",\"mode\":\"no events\"");
    figure("model_instructions_per_s_profile_builder", instr_pb / wall_pb, "instr/s", ",\"mode\":\"events through ProfileBuilder\"");
    std::fprintf(stderr, "simulated instructions per second: %.1f M (events streamed), %.1f M (no events), %.1f M (ProfileBuilder)\n",
                 instr_streamed / wall_streamed / 1e6, instr_plain / wall_plain / 1e6, instr_pb / wall_pb / 1e6);

    // Memory: the reorder buffer must not grow with the program's length.
    const int64_t scales[] = {1, 2, 4};
    for (int64_t s : scales) {
        nx::Workload w = matmul(4096 * s, 8192, 8192, "naive");
        Run r = run(w, Mode::streamed);
        char extra[160];
        std::snprintf(extra, sizeof extra, ",\"M\":%lld,\"instructions\":%lld", static_cast<long long>(4096 * s),
                      static_cast<long long>(r.result.instructions));
        figure(("model_peak_buffered_events_M" + std::to_string(4096 * s)).c_str(),
               static_cast<double>(r.result.peak_buffered_events), "events", extra);
        std::fprintf(stderr, "naive %lldx8192x8192: %lld instructions, reorder buffer peak %zu events\n",
                     static_cast<long long>(4096 * s), static_cast<long long>(r.result.instructions),
                     r.result.peak_buffered_events);
    }
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    figure("model_max_rss_bytes", static_cast<double>(ru.ru_maxrss) * 1024.0, "bytes");
    std::fprintf(stderr, "peak resident memory: %.1f MiB\n", static_cast<double>(ru.ru_maxrss) / 1024.0);
    return 0;
}
