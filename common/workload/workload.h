// A workload: what to run or simulate (nx(7) RECORDS, kind "workload").
// nx-run generates these or reads them from records; the sim model, the cpu
// backend and the neuron driver all take this struct.  Its fields and its ops
// are also rows of two tables (workload_fields(), workload_ops()): records are
// read and written, shapes validated and defaults filled from those, so an op
// or a field is added in one place.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nx {

struct Workload {
    std::string study;         // "matmul", "patterns", "mlp", or a user's own
    std::string name;          // unique within a study, e.g. "matmul_4096x8192x8192_bf16"
    std::string op;            // one of workload_ops()
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
    std::string dtype = "bf16";  // bf16 | fp16 | fp32 | fp8 | mxfp8 | mxfp4 (dtype_names())
    std::string variant;         // matmul kernel variant (sim): auto | naive | hoisted | blocked_free | blocked_mnk
    std::string target;          // trn1 | inf2 | trn2 | trn3 | cpu
    // The logical NeuronCore: how many physical cores make it, 1 or 2 (0: the
    // target's default, Target::lnc: 2 on trn2 and trn3, 1 on trn1 and inf2).
    int64_t lnc = 0;
    // How the kernel uses the logical core's physical cores: auto (its
    // lowering shards the work over them, as neuronx-cc and LNC-aware NKI
    // kernels do) or none (all of it on the first, as an NKI kernel launched
    // without a launch grid runs); sim only.
    std::string shard;
    // The record's other fields (llm phase, model, tags users added with jq):
    // a JSON object text, passed through to run and capture records.
    std::string carried_json;
};

// One field of a workload record: text or a whole number, and whether it
// is part of the shape (what a compiled graph depends on: the neuron
// driver's cache key), unlike study, name, variant and target.
struct WorkloadField {
    const char* name;
    std::string Workload::*text = nullptr;
    int64_t Workload::*number = nullptr;
    bool shape = true;
};
std::span<const WorkloadField> workload_fields();
const WorkloadField* find_workload_field(std::string_view name);

// One op: the sizes it reads (those with a default may be left out, 0), the
// text field it needs, and its own checks beyond sizes (pattern names,
// for-loop sizes), throwing the message with the workload's name.
struct WorkloadOp {
    struct Size {
        const char* field;
        int64_t fallback;  // 0: required
    };
    std::string_view name;
    std::vector<Size> sizes;
    void (*check)(const Workload& w) = nullptr;
    void (*fill)(Workload& w) = nullptr;  // defaults that are not sizes (a for-loop's size "small")
};
std::span<const WorkloadOp> workload_ops();
const WorkloadOp* find_workload_op(std::string_view name);
// "matmul, mlp, pattern, ..." for messages.
std::string workload_op_names();

// What messages call a workload: its name, else "<op> workload".
std::string workload_label(const Workload& w);

// The workload with its op's defaulted sizes filled where they are 0 (a
// pattern's iterations, a conv2d's filter...): what every backend runs.
Workload with_defaults(Workload w);

}  // namespace nx
