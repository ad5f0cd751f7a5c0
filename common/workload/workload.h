// A workload: what to run or simulate (nx(7) RECORDS, kind "workload").
// nx-run generates these or reads them from records; the sim model, the cpu
// backend and the neuron driver all take this struct.
#pragma once

#include <cstdint>
#include <string>

namespace nx {

// The ops a workload may name, as messages list them.
inline constexpr const char* kWorkloadOps = "matmul, mlp, pattern, elementwise, conv2d, pool2d, ssm_scan, dwconv1d";

struct Workload {
    std::string study;         // "matmul", "patterns", "mlp", or a user's own
    std::string name;          // unique within a study, e.g. "matmul_4096x8192x8192_bf16"
    std::string op;            // one of kWorkloadOps
    // matmul: C[M,N] = A[M,K] @ B[K,N]
    int64_t M = 0, K = 0, N = 0;
    // mlp: x[batch*seq, hidden] -> gate/up [hidden, intermediate] -> act*mul -> down [intermediate, hidden]
    int64_t batch = 0, seq = 0, hidden = 0, intermediate = 0;
    // pattern study: pattern = vmap | scan | for_loop | for_loop_launch;
    // size = small | medium | large (for-loop unrolling); iterations, batch, features
    std::string pattern;
    std::string size;
    int64_t iterations = 0, features = 0;
    // elementwise: opname (add, mul, exp, relu, gelu, copy, reduce_sum ...) over [rows, cols]
    std::string opname;
    int64_t rows = 0, cols = 0;
    // conv2d: batch x channels x height x width input, out_channels filters of
    // filter x filter taps (stride 1, no padding), then a pool x pool max-pool
    // (pool 1: none)
    int64_t channels = 0, out_channels = 0, height = 0, width = 0, filter = 0, pool = 0;
    // ssm_scan (the Mamba layer): batch x channels x seq inputs, state_size
    // states.  dwconv1d: batch x channels x width, filter taps per channel.
    int64_t state_size = 0;
    // pool2d: batch x channels x height x width input, pool x pool windows
    // `stride` apart (default: pool), opname max or avg
    int64_t stride = 0;
    std::string dtype = "bf16";  // bf16 | fp16 | fp32 | fp8
    std::string variant;         // matmul kernel variant (sim): auto | naive | hoisted | blocked_free | blocked_mnk
    std::string target;          // trn1 | inf2 | trn2 | trn3 | cpu
    // The record's other fields (llm phase, model, tags users added with jq):
    // a JSON object text, passed through to run and capture records.
    std::string carried_json;
};

}  // namespace nx
