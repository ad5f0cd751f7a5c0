#include "common/report/report_modes.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "common/dataset/dataset_layout.h"
#include "common/dataset/dataset_plan.h"
#include "common/format/units.h"
#include "common/import/runtime_path.h"
#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/exit_status.h"
#include "common/io/file_guard.h"
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
#include "common/report/run_view.h"
#include "common/report/study_diff.h"
#include "common/report/study_report.h"
#include "common/report/trace_report.h"
#include "common/store/dependency_store.h"

namespace nx {

namespace {

// ---- loading

// The regions of the profiles a database just gave (into.profiles from
// `first` on): their events are there to scan.  Trace profiles have none.
void attach_regions(Store& store, ReportInput& into, size_t first, const ReportRequest& r,
                    const RuleThresholds* thresholds) {
    if (!thresholds) return;
    for (size_t i = first; i < into.profiles.size(); ++i) {
        ProfileEntry& p = into.profiles[i];
        if (is_trace_profile(p.info, p.summary)) continue;
        if (!r.profiles.empty() && std::none_of(r.profiles.begin(), r.profiles.end(), [&](const std::string& n) {
                return profile_named(p.info.name, p.info.id, n);
            }))
            continue;  // select_profiles drops it anyway
        p.regions = std::make_shared<std::vector<RegionResult>>(
            store_regions(store, p.info.id, r.windows, thresholds, &p.region_notes));
        p.dependencies = std::make_shared<DependencyGraph>(store_dependencies(store, p.info.id));
    }
}

void load_source(const std::string& path, ReportInput& into, const ReportRequest& r, bool runs_too,
                 const RuleThresholds* regions = nullptr) {
    if (path != "-" && dataset::is_dataset(path)) {
        read_dataset_profiles(path, r.profiles, into);
        return;
    }
    if (path != "-" && is_sqlite_file(path)) {
        Store store(path, Store::Access::read_only);
        size_t first = into.profiles.size();
        read_db_profiles(store, r.profiles, into);
        attach_regions(store, into, first, r, regions);
        if (runs_too) read_db_runs(store, into);
        return;
    }
    auto in = InputSource::open(path);
    read_report_records(*in, into, r.keep_going);
}

// ---- rows that are neither profiles nor runs

// Other rows (nx-query output, findings, workloads ...): one table, columns
// in the order first seen.
void add_rows(Document& doc, const std::vector<rapidjson::Document>& rows) {
    TableBlock t;
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
                row.push_back(human_number(it->value.GetDouble()));
            } else {
                t.numeric[i] = false;
                row.push_back(it->value.IsString() ? it->value.GetString() : to_json(it->value));
            }
        }
        t.rows.push_back(row);
    }
    doc.table(t);
}

// jsonl passes the records through as they are (a sim run record says
// "backend":"sim" and carries its "predicted" figures); the other formats
// end each row with the provenance column when a figure is a prediction.
void write_rows(const std::vector<rapidjson::Document>& rows, RowFormat format, Output& out, const Provenance& provenance) {
    if (format == RowFormat::jsonl) {
        for (const auto& r : rows) {
            out.write(to_json(r));
            out.put('\n');
        }
        return;
    }
    std::vector<std::string> cols;
    for (const auto& r : rows)
        for (auto& m : r.GetObject())
            if (std::find(cols.begin(), cols.end(), m.name.GetString()) == cols.end()) cols.emplace_back(m.name.GetString());
    RowWriter w(format, out);
    provenance.label_rows(w);
    w.columns(cols);
    for (const auto& r : rows) {
        std::vector<Cell> cells;
        for (const std::string& c : cols) {
            auto it = r.FindMember(c.c_str());
            if (it == r.MemberEnd() || it->value.IsNull()) cells.emplace_back();
            else if (it->value.IsInt64()) cells.push_back(Cell::of_int(it->value.GetInt64()));
            else if (it->value.IsNumber()) cells.push_back(Cell::of_real(it->value.GetDouble()));
            else if (it->value.IsString()) cells.push_back(Cell::of_text(it->value.GetString()));
            else cells.push_back(Cell::of_text(to_json(it->value)));
        }
        w.row(cells);
    }
    w.finish();
}

