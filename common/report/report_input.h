// What nx-report reads: records from files or stdin (profile, run, bench,
// finding, or any other rows, e.g. nx-query output) and profiles or runs from
// study databases, sorted by kind.  The events of a Chrome trace profile
// (trace_report.h) are kept with it, as its slices, rather than as rows.
#pragma once

#include <rapidjson/document.h>

#include <memory>
#include <string>
#include <vector>

#include "common/io/input.h"
#include "common/store/dependency_graph.h"
#include "common/profile/profile.h"
#include "common/profile/regions.h"
#include "common/report/trace_stats.h"
#include "common/store/store.h"

namespace nx {

struct ProfileEntry {
    ProfileInfo info;
    ProfileSummary summary;
    // A trace profile's slices, when its events came along (null otherwise).
    std::shared_ptr<const TraceSlices> trace;
    // Its regions with their metrics and findings (regions.h), when its
    // events were at hand (a study database); null otherwise.
    std::shared_ptr<const std::vector<RegionResult>> regions;
    std::vector<std::string> region_notes;
    // Its dependency graph (Explorer's Flow rows), when its events were at
    // hand (a study database); null otherwise.  flow_rows == 0: none.
    std::shared_ptr<const DependencyGraph> dependencies;
    // Read from a study database (its events can be scanned), not from a
    // profile record.
    bool stored = false;
};

struct ReportInput {
    std::vector<ProfileEntry> profiles;
    std::vector<rapidjson::Document> runs;     // kind "run"
    std::vector<rapidjson::Document> benches;  // kind "bench"
    std::vector<rapidjson::Document> rows;     // anything else, shown as a table
};

// Reads JSONL records; a bad line throws Error(file:line) unless keep_going
// (then it is counted in error_counts()).  Event records of a trace profile
// in the same input become its slices; other events stay rows.
void read_report_records(InputSource& in, ReportInput& into, bool keep_going);
// A file that is a study database (SQLite magic) rather than JSONL?
bool is_sqlite_file(const std::string& path);
// Profiles stored in a database (their profile records, a trace profile's
// slices from its events), only those named (by name or id) when `names` is
// not empty; and the run history.
void read_db_profiles(Store& store, const std::vector<std::string>& names, ReportInput& into);
// Profiles of an nx dataset (dataset_layout.h): the profile records of its
// profiles table, only those named when `names` is not empty.
void read_dataset_profiles(const std::string& root, const std::vector<std::string>& names, ReportInput& into);
// The executions of a session (ProfileSummary::executions, windows only: the
// profile record carries none) of the profiles already in `into`, from a
// dataset's executions table or a study database's execution table, for
// the ranks page's executions x ranks.  Profiles with executions keep theirs.
void read_dataset_executions(const std::string& root, ReportInput& into);
void read_db_executions(Store& store, ReportInput& into);
// --profile NAME: a profile's name or id, or a shell pattern on names
// ("mm_*", "rank[01]") when it has * ? or [.
bool is_name_pattern(const std::string& s);
bool profile_named(const std::string& name, const std::string& id, const std::string& wanted);
// nx-report --profile: keeps the profiles named (by name or id), from every
// source alike; a name that matches none is an Error at `where`.
void select_profiles(ReportInput& input, const std::vector<std::string>& names, const std::string& where);
void read_db_runs(Store& store, ReportInput& into);

}  // namespace nx
