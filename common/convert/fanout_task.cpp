#include "common/convert/fanout_task.h"

#include "common/dataset/dataset_plan.h"
#include "common/io/diag.h"

namespace nx {

FanoutResult run_fanout_task(const FanoutTask& task, ProfileBuilder& builder, DatasetSink& sink,
                             const ConvertOptions& options) {
    std::vector<PlanEntry> plan = read_plan(task.dataset);
    auto [first, last] = task.missing_only ? std::pair<size_t, size_t>{0, plan.size()}
                                           : task_range(plan.size(), task.task, task.tasks);
    FanoutResult r;
    for (size_t k = first; k < last; ++k) {
        const PlanEntry& e = plan[k];
        ++r.assigned;
        if (dataset::is_done(sink.folder(), e)) {
            ++r.already_done;
            continue;
        }
        ConvertOptions o = options;
        o.keep_going = false;  // one entry's failure is this entry's, not the task's
        o.base.rank = e.rank;
        o.neff = e.neff;
        (void)sink.take_written();
        try {
            Converter(builder, o).convert_argument(e.input);
            dataset::mark_done(sink.folder(), e, sink.take_written(), sink.tag());
            ++r.converted;
        } catch (const Error& err) {
            std::string what = "entry " + std::to_string(k) + " (rank " + std::to_string(e.rank) + "): " +
                               (err.where().empty() ? e.input + ": " : location_prefix(err.where(), err.line())) +
                               err.what();
            print_error(what);
            r.failed.push_back(what);
        }
    }
    return r;
}

void note_fanout(const FanoutTask& task, const FanoutResult& r) {
    std::string which = task.missing_only ? std::string("missing entries")
                                          : "task " + std::to_string(task.task) + " of " + std::to_string(task.tasks);
    print_note(which + ": " + std::to_string(r.converted) + " converted, " + std::to_string(r.already_done) +
               " already done, " + std::to_string(r.failed.size()) + " failed, of " + std::to_string(r.assigned));
}

}  // namespace nx
