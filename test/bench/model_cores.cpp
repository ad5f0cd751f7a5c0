// make lnc-compare: each physical core's share of a real LNC=2 profile beside
// the model's prediction of workloads of the same shape (nx-sim(7), LNC).
//
//   bench-model_cores [--profile FILE] WORKLOAD...
//       FILE: a profile in any format nx-convert reads (its engines' busy
//       time per physical core: the profiler's own active intervals when it
//       gives them); each WORKLOAD a workload record (JSON) the model
//       predicts with its events.  One table row per physical core: engine
//       busy time, semaphore waits, instructions, MATMULs, first and last
//       instruction (us).
// Exit 1 for an unreadable profile or a bad workload, 2 for bad arguments.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "common/import/importer.h"
#include "common/io/error.h"
#include "common/io/exit_status.h"
#include "common/io/input.h"
#include "common/model/core_balance.h"
#include "common/model/sim.h"
#include "common/workload/workload_record.h"

namespace {

void print_header() {
    std::printf("%-44s %4s", "timeline", "core");
    for (int e = 0; e < nx::model::kBalanceEngines; ++e) std::printf(" %9s", nx::model::balance_engine_name(e));
    std::printf(" %9s %6s %7s %9s %9s\n", "waits", "instr", "MATMUL", "first", "last");
}

void print_rows(const std::string& label, const nx::model::CoreBalance& b) {
    for (int c = 0; c < b.cores(); ++c) {
        const nx::model::CoreShare& s = b.core(c);
        std::printf("%-44s %4d", label.c_str(), c);
        for (double ns : s.busy_ns) std::printf(" %9.2f", ns / 1e3);
        std::printf(" %9.2f %6lld %7lld %9.2f %9.2f\n", s.wait_ns / 1e3, static_cast<long long>(s.instructions),
                    static_cast<long long>(s.matmuls), static_cast<double>(s.first_ns) / 1e3,
                    static_cast<double>(s.last_ns) / 1e3);
    }
}

void profile_rows(const std::string& path) {
    auto in = nx::InputSource::open(path);
    nx::Detected d = nx::detect_format(path, in.get());
    if (!d.format || !d.format->import) throw nx::Error("not a profile nx reads: " + path);
    nx::model::CoreBalance b;
    nx::ImportContext ctx;
    ctx.where = path;
    ctx.identity = path;
    d.format->import(*in, b, ctx);
    b.end_profile();
    print_rows(std::string(b.from_profiler() ? "profile (profiler's busy intervals)" : "profile"), b);
}

void workload_rows(const std::string& json) {
    rapidjson::Document doc;
    if (doc.Parse(json.c_str()).HasParseError() || !doc.IsObject()) throw nx::Error("not a workload record: " + json);
    nx::Workload w = nx::workload_from_record(doc);
    nx::model::CoreBalance b;
    nx::model::SimResult r = nx::model::simulate(w, nx::model::workload_target(w), &b);
    b.end_profile();
    char label[96];
    std::snprintf(label, sizeof label, "model %s (%s LNC=%d, %s)", w.name.c_str(), nx::model::workload_target(w).name, r.lnc,
                  r.lanes > 1 ? "sharded" : "one core");
    print_rows(label, b);
}

}  // namespace

int main(int argc, char** argv) {
    std::string profile;
    std::vector<std::string> workloads;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--profile") && i + 1 < argc) profile = argv[++i];
        else if (argv[i][0] == '-') {
            std::fprintf(stderr, "model_cores: unknown option %s (--profile FILE, then workload records)\n", argv[i]);
            return nx::kExitUsage;
        } else workloads.emplace_back(argv[i]);
    }
    if (profile.empty() && workloads.empty()) {
        std::fprintf(stderr, "model_cores: give --profile FILE and/or workload records\n");
        return nx::kExitUsage;
    }
    try {
        print_header();
        if (!profile.empty()) profile_rows(profile);
        for (const std::string& w : workloads) workload_rows(w);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "model_cores: %s\n", e.what());
        return nx::kExitFailure;
    }
    return nx::kExitOk;
}
