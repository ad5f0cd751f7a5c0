// nx-convert: profiles from Neuron tools (and Chrome traces, nx event
// streams) into normalised events, summary metrics and a SQLite study
// database.  See nx-convert(1).
#include <optional>

#include "common/cli/cli.h"
#include "common/convert/convert_command.h"
#include "common/convert/record_paths.h"
#include "common/convert/sink_formats.h"
#include "common/import/importer.h"
#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/output.h"
#include "common/target/targets.h"
#include "common/run/backends.h"

namespace {

constexpr nx::Listing kListings[] = {{"formats", "list-formats", "the input formats"}};
constexpr nx::OptionRule kOptionRules[] = {
    {nx::OptionRule::needs, "output", "to"},
    {nx::OptionRule::conflicts, "input-format", "format"},
    {nx::OptionRule::conflicts, "quiet", "progress"},
    {nx::OptionRule::needs, "task", "tasks"},
    {nx::OptionRule::needs, "tasks", "task"},
    {nx::OptionRule::needs, "task", "dataset"},
    {nx::OptionRule::needs, "missing", "dataset"},
    {nx::OptionRule::conflicts, "missing", "task"},
    {nx::OptionRule::conflicts, "plan", "task"},
    {nx::OptionRule::conflicts, "plan", "missing"},
    {nx::OptionRule::needs, "repair", "dataset"},
    {nx::OptionRule::conflicts, "repair", "plan"},
    {nx::OptionRule::conflicts, "repair", "task"},
    {nx::OptionRule::conflicts, "repair", "missing"},
    {nx::OptionRule::needs, "include-hidden", "plan"},
    // --explain reads the inputs to say what nx made of them, nothing else.
    {nx::OptionRule::conflicts, "explain", "db"},
    {nx::OptionRule::conflicts, "explain", "dataset"},
    {nx::OptionRule::conflicts, "explain", "to"},
    // A plan entry's rank is the plan's: --rank would be ignored.
    {nx::OptionRule::conflicts, "rank", "task"},
    {nx::OptionRule::conflicts, "rank", "missing"},
    {nx::OptionRule::conflicts, "rank", "plan"},
    {nx::OptionRule::needs, "copy-source", "db"},
    // A fan-out task writes its share into the dataset; tasks at once
    // cannot share one SQLite file.
    {nx::OptionRule::conflicts, "task", "db"},
    {nx::OptionRule::conflicts, "missing", "db"},
};

const nx::ToolSpec kSpec = {
    "nx-convert",
    "nx-convert [--db FILE] [--dataset DIR] [--to events|pftrace|chrome-json] [-o FILE] [--input-format FMT] [--neff FILE] [OPTIONS] [FILE|DIR|-]...",
    "Reads profiles (Neuron Explorer profile directories of Parquet tables, the current SDK's\n"
    "output; neuron-profile JSON of SDK <= 2.33, summary-json, Neuron Explorer system profiles,\n"
    "Chrome trace JSON (PyTorch profiler traces: threads, GPU streams, flows, ranks, c10d\n"
    "collectives), nx event JSONL; .gz too; NTFF with --neff; a directory of\n"
    "profile_rank_<i> files, or a capture tree, each profile ranked as --plan ranks it; capture\n"
    "records on stdin), computes summary metrics, and writes\n"
    "profile records on stdout, events with --to events, a trace for Perfetto UI with --to pftrace\n"
    "(or chrome://tracing with --to chrome-json), loads a study database with --db, and writes\n"
    "each profile into a Hive-partitioned Parquet dataset with --dataset (DuckDB, Spark, Trino read it).",
    "  nx-convert profile.json                         # one profile record on stdout\n"
    "  nx-convert --db study.db profile.json.gz        # load (re-importing replaces)\n"
    "  nx-convert --db study.db matmul@latest          # a Neuron Explorer profile directory\n"
    "  nx-convert --explain matmul@latest              # what nx used, converted, lacked of it (for a bug report)\n"
    "  nx-convert --neff file.neff profile.ntff        # runs neuron-profile view first\n"
    "  nx-convert --db study.db output/                # profile_rank_<i> files, one per rank\n"
    "  nx-convert --dataset ds/ --rank 7 i-0ab_pid_12/123_instid_0_vnc_3.json # one rank into a dataset\n"
    "  nx-convert --dataset ds/ --plan capture/         # plan a fan-out: ds/_nx/plan.tsv, a profile per line\n"
    "  nx-convert --dataset ds/ --task 3 --tasks 64     # one scheduler task's share of the plan\n"
    "  nx-convert --dataset ds/ --missing               # every planned profile not in the dataset yet\n"
    "  nx-convert --dataset ds/ --repair                # finish what stopped writers left (the reduce runs it first)\n"
    "  nx-run --study matmul | nx-capture | nx-convert --db study.db\n"
    "  nx-convert --to events trace.json | jq -c 'select(.engine==\"dma\")'\n"
    "  nx-convert --to pftrace -o profile.pftrace profile.json   # open in ui.perfetto.dev\n"
    "  nx-convert --to pftrace -o vmap.pftrace study.db --profile vmap   # a profile stored in a database",
    kListings,
    kOptionRules,
};

struct Options {
    nx::ConvertCommand command;
    bool list_formats = false;
};

std::optional<Options> parse(int argc, char** argv) {
    Options o;
    nx::ConvertCommand& c = o.command;
    std::string format_alias;
    bool progress = false, quiet = false;
    nx::po::options_description desc("Options");
    desc.add_options()
        ("db", nx::po::value(&c.outputs.db), "load the profiles into this SQLite study database (created if missing)")
        ("copy-source", nx::po::bool_switch(&c.outputs.copy_source), "with --db: copy every row of the source into the database (default: Explorer's Parquet tables are read where they are)")
        ("dataset", nx::po::value(&c.outputs.dataset), "write each profile into the Parquet dataset DIR: tables partitioned by rank (nx(7) DATASET)")
        ("plan", nx::po::value(&c.plan), "list the profiles of a capture tree with their ranks (TSV; with --dataset: its plan, DIR/_nx/plan.tsv)")
        ("task", nx::po::value(&c.task), "with --dataset and --tasks: convert task I's share (0-based) of the dataset's plan")
        ("tasks", nx::po::value(&c.tasks), "how many tasks share the plan")
        ("missing", nx::po::bool_switch(&c.missing), "with --dataset: convert every planned profile the dataset lacks")
        ("repair", nx::po::bool_switch(&c.repair), "with --dataset: finish the commits of writers that were killed, remove their hidden files and the files of profiles without a profiles file, name the profiles no plan entry accounts for")
        ("explain", nx::po::bool_switch(&c.outputs.explain), "print what nx used of each profile's source, converted, lacked and did not know (a Neuron Explorer export: its schema, field by field), instead of profile records")
        ("include-hidden", nx::po::bool_switch(&c.plan_options.include_hidden), "with --plan: plan hidden files and folders too (.snapshot/ and the like are left out and named)")
        ("rank", nx::po::value(&c.convert.base.rank), "the worker rank of the profiles read (a dataset's partition; profile_rank_<i> files say their own; without it, a PyTorch trace's distributedInfo does)")
        ("to", nx::po::value(&c.outputs.to), "also write the events: 'events' (nx event JSONL), 'pftrace' (Perfetto), 'chrome-json'")
        ("output,o", nx::po::value(&c.outputs.output), "write --to output to FILE (atomically) instead of stdout")
        ("input-format", nx::po::value(&c.convert.format), "input format instead of sniffing (see --list formats)")
        ("format", nx::po::value(&format_alias), "the same as --input-format (the older spelling)")
        ("neff", nx::po::value(&c.convert.neff), "the NEFF that NTFF inputs were captured from")
        ("view-timeout", nx::po::value(&c.convert.view.timeout_s)->default_value(c.convert.view.timeout_s, "7200"),
         "seconds neuron-explorer view may take to write an NTFF's tables before nx stops it")
        ("name", nx::po::value(&c.convert.base.name), "profile name (default: the file name)")
        ("target", nx::po::value(&c.convert.base.target), "hardware target for MFU/MBU: trn1, inf2, trn2, trn3")
        ("backend", nx::po::value(&c.convert.base.backend), "what made the profile: neuron, sim, cpu")
        ("dtype", nx::po::value(&c.convert.base.dtype), "matmul dtype for peak FLOP/s: bf16, fp16, fp32, fp8")
        ("root", nx::po::value(&c.convert.roots)->composing(), "capture records may name files under DIR (repeatable; default: the current directory tree and the record file's directory)")
        ("profile", nx::po::value(&c.convert.profiles)->composing(), "with a study database as input: only this stored profile (name or id; repeatable)")
        ("records", nx::po::bool_switch(&c.outputs.records), "with --db on a terminal: profile records, not one summary line per profile")
        ("progress", nx::po::bool_switch(&progress), "each input's progress (bytes, events, rate, time left) on stderr even when it is not a terminal")
        ("quiet,q", nx::po::bool_switch(&quiet), "no progress")
        ("keep-going,k", nx::po::bool_switch(&c.convert.keep_going), "skip bad records and inputs, count them, go on")
        ("keep-last-step", nx::po::bool_switch(&c.keep_last_step), "PyTorch traces: count the last profiler step's device work too (by default it is left out, as HTA leaves it: the trace ends before that work does)")
        ("threads", nx::po::value(&c.outputs.threads), "with --db or --dataset: 1 parses and writes on one thread, 2 writes on a second (default: 2 where this process may use 2 CPUs: its affinity, Slurm's SLURM_CPUS_ON_NODE and SLURM_CPUS_PER_TASK)");
    nx::po::variables_map vm;
    if (!nx::parse_command_line(argc, argv, kSpec, desc, vm, "input")) return std::nullopt;
    if (vm.count("input")) c.inputs = vm["input"].as<std::vector<std::string>>();
    if (c.inputs.empty()) c.inputs.push_back("-");
    if (!format_alias.empty()) c.convert.format = format_alias;
    o.list_formats = nx::requested_listing(vm) == "formats";
    const std::string& to = c.outputs.to;
    if (!to.empty() && !nx::find_sink_format(to))
        throw nx::UsageError("--to takes " + nx::sink_format_names() + " (got '" + to + "')");
    if (!to.empty() && nx::find_sink_format(to)->binary && c.outputs.output.empty() && nx::stdout_is_terminal())
        throw nx::UsageError("--to " + to + " writes binary data: give -o FILE or redirect standard output");
    if (const nx::FormatDef* f = nx::find_input_format(c.convert.format);
        !c.convert.format.empty() && (!f || f->kind == nx::FormatKind::refused))
        throw nx::UsageError("unknown --input-format '" + c.convert.format + "' (known: " + nx::input_format_names() + ")");
    const nx::ProfileInfo& base = c.convert.base;
    if (!base.target.empty() && !nx::find_target(base.target))
        throw nx::UsageError("unknown --target '" + base.target + "' (known: " + nx::target_names() + ")");
    if (!base.backend.empty() && !nx::find_backend(base.backend))
        throw nx::UsageError("unknown --backend '" + base.backend + "' (known: " + nx::backend_names() + ")");
    if (!base.dtype.empty() && !nx::parse_dtype(base.dtype))
        throw nx::UsageError("unknown --dtype '" + base.dtype + "' (known: " + std::string(nx::dtype_names()) + ")");
    if (!(c.convert.view.timeout_s > 0)) throw nx::UsageError("--view-timeout takes a number of seconds above 0");
    if (vm.count("threads") && c.outputs.threads < 1) throw nx::UsageError("--threads takes a number >= 1");
    if (vm.count("rank") && base.rank < 0) throw nx::UsageError("--rank takes a number >= 0");
    if (vm.count("tasks") && (c.tasks < 1 || c.task < 0 || c.task >= c.tasks))
        throw nx::UsageError("--task I --tasks N: 0 <= I < N");
    if ((!c.plan.empty() || c.task >= 0 || c.missing || c.repair) && vm.count("input"))
        throw nx::UsageError("--plan, --task, --missing and --repair read the capture tree or the plan, not input arguments");
    c.outputs.progress = progress ? 1 : quiet ? -1 : 0;
    nx::RecordPaths check_roots(c.convert.roots);  // a missing --root is a usage error now, not per record
    return o;
}

int run(const Options& o) {
    nx::Output& stdout_ = nx::Output::standard();
    if (o.list_formats) {
        for (const nx::FormatDef& f : nx::input_formats())
            if (f.kind != nx::FormatKind::refused)
                stdout_.write(std::string(f.name) + "\t" + std::string(f.description) + "\n");
        return nx::kExitOk;
    }
    return nx::run_convert_command(o.command, stdout_);
}

}  // namespace

int main(int argc, char** argv) { return nx::tool_main(kSpec, argc, argv, parse, run); }
