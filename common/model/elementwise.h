// Element-wise, activation, reduction, copy and normalisation ops over a
// [rows, cols] tensor, lowered as an NKI kernel would: rows on the 128 SBUF
// partitions, columns in chunks on the free axis, loads triple-buffered so DMA
// overlaps compute, each op on the engine that executes it:
//   VectorE  add sub mul max min (two inputs), reduce_sum reduce_max
//   ScalarE  exp relu gelu silu tanh sigmoid (activation table)
//   GpSimdE  copy
//   layernorm: the NKI LayerNorm tutorial's two kernels (variant v1 or v2),
//   a whole row per partition.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/model/cost_model.h"
#include "common/model/lowering.h"
#include "common/target/targets.h"

namespace nx::model {

class Scheduler;

enum class ElementwiseKind { binary, activation, copy, reduce, layernorm };

struct ElementwiseSpec {
    std::string opname;   // as the workload names it ("add", "gelu", ...)
    ElementwiseKind kind = ElementwiseKind::binary;
    int64_t rows = 0, cols = 0;
    DType dtype = DType::bf16;
    int layernorm_version = 2;  // 1: nki.language only; 2: bn_stats/bn_aggr + tensor_scalar
    // One physical core's part of a sharded op (sharding.h): its first row
    // and column in the whole tensor, the whole tensor's columns (0: this is
    // the whole), which core, and whether its partial row sums are combined
    // with the other core's (a reduction split by columns: the first core
    // stores the result).
    int64_t row0 = 0, col0 = 0, whole_cols = 0;
    int lane = 0;
    bool combine = false;
};

// The kind of an op name; false when unknown.
bool elementwise_kind(std::string_view opname, ElementwiseKind& kind);
// "add, sub, mul, max, min, exp, relu, gelu, silu, tanh, sigmoid, copy, reduce_sum, reduce_max, layernorm"
std::string_view elementwise_op_names();

struct ElementwiseOutcome {
    Time end = 0;
    double sbuf_bytes = 0;  // per partition, as planned
    std::string variant;    // layernorm: "v1"/"v2"; otherwise empty
};

// SBUF bytes per partition the op needs at minimum; `why` says what when it
// does not fit (empty when it does).
double elementwise_sbuf_required(const ElementwiseSpec& spec, const CostModel& cost, std::string& why);

// Lowers the op (lowering.h); `out` is filled when it ends.  `spec` and `out`
// must outlive it.
Lowering lower_elementwise(Scheduler& s, const ElementwiseSpec& spec, ElementwiseOutcome& out);

}  // namespace nx::model