// ---- what every mode shares

struct ModeContext {
    const ReportRequest& req;
    const ReportFormat& format;
    Output& out;
    ReportInput& input;
    Provenance& provenance;
    Document& doc;
    RuleThresholds thresholds;         // the rules file, then --set
    MatmulStudyOptions study;          // with the sequence distribution read
    std::vector<std::string> sources;  // the databases and inputs, for messages
    int status = kExitOk;

    // A mode's output: records through one RowWriter, labelled with where
    // the figures come from, or blocks of the document.
    template <class Write, class Add>
    void emit(Write write, Add add) {
        if (format.records) {
            RowWriter w(format.rows, out);
            provenance.label_rows(w);
            write(w);
        } else {
            add(doc);
        }
    }

    // A gate that tripped: said on stderr, exit 3.  `where`: where the two
    // sides ran ("trn2 sim: " or "trn1 neuron -> trn2 neuron: ").
    void tripped(const GateCheck& c, const std::string& where) {
        status = kExitGate;
        print_error("gate tripped: " + c.gate + " for " + c.record + " (" + where + format_value(c.baseline) + " -> " +
                    format_value(c.current) + ")");
    }
};

// ---- the modes

void baseline_mode(ModeContext& c) {
    const ReportRequest& r = c.req;
    ReportInput base;
    // The first night of a history: the database is written after this
    // check, so with --first-run-ok it need not exist yet.
    bool no_history = r.first_run_ok && access(r.baseline.c_str(), F_OK) != 0 && errno == ENOENT;
    if (!no_history) load_source(r.baseline, base, r, true);
    c.provenance.add(base);
    std::vector<Gate> gates = parse_gates(r.fail_on);
    BaselineMatch match;
    std::vector<GateCheck> checks = check_baseline(c.input, base, gates, match);
    bool first_run = r.first_run_ok && match.matched == 0 && match.records > 0;
    for (const GateCheck& g : checks) {
        if (!g.tripped) continue;
        // Where the record ran, as the compare and study-diff lines say it:
        // a nightly history holds the same name for several targets.
        std::string where = g.target + (g.target.empty() || g.backend.empty() ? "" : " ") + g.backend;
        c.tripped(g, where.empty() ? "" : where + ": ");
    }
    if (first_run) {
        // The first night of a history: nothing to compare with yet.
        std::string why = no_history ? r.baseline + " does not exist yet"
                                     : "the baseline has none of these records (" + std::to_string(match.records) + ")";
        print_note("first run: " + why + ", so nothing was checked; appended to the history, they are the baseline of the "
                   "next run");
    } else if ((checks.empty() && !gates.empty()) || (match.records > 0 && match.matched == 0)) {
        // A gate that checked nothing must not pass silently in cron, nor
        // a comparison with nothing comparable look like one.
        std::string why;
        for (size_t i = 0; i < match.elsewhere.size() && i < 5; ++i) why += (i ? ", " : "") + match.elsewhere[i];
        if (match.elsewhere.size() > 5) why += ", ...";
        print_error("no record matched the baseline: nothing was checked" +
                    (why.empty() ? std::string() : "; it has them for another backend or target, not comparable: " + why));
        c.status = kExitFailure;
    }
    c.emit([&](RowWriter& w) { write_baseline_checks(checks, w); },
           [&](Document& doc) {
               add_baseline_report(doc, checks, match);
               if (first_run)
                   doc.paragraph("First run: the baseline has none of these records. Nothing was checked; once appended "
                                 "to the history they are the baseline the next run is checked against.");
           });
}

