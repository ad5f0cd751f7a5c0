// What one nx-convert invocation asks for, and the one call that does it:
// list a capture tree's plan, plan or repair a dataset, convert a fan-out
// task's share of a dataset's plan, or convert the inputs into the outputs
// asked for (convert_outputs.h).
#pragma once

#include <string>
#include <vector>

#include "common/convert/convert.h"
#include "common/convert/convert_outputs.h"
#include "common/convert/fanout_plan.h"
#include "common/io/output.h"

namespace nx {

struct ConvertCommand {
    std::vector<std::string> inputs;
    std::string plan;          // --plan CAPTURE_TREE: into outputs.dataset's plan, or as TSV on stdout
    PlanOptions plan_options;
    int task = -1, tasks = 0;  // --task I --tasks N: task I's share of outputs.dataset's plan
    bool missing = false;      // --missing: every planned profile outputs.dataset lacks
    bool repair = false;       // --repair: outputs.dataset kept whole
    bool keep_last_step = false;
    OutputRequest outputs;
    ConvertOptions convert;
};

// Does what `c` asks, writing to `stdout_`; the exit status.
int run_convert_command(const ConvertCommand& c, Output& stdout_);

}  // namespace nx
