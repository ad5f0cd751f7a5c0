// nx-report: metrics, findings with actions, comparisons and regression gates
// from profile, run, bench or query records.  See nx-report(1).  Its modes
// are rows of a table in the library (common/report/report_modes.h).
#include <memory>
#include <optional>

#include "common/cli/cli.h"
#include "common/io/atomic_file.h"
#include "common/io/error.h"
#include "common/io/exit_status.h"
#include "common/io/output.h"
#include "common/report/report_formats.h"
#include "common/report/report_modes.h"

namespace {

constexpr nx::Listing kListings[] = {{"rules", "rules", "the finding rules"}};
constexpr nx::OptionRule kOptionRules[] = {
    {nx::OptionRule::one_of, nx::kReportModeOptions, nullptr},
    {nx::OptionRule::needs, "first-run-ok", "baseline"},
    {nx::OptionRule::needs, "base", "compare"},
};

const nx::ToolSpec kSpec = {
    "nx-report",
    "nx-report [FILE|DB|DATASET]... [--db DB] [--profile NAME|PATTERN]... [--compare [--base NAME]] [--ranks]\n"
    "          [--baseline FILE|DB [--fail-on EXPR]... [--first-run-ok]] [--study-diff FILE|DB [--fail-on EXPR]...]\n"
    "          [--all] [--each] [--top N] [--format text|markdown|html|csv|tsv|jsonl] [-o FILE]",
    "Reports on profile records (metrics, memory/compute-bound verdict, findings with actions, engines,\n"
    "DMA, top opcodes and layers; for a Chrome/PyTorch trace with its events, busy tracks, GPU kernels,\n"
    "self time and idle gaps), compares profiles side by side (N of them against a --base), checks\n"
    "records against a baseline or two run sets against each other (--study-diff) with --fail-on gates\n"
    "(exit 3 when one trips), tables the ranks of a multi-rank capture, and shows any other rows\n"
    "(nx-query output) as a table.",
    "  nx-convert profile.json --target trn1 | nx-report\n"
    "  nx-report --db study.db --profile vmap --all\n"
    "  nx-convert --to events trace.json.gz | nx-report           # a PyTorch profiler trace\n"
    "  nx-report --db study.db --compare --profile vmap --profile scan\n"
    "  nx-report --db study.db --compare --profile 'mm_*' --base mm_1024   # N profiles against one\n"
    "  nx-report --db today.db --baseline yesterday.db --fail-on 'total_time>5%'\n"
    "  nx-report trn2-runs.jsonl --study-diff trn1-runs.jsonl --fail-on 'latency_us.median>5%'\n"
    "  nx-query --db study.db engine_utilization | nx-report --format markdown\n"
    "  nx-report --db study.db --compare -o compare.html         # charts; opens offline\n"
    "  nx-convert --db ranks.db output/                          # one profile per rank\n"
    "  nx-report --db ranks.db --ranks\n"
    "  nx-report dataset/ --ranks                                # a dataset's profiles (nx-convert --dataset)\n"
    "  nx-report --list rules",
    kListings,
    kOptionRules,
};

struct Options {
    nx::ReportRequest request;
    std::string format, output;
    std::vector<std::string> settings, window_specs;
    bool rules = false;
};

std::optional<Options> parse(int argc, char** argv) {
    Options o;
    nx::ReportRequest& r = o.request;
    nx::po::options_description desc("Options");
    desc.add_options()
        ("db", nx::po::value(&r.dbs)->composing(), "read profiles from a study database (repeatable)")
        ("profile", nx::po::value(&r.profiles)->composing(), "only this profile (name, id, or a pattern like 'mm_*'; repeatable)")
        ("compare", nx::po::bool_switch(&r.compare), "show the profiles side by side with ratios and engine deltas")
        ("ranks", nx::po::bool_switch(&r.ranks), "the ranks of a multi-rank capture in one table: total time, skew, the straggler, collective time per rank; in HTML the verdict and the ranks worth reading first, then ranks x time, every rank on request")
        ("base", nx::po::value(&r.base), "with --compare: the profile the others are compared with (default the first); adds per-opcode and per-region deltas, as more than two profiles do")
        ("baseline", nx::po::value(&r.baseline), "compare with these records (JSONL file or study database)")
        ("fail-on", nx::po::value(&r.fail_on)->composing(), "gate, e.g. 'total_time>5%' or 'mfu_estimated_percent<-5%'; exit 3 if tripped (repeatable, or comma-separated)")
        ("study-diff", nx::po::value(&r.study_diff), "the run set before (JSONL or study database): match the runs given by workload and show which got slower, worst first; gates with --fail-on")
        ("first-run-ok", nx::po::bool_switch(&r.first_run_ok), "when the baseline has none of the records (a first night), pass and say so instead of exiting 1")
        ("set", nx::po::value(&o.settings)->composing(), "a rule's threshold for this run, RULE.threshold=V (repeatable; --list rules)")
        ("rules-file", nx::po::value(&r.rules_file), "thresholds from a file, one RULE.threshold=V a line ('#' comments)")
        ("window", nx::po::value(&o.window_specs)->composing(), "a region of your own, FROM:TO or NAME=FROM:TO (ns from the profile's start, or N%; repeatable; profiles from a database)")
        ("all", nx::po::bool_switch(&r.all), "every finding, metric, note and region")
        ("bounds", nx::po::bool_switch(&r.bounds), "records (jsonl, csv, tsv): each profile's and region's bounds instead of the findings")
        ("each", nx::po::bool_switch(&r.each), "a full report for each profile after the study summary (more than 3 profiles, or a study's runs, get the summary)")
        ("top", nx::po::value(&r.top), "findings in the short list (default 3)")
        ("format,f", nx::po::value(&o.format), "text, markdown, html, csv, tsv, jsonl (default: text on a terminal, else jsonl; or from -o's extension)")
        ("output,o", nx::po::value(&o.output), "write the report to FILE (atomically)")
        ("seq-dist", nx::po::value(&r.study.seq_dist), "sequence-length distribution (lines 'SEQ [COUNT]'): recommend buckets from an llm sweep")
        ("buckets", nx::po::value(&r.study.buckets), "how many sequence buckets to recommend (default 4)")
        ("keep-going,k", nx::po::bool_switch(&r.keep_going), "skip bad records, count them, go on");
    nx::po::variables_map vm;
    if (!nx::parse_command_line(argc, argv, kSpec, desc, vm, "input")) return std::nullopt;
    if (vm.count("input")) r.inputs = vm["input"].as<std::vector<std::string>>();
    o.rules = nx::requested_listing(vm) == "rules";
    if (!r.fail_on.empty() && r.baseline.empty() && r.study_diff.empty())
        throw nx::UsageError("--fail-on needs --baseline or --study-diff");
    if (r.top == 0) throw nx::UsageError("--top must be at least 1");
    if (r.study.buckets < 1 || r.study.buckets > 32) throw nx::UsageError("--buckets must be between 1 and 32");
    r.study.all = r.all;
    for (const std::string& spec : o.window_specs) {
        nx::WindowSpec w;
        if (auto err = nx::parse_window(spec, w)) throw nx::UsageError("--window: " + *err);
        r.windows.push_back(std::move(w));
    }
    for (const std::string& setting : o.settings)
        if (auto err = r.thresholds.set(setting)) throw nx::UsageError("--set: " + *err);
    return o;
}

int run(const Options& o) {
    nx::guard_report_inputs(o.request);
    std::unique_ptr<nx::AtomicFile> file;
    if (!o.output.empty()) file = std::make_unique<nx::AtomicFile>(o.output);
    nx::Output& out = file ? file->out() : nx::Output::standard();
    const nx::ReportFormat& format = nx::pick_report_format(o.format, o.output, out.is_terminal());
    int status = nx::kExitOk;
    if (o.rules) nx::write_rule_listing(o.request, out, format);
    else status = nx::run_report(o.request, out, format, !file && out.is_terminal());
    if (file) file->commit();
    return status;
}

}  // namespace

int main(int argc, char** argv) { return nx::tool_main(kSpec, argc, argv, parse, run); }