void study_diff_mode(ModeContext& c) {
    const ReportRequest& r = c.req;
    ReportInput before;
    load_source(r.study_diff, before, r, true);
    c.provenance.add(before);
    std::vector<Gate> gates = parse_gates(r.fail_on);
    check_gate_metrics(gates, c.input, before);
    StudyDiff diff = diff_studies(before.runs, c.input.runs, gates);
    for (const StudyDiffRow& row : diff.rows)
        for (const GateCheck& g : row.checks)
            if (g.tripped) c.tripped(g, run_side_label(row.before, "") + " -> " + run_side_label(row.after, "") + ": ");
    if (diff.rows.empty()) {
        // Nothing compared must not read as nothing slower.
        print_error("no workload matched: the run sets have none in common (" + std::to_string(before.runs.size()) +
                    " runs before, " + std::to_string(c.input.runs.size()) + " after)");
        c.status = kExitFailure;
    }
    std::string after_name;
    for (const std::string& s : c.sources) after_name += (after_name.empty() ? "" : ", ") + s;
    c.emit([&](RowWriter& w) { write_study_diff(diff, w); },
           [&](Document& doc) { add_study_diff(doc, diff, r.study_diff, after_name); });
}

void ranks_mode(ModeContext& c) {
    // The reduce of a fan-out: a dataset with a plan must hold every planned
    // profile; what it lacks is named, with the command that converts only
    // that, on stderr and at the head of the report, whose ranks it leaves out.
    std::vector<FindingItem> incomplete;
    std::vector<UnconvertedRank> unconverted;
    for (const std::string& source : c.sources) {
        // A session's executions: the iterations across ranks, and the
        // page's executions x ranks.
        if (source != "-" && is_sqlite_file(source)) {
            Store store(source, Store::Access::read_only);
            read_db_executions(store, c.input);
        }
        if (source == "-" || !dataset::is_dataset(source)) continue;
        read_dataset_executions(source, c.input);
        std::vector<std::string> unplanned = dataset::unplanned_profiles(source);
        if (!unplanned.empty())
            print_warning(std::to_string(unplanned.size()) + " profile" + (unplanned.size() == 1 ? " is" : "s are") +
                              " in the dataset but in no entry of its plan (converted by hand, or left by an earlier "
                              "plan), the first: " + unplanned.front() + ": compared with the planned ones",
                          source);
        std::vector<dataset::Missing> missing = dataset::missing_entries(source);
        if (missing.empty()) continue;
        std::set<int> ranks;
        for (const dataset::Missing& m : missing) {
            ranks.insert(m.plan.rank);
            unconverted.push_back(
                {m.plan.rank, capture_directory(m.plan.input), runtime_path_of_source(m.plan.input).neff_hash});
        }
        std::string list;
        for (int r : ranks) {
            if (list.size() > 200) {
                list += ", ...";
                break;
            }
            list += (list.empty() ? "" : ", ") + std::to_string(r);
        }
        std::string lacks = "the dataset lacks " + std::to_string(missing.size()) + " of its planned profiles (ranks " +
                            list + "; the first: " + missing.front().plan.input + ")";
        std::string command = "nx-convert --dataset " + source + " --missing";
        print_error(lacks + "; convert only those with: " + command, source);
        incomplete.push_back({"critical", "incomplete",
                              source + ": " + lacks + ": the figures below leave them out", "convert only those: " + command});
        c.status = kExitFailure;
    }
    RankGrouping grouping = group_ranks(c.input.profiles);
    if (grouping.captures.empty())
        throw Error("--ranks: no profile carries a rank (" + std::to_string(c.input.profiles.size()) +
                    " profiles; a multi-rank capture's profiles do)");
    const std::vector<std::string>& skipped = grouping.without_rank;
    if (!skipped.empty())
        print_note("--ranks: left out " + std::to_string(skipped.size()) + " profile" + (skipped.size() == 1 ? "" : "s") +
                   " without a rank, the first: " + skipped.front());
    // The same rank of one graph twice (the same profile read from two
    // sources, or two files the layout maps to one worker): one is compared.
    if (!grouping.duplicates.empty())
        print_note("--ranks: " + std::to_string(grouping.duplicates.size()) + " profile" +
                   (grouping.duplicates.size() == 1 ? " repeats a rank" : "s repeat a rank") +
                   " of its graph and capture, the first: " + grouping.duplicates.front());
    std::vector<RankAnalysis> analyses;
    for (const RankCapture& rc : grouping.captures) analyses.push_back(analyse_ranks(rc));
    c.emit([&](RowWriter& w) { write_rank_rows(analyses, w); },
           [&](Document& doc) {
               if (!incomplete.empty()) doc.findings(incomplete);
               add_rank_report(doc, analyses, unconverted);
           });
}

