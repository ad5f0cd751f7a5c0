// nx-capture: a profile of each run record (sim: the model's trace; cpu: an
// instrumented re-run; neuron: neuron-profile capture), as capture records.
// See nx-capture(1).
#include <optional>

#include "common/cli/cli.h"
#include "common/io/diag.h"
#include "common/io/progress.h"
#include "common/io/error.h"
#include "common/io/output.h"
#include "common/records/jsonl.h"
#include "common/records/record_loop.h"
#include "common/run/capture.h"

namespace {

constexpr nx::OptionRule kOptionRules[] = {{nx::OptionRule::conflicts, "quiet", "progress"}};

const nx::ToolSpec kSpec = {
    "nx-capture",
    "nx-capture [--dir DIR] [--num-exec N] [--profile-nth-exec K] [PROFILER OPTIONS] [--keep-going] [FILE...]",
    "Reads run records (from nx-run) and captures a profile of each: sim runs get the model's device\n"
    "trace, cpu runs an instrumented re-run, neuron runs `neuron-profile capture` on the run's NEFF.\n"
    "Writes capture records pointing at the profile files; nx-convert loads them.",
    "  nx-run --study patterns | nx-capture | nx-convert --db study.db\n"
    "  nx-capture --dir out/profiles runs.jsonl > captures.jsonl\n"
    "  nx-capture --num-exec 5 --profile-nth-exec 3 < neuron-runs.jsonl\n"
    "  nx-capture --collectives-workers-per-node 2 < neuron-runs.jsonl | nx-convert --db study.db",
    {},
    kOptionRules,
};

struct Options {
    nx::CaptureOptions capture;
    std::vector<std::string> inputs;
    bool keep_going = false;
    int progress = 0;
};

std::optional<Options> parse(int argc, char** argv) {
    Options o;
    bool quiet = false, progress = false, ignore_exec = false, single_io = false;
    std::string workers, count, start_id, profile_id;
    nx::po::options_description desc("Options");
    desc.add_options()
        ("dir,d", nx::po::value(&o.capture.dir), "directory for the profile files (default captures)")
        ("num-exec", nx::po::value(&o.capture.num_exec), "neuron: executions to run (neuron-profile --num-exec)")
        ("profile-nth-exec", nx::po::value(&o.capture.profile_nth_exec), "neuron: the execution to profile")
        ("ignore-exec-errors", nx::po::bool_switch(&ignore_exec), "neuron: passed to neuron-profile")
        ("single-io", nx::po::bool_switch(&single_io), "neuron: one shared I/O buffer (less device memory)")
        ("collectives-workers-per-node", nx::po::value(&workers), "neuron: workers on this node (one profile per rank)")
        ("collectives-worker-count", nx::po::value(&count), "neuron: workers across all nodes")
        ("collectives-worker-start-id", nx::po::value(&start_id), "neuron: rank of this node's first worker")
        ("collectives-profile-id", nx::po::value(&profile_id), "neuron: the rank to profile, or all")
        ("keep-going,k", nx::po::bool_switch(&o.keep_going), "report a failing capture and go on")
        ("progress", nx::po::bool_switch(&progress), "progress on stderr even when it is not a terminal")
        ("quiet,q", nx::po::bool_switch(&quiet), "no progress");
    nx::po::variables_map vm;
    if (!nx::parse_command_line(argc, argv, kSpec, desc, vm, "input")) return std::nullopt;
    if (vm.count("input")) o.inputs = vm["input"].as<std::vector<std::string>>();
    if (o.inputs.empty()) o.inputs.push_back("-");
    if (o.capture.num_exec < 1 || o.capture.profile_nth_exec < 1 || o.capture.profile_nth_exec > o.capture.num_exec)
        throw nx::UsageError("--profile-nth-exec must be between 1 and --num-exec");
    auto& a = o.capture.profiler_args;
    if (ignore_exec) a.push_back("--ignore-exec-errors");
    if (single_io) a.push_back("--single-io");
    for (auto [flag, value] : {std::pair<const char*, std::string*>{"--collectives-workers-per-node", &workers},
                               {"--collectives-worker-count", &count},
                               {"--collectives-worker-start-id", &start_id},
                               {"--collectives-profile-id", &profile_id}}) {
        if (value->empty()) continue;
        a.push_back(flag);
        a.push_back(*value);
    }
    o.capture.multi_worker = !workers.empty();
    o.progress = progress ? 1 : quiet ? -1 : 0;
    return o;
}

int run(const Options& o) {
    nx::Output& out = nx::Output::standard();
    int64_t tried = 0;
    for (const std::string& path : o.inputs) {
        auto in = nx::InputSource::open(path);
        nx::Progress progress(0, o.progress);
        nx::for_each_record(
            *in, o.keep_going,
            [&](rapidjson::Document& run, const std::string&, int64_t) {
                nx::error_counts().set_total(nx::ErrorKind::failed_capture, ++tried);
                progress.step(nx::get_string(run, "name").value_or("?"));
                try {
                    for (const std::string& rec : nx::capture_run(run, o.capture)) {
                        out.write(rec);
                        out.put('\n');
                        out.end_record();
                    }
                } catch (const nx::Error&) {
                    progress.done();  // the message goes on a line of its own
                    throw;
                }
            },
            nx::ErrorKind::failed_capture);
    }
    return nx::kExitOk;  // failed captures are counted: run_tool exits 1
}

}  // namespace

int main(int argc, char** argv) { return nx::tool_main(kSpec, argc, argv, parse, run); }
