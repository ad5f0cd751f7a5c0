// Reading and running nx-run's workloads (run_workloads.h).
#include "common/run/run_workloads.h"

#include <unistd.h>

#include <algorithm>
#include <optional>

#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/input.h"
#include "common/io/progress.h"
#include "common/records/error_counts.h"
#include "common/records/jsonl.h"
#include "common/records/record_loop.h"
#include "common/run/backends.h"
#include "common/workload/run_record.h"
#include "common/workload/workload_record.h"

namespace nx {

std::vector<Workload> read_workloads(const std::vector<std::string>& given, const RunRequest& r) {
    std::vector<Workload> out;
    std::vector<std::string> inputs = given;
    if (inputs.empty()) {
        if (stdout_is_terminal() && isatty(0)) throw UsageError("give --study, or workload records on stdin or as files");
        inputs.push_back("-");
    }
    const BackendDef* def = find_backend(r.backend);
    for (const std::string& path : inputs) {
        auto in = InputSource::open(path);
        for_each_record(*in, r.keep_going, [&](rapidjson::Document& doc, const std::string&, int64_t) {
            std::string kind = get_string(doc, "kind").value_or("workload");
            if (kind != "workload" && kind != "run" && kind != "capture")
                throw Error("expected workload records, got \"" + kind + "\"");
            Workload w = workload_from_record(doc);
            if (r.target_given || w.target.empty() || !def || !def->device_targets) w.target = r.options.target;
            if (!r.variant.empty() && w.op == "matmul") w.variant = r.variant;
            out.push_back(std::move(w));
        });
    }
    if (!r.variant.empty() && !out.empty() &&
        std::none_of(out.begin(), out.end(), [](const Workload& w) { return w.op == "matmul"; }))
        throw UsageError("--variant chooses a matmul kernel, and none of these workloads is a matmul");
    return out;
}

namespace {

// The workloads nx can run; the others throw, or with keep_going are counted.
std::vector<Workload> runnable_workloads(std::vector<Workload> workloads, bool keep_going) {
    std::vector<Workload> runnable;
    ErrorCounts& errors = error_counts();
    errors.set_total(ErrorKind::failed_workload, static_cast<int64_t>(workloads.size()));
    for (Workload& w : workloads) {
        try {
            validate_workload(w);
            runnable.push_back(std::move(w));
        } catch (const Error& e) {
            if (!keep_going) throw;
            errors.add(ErrorKind::failed_workload, e.what());
        }
    }
    return runnable;
}

// The targets in order of first appearance, and the workloads sorted so (a
// backend is made for one target; the progress line names the next run).
std::vector<std::string> group_by_target(std::vector<Workload>& runnable) {
    std::vector<std::string> targets;
    for (const Workload& w : runnable)
        if (std::find(targets.begin(), targets.end(), w.target) == targets.end()) targets.push_back(w.target);
    std::stable_sort(runnable.begin(), runnable.end(), [&](const Workload& a, const Workload& b) {
        return std::find(targets.begin(), targets.end(), a.target) < std::find(targets.begin(), targets.end(), b.target);
    });
    return targets;
}

}  // namespace

void run_workloads(std::vector<Workload> workloads, const RunRequest& r, std::unique_ptr<Backend> backend,
                   Output& out) {
    std::vector<Workload> runnable = runnable_workloads(std::move(workloads), r.keep_going);
    std::vector<std::string> targets = group_by_target(runnable);
    std::string host = host_name();
    Progress progress(runnable.size(), r.progress);
    std::optional<Error> first_error;
    ErrorCounts& errors = error_counts();
    if (!runnable.empty()) progress.step(runnable.front().name);
    size_t done = 0;
    for (const std::string& target : targets) {
        if (first_error) break;
        std::vector<Workload> group;
        for (const Workload& w : runnable)
            if (w.target == target) group.push_back(w);
        BackendOptions options = r.options;
        options.target = target;
        std::unique_ptr<Backend> for_target =
            target == backend->target() ? std::move(backend) : make_backend(r.backend, options);
        for_target->run_all(group, [&](size_t i, const Execution* e, const Error* err) {
            if (++done < runnable.size()) progress.step(runnable[done].name);
            if (err) {
                if (!r.keep_going) {
                    first_error = *err;
                    return false;  // stop: nothing more runs
                }
                progress.done();
                errors.add(ErrorKind::failed_workload, err->what());
                return true;
            }
            out.write(run_record_json(group[i], for_target->name(), for_target->target(), *e, r.options.warmup,
                                      utc_now_iso8601(), host));
            out.put('\n');
            out.end_record();
            return true;
        });
        if (!backend) backend = std::move(for_target);
    }
    progress.done();
    if (first_error) throw *first_error;
}

}  // namespace nx