void compare_mode(ModeContext& c) {
    const ReportRequest& r = c.req;
    if (c.input.profiles.size() < 2)
        throw Error("--compare needs at least two profiles (got " + std::to_string(c.input.profiles.size()) + ")");
    std::vector<const ProfileEntry*> ps = order_by_base(c.input.profiles, r.base);
    // Two profiles without --base keep the short form of earlier releases.
    bool deltas = !r.base.empty() || ps.size() > 2;
    CompareDeltaOptions co;
    co.all = r.all;
    c.emit(
        [&](RowWriter& w) {
            write_comparison(ps, r.all, w);
            if (deltas) write_compare_deltas(ps, co, w);
        },
        [&](Document& doc) {
            add_comparison(doc, ps, r.all);
            if (deltas) add_compare_deltas(doc, ps, co);
        });
}

// No mode option: whatever the records are.  Profiles get their reports
// (the study summary when there are many), runs their study, benches and
// other rows a table.
void default_mode(ModeContext& c) {
    const ReportRequest& r = c.req;
    ReportInput& input = c.input;
    ReportOptions ro;
    ro.all = r.all;
    ro.top = r.top;
    ro.thresholds = c.thresholds;
    if (c.format.records) {
        if (!input.profiles.empty())
            c.emit(
                [&](RowWriter& w) {
                    if (r.bounds) write_bound_records(input.profiles, w);
                    else write_findings(input.profiles, w, ro);
                    write_trace_records(input.profiles, ro, w);
                },
                [](Document&) {});
        if (!input.runs.empty()) {
            std::vector<RunView> runs = view_runs(input.runs);
            bool matmul = std::all_of(runs.begin(), runs.end(), [](const RunView& v) { return v.op == "matmul"; });
            // The matmul study's CSV: the seed profiler's columns first.
            if (matmul && c.format.rows != RowFormat::jsonl) c.emit([&](RowWriter& w) { write_matmul_csv(runs, w); }, [](Document&) {});
            else write_rows(input.runs, c.format.rows, c.out, c.provenance);
        }
        if (!input.benches.empty()) write_rows(input.benches, c.format.rows, c.out, Provenance());
        if (!input.rows.empty()) write_rows(input.rows, c.format.rows, c.out, Provenance());
        return;
    }
    Document& doc = c.doc;
    const MatmulStudyOptions& study = c.study;
    if (!input.runs.empty()) {
        // A study: its answers first, the profiles behind it after.
        add_study_report(doc, input.runs, input.profiles, study);
        if (r.all || r.each) add_each_profile_report(doc, input.profiles, ro);
    } else if (wants_profiles_summary(input.profiles, r.profiles)) {
        // Many profiles: the study summary (with the answers of the runs
        // they carry), a report each only on request.
        std::vector<rapidjson::Document> runs = runs_of_profiles(input.profiles);
        if (!runs.empty()) add_study_report(doc, runs, input.profiles, study);
        add_profiles_summary(doc, input.profiles, ro);
        if (r.all || r.each) add_each_profile_report(doc, input.profiles, ro);
    } else {
        for (const ProfileEntry& p : input.profiles) add_profile_report(doc, p, ro);
    }
    if (!input.benches.empty()) {
        doc.heading("Benchmarks");
        add_rows(doc, input.benches);
    }
    if (!input.rows.empty()) add_rows(doc, input.rows);
    if (doc.blocks.empty()) doc.paragraph("no records to report");
}

// The modes, the first selected wins (at most one is: kReportModeOptions).
struct Mode {
    const char* option;                           // nullptr: the default
    bool (*selected)(const ReportRequest&);
    bool runs;                                    // loads run records of databases (its gates compare runs)
    bool regions;                                 // profiles from databases get their regions
    void (*report)(ModeContext&);
};
const Mode kModes[] = {
    {"baseline", [](const ReportRequest& r) { return !r.baseline.empty(); }, true, false, baseline_mode},
    {"study-diff", [](const ReportRequest& r) { return !r.study_diff.empty(); }, true, false, study_diff_mode},
    {"ranks", [](const ReportRequest& r) { return r.ranks; }, false, false, ranks_mode},
    {"compare", [](const ReportRequest& r) { return r.compare; }, false, true, compare_mode},
    {nullptr, [](const ReportRequest&) { return true; }, false, true, default_mode},
};

