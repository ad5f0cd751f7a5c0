// nx-convert's one call into the library: the plan, the repair, a fan-out
// task, or the inputs converted into the outputs asked for.
#include "common/convert/convert_command.h"

#include "common/convert/dataset_upkeep.h"
#include "common/convert/fanout_task.h"
#include "common/dataset/dataset_plan.h"
#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/exit_status.h"
#include "common/io/file_guard.h"

namespace nx {

namespace {

// The inputs converted, every output finished; a note names the run
// records that went into the database's run history.
int convert_inputs(const ConvertCommand& c, ProfileBuilder& builder, ConvertOutputs& outputs,
                   const ConvertOptions& convert) {
    Converter converter(builder, convert);
    for (const std::string& input : c.inputs) converter.convert_argument(input);

    outputs.finish();
    const ConvertStats& st = converter.stats();
    if (st.runs > 0)
        print_note("read " + std::to_string(st.runs) + " run record" + (st.runs == 1 ? "" : "s") + " into the run history of " + c.outputs.db + " (a run already there is kept once)");
    // Skipped records and inputs are counted in error_counts(): run_tool
    // prints them and exits 1.
    return kExitOk;
}

}  // namespace

int run_convert_command(const ConvertCommand& c, Output& stdout_) {
    const std::string& dataset = c.outputs.dataset;
    if (!c.plan.empty() && dataset.empty()) {
        CaptureTreePlan plan = plan_capture_tree(c.plan, c.plan_options);
        for (const std::string& skipped : plan.skipped) print_note("skipped " + skipped);
        write_plan(stdout_, plan.entries);
        return kExitOk;
    }
    if (!c.plan.empty()) {
        note_planned(plan_dataset(dataset, c.plan, c.plan_options), dataset);
        return kExitOk;
    }
    if (c.repair) {
        note_repaired(repair_dataset(dataset), dataset);
        return kExitOk;
    }

    ProfileBuilder builder;
    builder.keep_last_step(c.keep_last_step);
    for (const std::string& input : c.inputs) guard_input_path(input);
    ConvertOutputs outputs(c.outputs, builder, stdout_);
    ConvertOptions convert = c.convert;
    convert.progress = &outputs.progress();
    convert.on_run = outputs.run_history();
    if (c.task >= 0 || c.missing) {
        FanoutTask task{dataset, c.task, c.tasks, c.missing};
        FanoutResult r = run_fanout_task(task, builder, *outputs.dataset(), convert);
        outputs.finish();
        note_fanout(task, r);
        return r.failed.empty() ? kExitOk : kExitFailure;
    }
    return convert_inputs(c, builder, outputs, convert);
}

}  // namespace nx
