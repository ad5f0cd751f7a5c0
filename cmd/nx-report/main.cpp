// nx-report: metrics, findings with actions, comparisons and regression gates
// from profile, run, bench or query records.  See nx-report(1).
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <memory>
#include <optional>

#include "common/cli/cli.h"
#include "common/io/diag.h"
#include "common/io/atomic_file.h"
#include "common/io/error.h"
#include "common/io/file_guard.h"
#include "common/io/output.h"
#include "common/profile/rules.h"
#include "common/records/jsonl.h"
#include "common/report/bounds_report.h"
#include "common/report/buckets.h"
#include "common/report/compare_n.h"
#include "common/report/compare_report.h"
#include "common/report/document.h"
#include "common/report/gates.h"
#include "common/report/profile_report.h"
#include "common/report/profiles_summary.h"
#include "common/report/provenance.h"
#include "common/report/ranks_report.h"
#include "common/report/report_input.h"
#include "common/report/report_formats.h"
#include "common/format/row_format.h"
#include "common/report/run_view.h"
#include "common/report/study_diff.h"
#include "common/report/study_report.h"
#include "common/report/trace_report.h"
#include "common/format/units.h"
#include "common/store/dependency_store.h"
#include "common/store/region_store.h"

namespace {

constexpr nx::Listing kListings[] = {{"rules", "rules", "the finding rules"}};
constexpr nx::OptionRule kOptionRules[] = {
    {nx::OptionRule::needs, "first-run-ok", "baseline"},
    {nx::OptionRule::conflicts, "compare", "baseline"},
    {nx::OptionRule::needs, "base", "compare"},
    {nx::OptionRule::conflicts, "study-diff", "baseline"},
    {nx::OptionRule::conflicts, "study-diff", "compare"},
    {nx::OptionRule::conflicts, "ranks", "compare"},
    {nx::OptionRule::conflicts, "ranks", "baseline"},
    {nx::OptionRule::conflicts, "ranks", "study-diff"},
};

const nx::ToolSpec kSpec = {
    "nx-report",
    "nx-report [FILE|DB]... [--db DB] [--profile NAME|PATTERN]... [--compare [--base NAME]] [--ranks]\n"
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
    "  nx-report --list rules",
    kListings,
    kOptionRules,
};

struct Options {
    std::vector<std::string> inputs, dbs, profiles, fail_on;
    std::string baseline, base, study_diff, format, output, rules_file;
    std::vector<std::string> settings, window_specs;
    std::vector<nx::WindowSpec> windows;
    nx::MatmulStudyOptions study;
    bool compare = false, ranks = false, all = false, bounds = false, each = false, rules = false, keep_going = false, first_run_ok = false;
    nx::RuleThresholds thresholds;
    size_t top = 3;
};

std::optional<Options> parse(int argc, char** argv) {
    Options o;
    nx::po::options_description desc("Options");
    desc.add_options()
        ("db", nx::po::value(&o.dbs)->composing(), "read profiles from a study database (repeatable)")
        ("profile", nx::po::value(&o.profiles)->composing(), "only this profile (name, id, or a pattern like 'mm_*'; repeatable)")
        ("compare", nx::po::bool_switch(&o.compare), "show the profiles side by side with ratios and engine deltas")
        ("ranks", nx::po::bool_switch(&o.ranks), "the ranks of a multi-rank capture in one table: total time, skew, the straggler, collective time per rank")
        ("base", nx::po::value(&o.base), "with --compare: the profile the others are compared with (default the first); adds per-opcode and per-region deltas, as more than two profiles do")
        ("baseline", nx::po::value(&o.baseline), "compare with these records (JSONL file or study database)")
        ("fail-on", nx::po::value(&o.fail_on)->composing(), "gate, e.g. 'total_time>5%' or 'mfu_estimated_percent<-5%'; exit 3 if tripped (repeatable, or comma-separated)")
        ("study-diff", nx::po::value(&o.study_diff), "the run set before (JSONL or study database): match the runs given by workload and show which got slower, worst first; gates with --fail-on")
        ("first-run-ok", nx::po::bool_switch(&o.first_run_ok), "when the baseline has none of the records (a first night), pass and say so instead of exiting 1")
        ("set", nx::po::value(&o.settings)->composing(), "a rule's threshold for this run, RULE.threshold=V (repeatable; --list rules)")
        ("rules-file", nx::po::value(&o.rules_file), "thresholds from a file, one RULE.threshold=V a line ('#' comments)")
        ("window", nx::po::value(&o.window_specs)->composing(), "a region of your own, FROM:TO or NAME=FROM:TO (ns from the profile's start, or N%; repeatable; profiles from a database)")
        ("all", nx::po::bool_switch(&o.all), "every finding, metric, note and region")
        ("bounds", nx::po::bool_switch(&o.bounds), "records (jsonl, csv, tsv): each profile's and region's bounds instead of the findings")
        ("each", nx::po::bool_switch(&o.each), "a full report for each profile after the study summary (more than 3 profiles, or a study's runs, get the summary)")
        ("top", nx::po::value(&o.top), "findings in the short list (default 3)")
        ("format,f", nx::po::value(&o.format), "text, markdown, html, csv, tsv, jsonl (default: text on a terminal, else jsonl; or from -o's extension)")
        ("output,o", nx::po::value(&o.output), "write the report to FILE (atomically)")
        ("seq-dist", nx::po::value(&o.study.seq_dist), "sequence-length distribution (lines 'SEQ [COUNT]'): recommend buckets from an llm sweep")
        ("buckets", nx::po::value(&o.study.buckets), "how many sequence buckets to recommend (default 4)")
        ("keep-going,k", nx::po::bool_switch(&o.keep_going), "skip bad records, count them, go on");
    nx::po::variables_map vm;
    if (!nx::parse_command_line(argc, argv, kSpec, desc, vm, "input")) return std::nullopt;
    if (vm.count("input")) o.inputs = vm["input"].as<std::vector<std::string>>();
    o.rules = nx::requested_listing(vm) == "rules";
    if (!o.fail_on.empty() && o.baseline.empty() && o.study_diff.empty())
        throw nx::UsageError("--fail-on needs --baseline or --study-diff");
    if (o.top == 0) throw nx::UsageError("--top must be at least 1");
    if (o.study.buckets < 1 || o.study.buckets > 32) throw nx::UsageError("--buckets must be between 1 and 32");
    o.study.all = o.all;
    for (const std::string& spec : o.window_specs) {
        nx::WindowSpec w;
        if (auto err = nx::parse_window(spec, w)) throw nx::UsageError("--window: " + *err);
        o.windows.push_back(std::move(w));
    }
    for (const std::string& setting : o.settings)
        if (auto err = o.thresholds.set(setting)) throw nx::UsageError("--set: " + *err);
    return o;
}

// The regions of the profiles a database just gave (into.profiles from
// `first` on): their events are there to scan.  Trace profiles have none.
void attach_regions(nx::Store& store, nx::ReportInput& into, size_t first, const Options& o,
                    const nx::RuleThresholds* thresholds) {
    if (!thresholds) return;
    for (size_t i = first; i < into.profiles.size(); ++i) {
        nx::ProfileEntry& p = into.profiles[i];
        if (nx::is_trace_profile(p.info, p.summary)) continue;
        if (!o.profiles.empty() && std::none_of(o.profiles.begin(), o.profiles.end(), [&](const std::string& n) {
                return nx::profile_named(p.info.name, p.info.id, n);
            }))
            continue;  // select_profiles drops it anyway
        p.regions = std::make_shared<std::vector<nx::RegionResult>>(
            nx::store_regions(store, p.info.id, o.windows, thresholds, &p.region_notes));
        p.dependencies = std::make_shared<nx::DependencyGraph>(nx::store_dependencies(store, p.info.id));
    }
}

void load_source(const std::string& path, nx::ReportInput& into, const Options& o, bool runs_too,
                 const nx::RuleThresholds* regions = nullptr) {
    if (path != "-" && nx::is_sqlite_file(path)) {
        nx::Store store(path, nx::Store::Access::read_only);
        size_t first = into.profiles.size();
        nx::read_db_profiles(store, o.profiles, into);
        attach_regions(store, into, first, o, regions);
        if (runs_too) nx::read_db_runs(store, into);
        return;
    }
    auto in = nx::InputSource::open(path);
    nx::read_report_records(*in, into, o.keep_going);
}

// Other rows (nx-query output, findings, workloads ...): one table, columns
// in the order first seen.
void add_rows(nx::Document& doc, const std::vector<rapidjson::Document>& rows) {
    nx::TableBlock t;
    for (const auto& r : rows)
        for (auto& m : r.GetObject()) {
            std::string k = m.name.GetString();
            if (std::find(t.columns.begin(), t.columns.end(), k) == t.columns.end()) {
                t.columns.push_back(k);
                t.numeric.push_back(true);
            }
        }
    for (const auto& r : rows) {
        std::vector<std::string> row;
        for (size_t i = 0; i < t.columns.size(); ++i) {
            auto it = r.FindMember(t.columns[i].c_str());
            if (it == r.MemberEnd() || it->value.IsNull()) {
                row.emplace_back();
            } else if (it->value.IsNumber()) {
                row.push_back(nx::human_number(it->value.GetDouble()));
            } else {
                t.numeric[i] = false;
                row.push_back(it->value.IsString() ? it->value.GetString() : nx::to_json(it->value));
            }
        }
        t.rows.push_back(row);
    }
    doc.table(t);
}

// jsonl passes the records through as they are (a sim run record says
// "backend":"sim" and carries its "predicted" figures); the other formats
// end each row with the provenance column when a figure is a prediction.
void write_rows(const std::vector<rapidjson::Document>& rows, nx::RowFormat format, nx::Output& out,
                const nx::Provenance& provenance) {
    if (format == nx::RowFormat::jsonl) {
        for (const auto& r : rows) {
            out.write(nx::to_json(r));
            out.put('\n');
        }
        return;
    }
    std::vector<std::string> cols;
    for (const auto& r : rows)
        for (auto& m : r.GetObject())
            if (std::find(cols.begin(), cols.end(), m.name.GetString()) == cols.end()) cols.emplace_back(m.name.GetString());
    nx::RowWriter w(format, out);
    provenance.label_rows(w);
    w.columns(cols);
    for (const auto& r : rows) {
        std::vector<nx::Cell> cells;
        for (const std::string& c : cols) {
            auto it = r.FindMember(c.c_str());
            if (it == r.MemberEnd() || it->value.IsNull()) cells.emplace_back();
            else if (it->value.IsInt64()) cells.push_back(nx::Cell::of_int(it->value.GetInt64()));
            else if (it->value.IsNumber()) cells.push_back(nx::Cell::of_real(it->value.GetDouble()));
            else if (it->value.IsString()) cells.push_back(nx::Cell::of_text(it->value.GetString()));
            else cells.push_back(nx::Cell::of_text(nx::to_json(it->value)));
        }
        w.row(cells);
    }
    w.finish();
}

int run(const Options& o) {
    std::unique_ptr<nx::AtomicFile> file;
    for (const std::string& db : o.dbs) nx::guard_database(db);
    for (const std::string& path : o.inputs) nx::guard_input_path(path);
    for (const std::string& path : {o.baseline, o.study_diff, o.study.seq_dist})
        if (!path.empty()) nx::guard_input_path(path);
    if (!o.output.empty()) file = std::make_unique<nx::AtomicFile>(o.output);
    nx::Output& out = file ? file->out() : nx::Output::standard();
    const nx::ReportFormat& format = nx::pick_report_format(o.format, o.output, out.is_terminal());
    bool terminal = !file && out.is_terminal();

    // The rules file first: a --set on the command line wins over it.
    nx::RuleThresholds thresholds;
    if (!o.rules_file.empty()) {
        nx::guard_input_path(o.rules_file);
        if (auto err = thresholds.read_file(o.rules_file)) throw nx::Error(*err);
    }
    for (const auto& [rule, value] : o.thresholds.values) thresholds.values[rule] = value;

    if (o.rules) {
        nx::RowWriter w(format.rows, out);
        w.columns({"rule", "severity", "condition", "action", "from", "threshold"});
        for (const nx::RuleInfo& r : nx::rule_table()) {
            auto t = thresholds.values.find(r.id);
            nx::Cell threshold = t != thresholds.values.end() ? nx::Cell::of_real(t->second)
                                 : std::isnan(r.threshold)        ? nx::Cell()
                                                                  : nx::Cell::of_real(r.threshold);
            w.row({nx::Cell::of_text(r.id), nx::Cell::of_text(r.severity), nx::Cell::of_text(r.condition),
                   nx::Cell::of_text(r.action), nx::Cell::of_text(r.origin), threshold});
        }
        w.finish();
        if (file) file->commit();
        return nx::kExitOk;
    }

    // Regions (and their event scan) for profile reports, findings and
    // comparisons (their region deltas).
    bool runs_too = !o.baseline.empty() || !o.study_diff.empty();
    const nx::RuleThresholds* regions = runs_too || o.ranks ? nullptr : &thresholds;
    nx::ReportInput input;
    for (const std::string& db : o.dbs) {
        nx::Store store(db, nx::Store::Access::read_only);
        size_t first = input.profiles.size();
        nx::read_db_profiles(store, o.profiles, input);
        attach_regions(store, input, first, o, regions);
        if (!o.study_diff.empty()) nx::read_db_runs(store, input);
    }
    std::vector<std::string> inputs = o.inputs;
    if (inputs.empty() && o.dbs.empty()) inputs.push_back("-");
    for (const std::string& path : inputs) load_source(path, input, o, runs_too, regions);
    // --profile means the same whatever the profiles came from.
    std::vector<std::string> sources = o.dbs;
    sources.insert(sources.end(), inputs.begin(), inputs.end());
    nx::select_profiles(input, o.profiles, sources.size() == 1 ? sources.front() : std::string());
    // --window needs the events, which only a study database has.
    if (!o.windows.empty() &&
        std::any_of(input.profiles.begin(), input.profiles.end(), [](const nx::ProfileEntry& p) { return !p.stored; }))
        nx::print_warning("--window applies to profiles read from a study database (--db): profile records carry no "
                          "events to cut");

    nx::Document doc;
    int status = nx::kExitOk;
    // Every figure from the sim backend is labelled a prediction, the
    // baseline's included.
    nx::Provenance provenance;
    provenance.add(input);
    bool records = format.records;
    // Read once, whatever the format: record formats render no study
    // sections, but a bad distribution file must not pass unnoticed.
    nx::MatmulStudyOptions study = o.study;
    if (!study.seq_dist.empty()) study.seq_counts = nx::read_seq_distribution(study.seq_dist);

    if (!o.baseline.empty()) {
        nx::ReportInput base;
        // The first night of a history: the database is written after this
        // check, so with --first-run-ok it need not exist yet.
        bool no_history = o.first_run_ok && access(o.baseline.c_str(), F_OK) != 0 && errno == ENOENT;
        if (!no_history) load_source(o.baseline, base, o, true);
        provenance.add(base);
        std::vector<nx::Gate> gates = nx::parse_gates(o.fail_on);
        nx::BaselineMatch match;
        std::vector<nx::GateCheck> checks = nx::check_baseline(input, base, gates, match);
        bool first_run = o.first_run_ok && match.matched == 0 && match.records > 0;
        for (const nx::GateCheck& c : checks) {
            if (!c.tripped) continue;
            status = nx::kExitGate;
            // Where the record ran, as the compare and study-diff lines say it:
            // a nightly history holds the same name for several targets.
            std::string where = c.target + (c.target.empty() || c.backend.empty() ? "" : " ") + c.backend;
            nx::print_error("gate tripped: " + c.gate + " for " + c.record + " (" + (where.empty() ? "" : where + ": ") +
                            nx::format_value(c.baseline) + " -> " + nx::format_value(c.current) + ")");
        }
        if (first_run) {
            // The first night of a history: nothing to compare with yet.
            std::string why = no_history ? o.baseline + " does not exist yet"
                                         : "the baseline has none of these records (" + std::to_string(match.records) + ")";
            nx::print_note("first run: " + why +
                           ", so nothing was checked; appended to the history, they are the baseline of the next run");
        } else if ((checks.empty() && !gates.empty()) || (match.records > 0 && match.matched == 0)) {
            // A gate that checked nothing must not pass silently in cron, nor
            // a comparison with nothing comparable look like one.
            std::string why;
            for (size_t i = 0; i < match.elsewhere.size() && i < 5; ++i) why += (i ? ", " : "") + match.elsewhere[i];
            if (match.elsewhere.size() > 5) why += ", ...";
            nx::print_error("no record matched the baseline: nothing was checked" +
                            (why.empty() ? std::string()
                                         : "; it has them for another backend or target, not comparable: " + why));
            status = nx::kExitFailure;
        }
        if (records) {
            nx::RowWriter w(format.rows, out);
            provenance.label_rows(w);
            nx::write_baseline_checks(checks, w);
        } else {
            nx::add_baseline_report(doc, checks, match);
            if (first_run)
                doc.paragraph("First run: the baseline has none of these records. Nothing was checked; once appended "
                              "to the history they are the baseline the next run is checked against.");
        }
    } else if (!o.study_diff.empty()) {
        nx::ReportInput before;
        load_source(o.study_diff, before, o, true);
        provenance.add(before);
        std::vector<nx::Gate> gates = nx::parse_gates(o.fail_on);
        nx::check_gate_metrics(gates, input, before);
        nx::StudyDiff diff = nx::diff_studies(before.runs, input.runs, gates);
        for (const nx::StudyDiffRow& r : diff.rows)
            for (const nx::GateCheck& c : r.checks) {
                if (!c.tripped) continue;
                status = nx::kExitGate;
                nx::print_error("gate tripped: " + c.gate + " for " + c.record + " (" +
                                nx::run_side_label(r.before, "") + " -> " + nx::run_side_label(r.after, "") + ": " +
                                nx::format_value(c.baseline) + " -> " + nx::format_value(c.current) + ")");
            }
        if (diff.rows.empty()) {
            // Nothing compared must not read as nothing slower.
            nx::print_error("no workload matched: the run sets have none in common (" +
                            std::to_string(before.runs.size()) + " runs before, " + std::to_string(input.runs.size()) +
                            " after)");
            status = nx::kExitFailure;
        }
        std::string after_name;
        for (const std::string& s : sources) after_name += (after_name.empty() ? "" : ", ") + s;
        if (records) {
            nx::RowWriter w(format.rows, out);
            provenance.label_rows(w);
            nx::write_study_diff(diff, w);
        } else {
            nx::add_study_diff(doc, diff, o.study_diff, after_name);
        }
    } else if (o.ranks) {
        // Collective operations are events: only databases have them.
        std::map<std::string, nx::CollectiveTime> collectives;
        for (const std::string& db : sources)
            if (db != "-" && nx::is_sqlite_file(db)) {
                nx::Store store(db, nx::Store::Access::read_only);
                collectives.merge(nx::store_collective_times(store));
            }
        std::vector<std::string> skipped;
        std::vector<nx::RankCapture> captures = nx::group_ranks(input.profiles, skipped);
        if (captures.empty())
            throw nx::Error("--ranks: no profile carries a rank (" + std::to_string(input.profiles.size()) +
                            " profiles; a multi-rank capture's profiles do)");
        if (!skipped.empty())
            nx::print_note("--ranks: left out " + std::to_string(skipped.size()) + " profile" +
                           (skipped.size() == 1 ? "" : "s") + " without a rank, the first: " + skipped.front());
        if (records) {
            nx::RowWriter w(format.rows, out);
            provenance.label_rows(w);
            nx::write_rank_rows(captures, collectives, w);
        } else {
            nx::add_rank_report(doc, captures, collectives);
        }
    } else if (o.compare) {
        if (input.profiles.size() < 2)
            throw nx::Error("--compare needs at least two profiles (got " + std::to_string(input.profiles.size()) + ")");
        std::vector<const nx::ProfileEntry*> ps = nx::order_by_base(input.profiles, o.base);
        // Two profiles without --base keep the short form of earlier releases.
        bool deltas = !o.base.empty() || ps.size() > 2;
        nx::CompareDeltaOptions co;
        co.all = o.all;
        if (records) {
            nx::RowWriter w(format.rows, out);
            provenance.label_rows(w);
            nx::write_comparison(ps, o.all, w);
            if (deltas) nx::write_compare_deltas(ps, co, w);
        } else {
            nx::add_comparison(doc, ps, o.all);
            if (deltas) nx::add_compare_deltas(doc, ps, co);
        }
    } else {
        nx::ReportOptions ro;
        ro.all = o.all;
        ro.top = o.top;
        ro.thresholds = thresholds;
        if (records) {
            if (!input.profiles.empty()) {
                nx::RowWriter w(format.rows, out);
                provenance.label_rows(w);
                if (o.bounds) nx::write_bound_records(input.profiles, w);
                else nx::write_findings(input.profiles, w, ro);
                nx::write_trace_records(input.profiles, ro, w);
            }
            if (!input.runs.empty()) {
                std::vector<nx::RunView> runs = nx::view_runs(input.runs);
                bool matmul = std::all_of(runs.begin(), runs.end(), [](const nx::RunView& r) { return r.op == "matmul"; });
                if (matmul && format.rows != nx::RowFormat::jsonl) {
                    // The matmul study's CSV: the seed profiler's columns first.
                    nx::RowWriter w(format.rows, out);
                    provenance.label_rows(w);
                    nx::write_matmul_csv(runs, w);
                } else {
                    write_rows(input.runs, format.rows, out, provenance);
                }
            }
            if (!input.benches.empty()) write_rows(input.benches, format.rows, out, nx::Provenance());
            if (!input.rows.empty()) write_rows(input.rows, format.rows, out, nx::Provenance());
        } else {
            if (!input.runs.empty()) {
                // A study: its answers first, the profiles behind it after.
                nx::add_study_report(doc, input.runs, input.profiles, study);
                if (o.all || o.each) nx::add_each_profile_report(doc, input.profiles, ro);
            } else if (nx::wants_profiles_summary(input.profiles, o.profiles)) {
                // Many profiles: the study summary (with the answers of the
                // runs they carry), a report each only on request.
                std::vector<rapidjson::Document> runs = nx::runs_of_profiles(input.profiles);
                if (!runs.empty()) nx::add_study_report(doc, runs, input.profiles, study);
                nx::add_profiles_summary(doc, input.profiles, ro);
                if (o.all || o.each) nx::add_each_profile_report(doc, input.profiles, ro);
            } else {
                for (const nx::ProfileEntry& p : input.profiles) nx::add_profile_report(doc, p, ro);
            }
            if (!input.benches.empty()) {
                doc.heading("Benchmarks");
                add_rows(doc, input.benches);
            }
            if (!input.rows.empty()) add_rows(doc, input.rows);
            if (doc.blocks.empty()) doc.paragraph("no records to report");
        }
    }
    provenance.label_document(doc);
    if (format.render) format.render(doc, out, terminal);
    if (file) file->commit();
    return status;
}

}  // namespace

int main(int argc, char** argv) { return nx::tool_main(kSpec, argc, argv, parse, run); }
