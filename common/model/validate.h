// Turns a Workload record into the lowering's input, or refuses it with a
// message naming the workload: zero or negative dimensions, unknown ops,
// dtypes, patterns or variants, a variant that cannot apply, shapes that do
// not fit device memory (HBM) or SBUF.  Defaults of the pattern study are
// filled in here.
#pragma once

#include <optional>
#include <string>

#include "common/model/conv.h"
#include "common/model/cost_model.h"
#include "common/model/dwconv.h"
#include "common/model/elementwise.h"
#include "common/model/matmul.h"
#include "common/model/mlp.h"
#include "common/model/patterns.h"
#include "common/model/pool.h"
#include "common/model/scan.h"
#include "common/workload/workload.h"
#include "common/workload/workload_record.h"

namespace nx::model {

enum class WorkloadKind { matmul, mlp, pattern, elementwise, conv2d, pool2d, ssm_scan, dwconv1d };

struct WorkloadSpec {
    WorkloadKind kind = WorkloadKind::matmul;
    std::string label;  // the workload's name for messages
    MatmulProblem matmul;
    std::optional<MatmulVariant> variant;  // matmul and mlp; nullopt = auto
    MlpSpec mlp;
    PatternSpec pattern;
    ElementwiseSpec elementwise;
    ConvSpec conv;
    PoolSpec pool;
    ScanSpec scan;
    DwConvSpec dwconv;
    double weight_bytes = 0;  // weights in HBM
    double io_bytes = 0;      // inputs, outputs and weights in HBM
    bool shard = true;        // the workload's shard: auto (true) or none
};

// The workload's shape checked by nx::validate_workload (the op table), with
// its defaults filled, then what only the model knows: what fits the device
// and SBUF, which variants apply.  Throws nx::Error("<label>: <what is wrong>").
WorkloadSpec validate_workload(const Workload& w, const CostModel& cost);

using nx::workload_label;

}  // namespace nx::model
