// The workloads of a study, generated from nx-run's options: matmul sweeps
// (products of M, K, N ranges), tiling boundaries, LLM GEMMs, the vmap /
// scan / for-loop patterns, MLPs.  Value ranges are written
//   128:8192:x2      128, 256, ... 8192 (multiply)
//   128:1024:+128    128, 256, ... 1024 (add)
//   128,256,1000     a list; items may be ranges too
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/workload/workload.h"

namespace nx {

struct PlanOptions {
    std::string study = "matmul";  // matmul | patterns | mlp
    std::string mode = "sweep";    // matmul: sweep | tiling | llm
    std::string M, K, N;           // ranges (defaults per mode)
    std::string dtypes;            // list (default bf16; patterns fp32)
    std::string variant;           // sim matmul variant
    std::string model = "llama-3-8b";
    int64_t tp = 1;
    std::string batch, seq;        // ranges
    std::string phases = "prefill,decode";
    std::string patterns = "vmap,scan,for_loop,for_loop_launch";
    std::string sizes = "small,medium,large";
    int64_t iterations = 3, features = 128;
    std::string hidden, intermediate;  // mlp ranges
    std::string target;
};

// Throws UsageError naming the option for a malformed range or value.
std::vector<int64_t> parse_range(const std::string& spec, const std::string& option);
std::vector<std::string> split_list(const std::string& spec);

std::vector<Workload> plan_workloads(const PlanOptions& o);

}  // namespace nx
