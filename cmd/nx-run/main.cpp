// nx-run: generates or reads workloads and runs them on a backend (sim, cpu,
// neuron) with warm-up and timed executions; writes run records.  See nx-run(1).
#include <algorithm>
#include <optional>

#include "common/cli/cli.h"
#include "common/io/diag.h"
#include "common/io/data_dir.h"
#include "common/io/error.h"
#include "common/io/output.h"
#include "common/model/sim.h"
#include "common/target/targets.h"
#include "common/run/backends.h"
#include "common/run/run_workloads.h"
#include "common/workload/study_plan.h"
#include "common/workload/workload_record.h"

namespace {

constexpr nx::Listing kListings[] = {
    {"backends", nullptr, "the backends, their default targets and how nx-capture profiles them"},
    {"calibration", nullptr, "the sim model's calibration table (the same as --calibrate)"},
};
constexpr nx::OptionRule kOptionRules[] = {{nx::OptionRule::conflicts, "quiet", "progress"}};

const nx::ToolSpec kSpec = {
    "nx-run",
    "nx-run --study matmul|patterns|mlp [STUDY OPTIONS] [--backend sim|cpu|neuron] [--target T] [--lnc 1|2] [--plan]\n"
    "       nx-run [OPTIONS] < workloads.jsonl\n"
    "       nx-run --calibrate [FILE]",
    "Generates a study's workloads (or reads workload records), runs each on a backend with warm-up\n"
    "and timed executions, and writes run records: latency statistics, compile time, tiles, TFLOP/s.\n"
    "sim predicts with the nx NeuronCore model; cpu runs on the host; neuron runs on a Neuron device.\n"
    "A workload record's op is one of matmul, mlp, pattern, elementwise (every backend) or conv2d,\n"
    "pool2d, ssm_scan, dwconv1d (sim only); its fields are in nx(7), the sim lowering in nx-sim(7).",
    "  nx-run --study matmul --M 128:4096:x2 --K 4096 --N 4096 --target trn1\n"
    "  nx-run --study matmul --mode tiling --plan | jq -c 'select(.M > 256)' | nx-run --backend sim\n"
    "  nx-run --study matmul --mode llm --model llama-3-8b --tp 8 --batch 1,4 --target trn2\n"
    "  nx-run --study matmul --M 16384 --K 16384 --N 16384 --dtype mxfp8 --target trn3 --lnc 2\n"
    "  nx-run --study patterns --backend cpu\n"
    "  nx-run --study mlp --seq 128,512 --backend neuron --target trn1\n"
    "  nx-run --study patterns | nx-capture | nx-convert --db study.db\n"
    "  echo '{\"kind\":\"workload\",\"name\":\"pool\",\"op\":\"pool2d\",\"channels\":256,\"height\":112,\"width\":112,\"opname\":\"avg\"}' | nx-run --target trn1",
    kListings,
    kOptionRules,
};

struct Options {
    nx::PlanOptions plan;
    bool study_given = false;
    std::string backend{nx::default_backend()};
    nx::BackendOptions backend_options;
    std::vector<std::string> inputs;
    bool plan_only = false, keep_going = false, no_cache = false;
    // --target given: it wins over a workload record's own target.
    bool target_given = false;
    // --lnc: the logical core's physical cores (0: not given).
    int64_t lnc = 0;
    int progress = 0;
    std::optional<std::string> calibrate;
    std::string listing;  // --list KIND
};

std::optional<Options> parse(int argc, char** argv) {
    Options o;
    bool quiet = false, progress = false;
    std::string calibrate;
    nx::po::options_description study("Study options");
    study.add_options()
        ("study", nx::po::value(&o.plan.study), "matmul, patterns or mlp")
        ("mode", nx::po::value(&o.plan.mode), "matmul: sweep (default), tiling or llm")
        ("M", nx::po::value(&o.plan.M), "matmul M values: 128:8192:x2, 128:1024:+128 or a list")
        ("K", nx::po::value(&o.plan.K), "matmul K values")
        ("N", nx::po::value(&o.plan.N), "matmul N values")
        ("dtype", nx::po::value(&o.plan.dtypes), (std::string("dtypes: ") + std::string(nx::dtype_names()) + " (list; default bf16, patterns fp32; mxfp8, mxfp4: matmul on trn3)").c_str())
        ("variant", nx::po::value(&o.plan.variant), "sim matmul kernel: auto, naive, hoisted, blocked_free, blocked_mnk")
        ("model", nx::po::value(&o.plan.model), "llm mode: llama-2-7b, llama-3-8b (default), llama-3-70b")
        ("tp", nx::po::value(&o.plan.tp), "llm mode: tensor parallel degree (default 1)")
        ("batch", nx::po::value(&o.plan.batch), "batch sizes (llm, mlp, patterns)")
        ("seq", nx::po::value(&o.plan.seq), "sequence lengths (llm prefill buckets, mlp)")
        ("phases", nx::po::value(&o.plan.phases), "llm mode: prefill,decode (default both)")
        ("patterns", nx::po::value(&o.plan.patterns), "patterns: vmap,scan,for_loop,for_loop_launch (default all)")
        ("sizes", nx::po::value(&o.plan.sizes), "for-loop sizes: small,medium,large (default all)")
        ("iterations", nx::po::value(&o.plan.iterations), "pattern iterations (default 3)")
        ("features", nx::po::value(&o.plan.features), "pattern features (default 128)")
        ("hidden", nx::po::value(&o.plan.hidden), "mlp hidden sizes (default 4096)")
        ("intermediate", nx::po::value(&o.plan.intermediate), "mlp intermediate sizes (default 14336)");
    nx::po::options_description run("Run options");
    run.add_options()
        ("backend", nx::po::value(&o.backend), nx::backend_option_help().c_str())
        ("target", nx::po::value(&o.backend_options.target), nx::target_option_help().c_str())
        ("lnc", nx::po::value(&o.lnc), nx::lnc_option_help().c_str())
        ("warmup", nx::po::value(&o.backend_options.warmup), "untimed executions first (default 5)")
        ("timed", nx::po::value(&o.backend_options.timed), "timed executions (default 20)")
        ("no-cache", nx::po::bool_switch(&o.no_cache), "recompile even when a compiled artefact is cached")
        ("cache-dir", nx::po::value(&o.backend_options.cache_dir), "compiled-artefact cache (default ~/.cache/nx)")
        ("plan", nx::po::bool_switch(&o.plan_only), "print the workload records, run nothing")
        ("keep-going,k", nx::po::bool_switch(&o.keep_going), "report a failing workload and go on")
        ("progress", nx::po::bool_switch(&progress), "progress on stderr even when it is not a terminal")
        ("quiet,q", nx::po::bool_switch(&quiet), "no progress")
        ("calibrate", nx::po::value(&calibrate)->implicit_value(""), "print the sim model's calibration table and exit");
    study.add(run);
    nx::po::variables_map vm;
    if (!nx::parse_command_line(argc, argv, kSpec, study, vm, "input")) return std::nullopt;
    if (vm.count("input")) o.inputs = vm["input"].as<std::vector<std::string>>();
    o.study_given = vm.count("study") > 0;
    if (vm.count("calibrate")) o.calibrate = calibrate;
    o.listing = nx::requested_listing(vm);
    if (o.listing == "calibration") o.calibrate = "";
    o.progress = progress ? 1 : quiet ? -1 : 0;
    o.backend_options.use_cache = !o.no_cache;
    if (o.backend_options.warmup < 0 || o.backend_options.timed < 1)
        throw nx::UsageError("--warmup must be 0 or more and --timed at least 1");
    o.target_given = !o.backend_options.target.empty();
    if (o.backend_options.target.empty())
        if (const nx::BackendDef* def = nx::find_backend(o.backend)) o.backend_options.target = def->default_target;
    if (vm.count("lnc")) {
        if (o.lnc != 1 && o.lnc != 2) throw nx::UsageError("--lnc must be 1 or 2, got " + std::to_string(o.lnc));
        const nx::Target* t = nx::find_target(o.backend_options.target);
        if (o.target_given && t && o.lnc > t->max_lnc)
            throw nx::UsageError("--lnc " + std::to_string(o.lnc) + ": " + t->name + " has one physical core per logical core");
    }
    if (o.study_given && !o.inputs.empty()) throw nx::UsageError("give --study or workload files, not both");
    if (!o.study_given) {
        for (const char* opt : {"mode", "M", "K", "N", "model", "tp", "phases", "patterns", "sizes", "iterations",
                                "features", "hidden", "intermediate", "batch", "seq", "dtype"})
            if (vm.count(opt)) throw nx::UsageError(std::string("--") + opt + " needs --study");
    }
    o.plan.target = o.backend_options.target;
    return o;
}

int calibrate(const std::string& file) {
    std::string path = file.empty() ? nx::find_data_path("calibration.jsonl") : file;
    if (path.empty()) path = nx::find_data_path("common/model/calibration.jsonl");
    if (path.empty()) throw nx::Error("cannot find calibration.jsonl (give its path)");
    nx::model::CalibrationReport r = nx::model::run_calibration(path);
    nx::model::print_calibration(r, nx::Output::standard());
    nx::model::print_check(r, nx::Output::standard());
    return r.drifted.empty() ? nx::kExitOk : nx::kExitGate;
}

// --list backends: the backend table (common/run/backends.h).
void list_backends(nx::Output& out) {
    out.write("backend\tdefault target\tcapture\tdescription\n");
    for (const nx::BackendDef& b : nx::backend_defs())
        out.write(std::string(b.name) + "\t" + std::string(b.default_target) + "\t" +
                  (b.capture == nx::CaptureMethod::in_process ? "in-process trace" : "neuron-profile") + "\t" +
                  std::string(b.description) + "\n");
}

int run(Options& o) {
    if (o.calibrate) return calibrate(*o.calibrate);
    nx::Output& out = nx::Output::standard();
    if (o.listing == "backends") {
        list_backends(out);
        return nx::kExitOk;
    }
    // Made (cheaply: nothing starts yet) before planning, so --plan refuses an
    // unknown backend or target too.
    std::unique_ptr<nx::Backend> backend = nx::make_backend(o.backend, o.backend_options);
    nx::RunRequest request{o.backend, o.backend_options, o.target_given, o.keep_going, o.plan.variant, o.progress};
    std::vector<nx::Workload> workloads =
        o.study_given ? nx::plan_workloads(o.plan) : nx::read_workloads(o.inputs, request);
    // Every run record says which logical core it ran on (a plan only what
    // --lnc chose: its runs take their target's default).
    if (const nx::BackendDef* def = nx::find_backend(o.backend))
        for (nx::Workload& w : workloads)
            if (o.lnc != 0 || !o.plan_only) nx::settle_lnc(w, *def, o.lnc);
    if (o.plan_only) {
        for (const nx::Workload& w : workloads) {
            out.write(nx::workload_record_json(w));
            out.put('\n');
            out.end_record();
        }
        return nx::kExitOk;
    }

    nx::run_workloads(std::move(workloads), request, std::move(backend), out);
    return nx::kExitOk;  // failed workloads are counted: run_tool exits 1
}

}  // namespace

int main(int argc, char** argv) { return nx::tool_main(kSpec, argc, argv, parse, run); }