RuleThresholds thresholds_of(const ReportRequest& r) {
    // The rules file first: a --set on the command line wins over it.
    RuleThresholds t;
    if (!r.rules_file.empty()) {
        guard_input_path(r.rules_file);
        if (auto err = t.read_file(r.rules_file)) throw Error(*err);
    }
    for (const auto& [rule, value] : r.thresholds.values) t.values[rule] = value;
    return t;
}

}  // namespace

void write_rule_listing(const ReportRequest& request, Output& out, const ReportFormat& format) {
    RuleThresholds thresholds = thresholds_of(request);
    RowWriter w(format.rows, out);
    w.columns({"rule", "severity", "condition", "action", "from", "threshold"});
    for (const RuleInfo& r : rule_table()) {
        auto t = thresholds.values.find(r.id);
        Cell threshold = t != thresholds.values.end() ? Cell::of_real(t->second)
                         : std::isnan(r.threshold)    ? Cell()
                                                      : Cell::of_real(r.threshold);
        w.row({Cell::of_text(r.id), Cell::of_text(r.severity), Cell::of_text(r.condition), Cell::of_text(r.action),
               Cell::of_text(r.origin), threshold});
    }
    w.finish();
}

void guard_report_inputs(const ReportRequest& r) {
    for (const std::string& db : r.dbs) guard_database(db);
    for (const std::string& path : r.inputs) guard_input_path(path);
    for (const std::string& path : {r.baseline, r.study_diff, r.study.seq_dist})
        if (!path.empty()) guard_input_path(path);
}

int run_report(const ReportRequest& r, Output& out, const ReportFormat& format, bool terminal) {
    RuleThresholds thresholds = thresholds_of(r);
    const Mode& mode = *std::find_if(std::begin(kModes), std::end(kModes), [&](const Mode& m) { return m.selected(r); });

    // Regions (and their event scan) for profile reports, findings and
    // comparisons (their region deltas).
    const RuleThresholds* regions = mode.regions ? &thresholds : nullptr;
    ReportInput input;
    for (const std::string& db : r.dbs) {
        Store store(db, Store::Access::read_only);
        size_t first = input.profiles.size();
        read_db_profiles(store, r.profiles, input);
        attach_regions(store, input, first, r, regions);
        if (!r.study_diff.empty()) read_db_runs(store, input);
    }
    std::vector<std::string> inputs = r.inputs;
    if (inputs.empty() && r.dbs.empty()) inputs.push_back("-");
    for (const std::string& path : inputs) load_source(path, input, r, mode.runs, regions);
    // --profile means the same whatever the profiles came from.
    std::vector<std::string> sources = r.dbs;
    sources.insert(sources.end(), inputs.begin(), inputs.end());
    select_profiles(input, r.profiles, sources.size() == 1 ? sources.front() : std::string());
    // --window needs the events, which only a study database has.
    if (!r.windows.empty() &&
        std::any_of(input.profiles.begin(), input.profiles.end(), [](const ProfileEntry& p) { return !p.stored; }))
        print_warning("--window applies to profiles read from a study database (--db): profile records carry no "
                      "events to cut");

    Document doc;
    // Every figure from the sim backend is labelled a prediction, the
    // baseline's included.
    Provenance provenance;
    provenance.add(input);
    // Read once, whatever the format and mode: record formats render no
    // study sections, but a bad distribution file must not pass unnoticed.
    MatmulStudyOptions study = r.study;
    if (!study.seq_dist.empty()) study.seq_counts = read_seq_distribution(study.seq_dist);
    ModeContext c{r, format, out, input, provenance, doc, thresholds, study, sources};
    mode.report(c);
    provenance.label_document(doc);
    if (format.render) format.render(doc, out, terminal);
    return c.status;
}

}  // namespace nx
