#include "common/convert/dataset_upkeep.h"

#include <map>
#include <set>
#include <utility>

#include "common/dataset/dataset_commit.h"
#include "common/dataset/dataset_folder.h"
#include "common/dataset/dataset_layout.h"
#include "common/dataset/dataset_names.h"
#include "common/dataset/dataset_plan.h"
#include "common/io/diag.h"
#include "common/io/error.h"

namespace nx {

namespace {

using dataset::Folder;

// A temporary file no running writer owns: its tag names no writer's file,
// or a writer's file that can be locked (it has gone), or it carries no
// tag (an nx before tags).  Journaled ones are their commit's.
bool orphaned_temporary(const DirHandle& writers, const std::string& name, const std::set<std::string>& journaled) {
    if (!dataset::is_temporary_name(name) || journaled.count(name)) return false;
    std::string tag = dataset::tag_of_temporary_name(name);
    if (tag.empty() || !writers.is_open() || !writers.is_regular_file(tag)) return true;
    FileLock probe(writers, tag, false);
    return probe.held() && probe.supported();
}

}  // namespace

PlannedDataset plan_dataset(const std::string& dataset_dir, const std::string& tree, const PlanOptions& options) {
    PlannedDataset out;
    out.plan = plan_capture_tree(tree, options);
    Folder ds(dataset_dir, true);
    dataset::WriterTag tag(ds);
    std::optional<std::vector<PlanEntry>> before = dataset::current_plan(ds);
    if (before) {
        std::set<std::string> inputs, keys;
        for (const PlanEntry& e : out.plan.entries) {
            inputs.insert(e.input);
            keys.insert(dataset::done_key(e));
        }
        for (const PlanEntry& e : *before) {
            if (keys.count(dataset::done_key(e))) continue;
            // An input planned again at another rank keeps its profile: its
            // conversion at the new rank moves it.
            if (!inputs.count(e.input)) {
                for (const dataset::DoneProfile& p : dataset::done_profiles(ds, e)) {
                    dataset::remove_profile(ds, p.stem, dataset::partition_folder(p.rank), tag.tag());
                    ++out.removed_profiles;
                }
                ++out.dropped_entries;
            }
            dataset::forget_done(ds, e);
        }
    }
    dataset::write_small_file(ds.bookkeeping(), dataset::kPlanFile, plan_text(out.plan.entries), tag.tag());
    std::set<int> ranks;
    for (const PlanEntry& e : out.plan.entries) ranks.insert(e.rank);
    out.ranks = ranks.size();
    return out;
}

RepairedDataset repair_dataset(const std::string& dataset_dir) {
    RepairedDataset out;
    if (!dataset::is_dataset(dataset_dir))
        throw Error("not an nx dataset (no profiles folder and no plan)", dataset_dir);
    Folder ds(dataset_dir, false);
    dataset::WriterTag tag(ds);
    // --repair runs when no other writer does: a commit another holds is
    // waited for, and without flock every journal is taken as stopped.
    dataset::Recovered r = dataset::recover_commits(ds, true, tag.tag());
    out.commits_finished = r.finished;
    out.commits_removed = r.removed;
    dataset::Swept swept = dataset::sweep_gone_writers(ds, [&] { return dataset::journaled_temporaries(ds); });
    out.writers_gone = swept.writers;
    out.temporary_files = swept.files;
    const std::set<std::string> journaled = dataset::journaled_temporaries(ds);
    DirHandle writers = ds.bookkeeping_if_any(dataset::kWritersFolder);
    // Every partition: temporary files no writer owns, and the files of
    // profiles without a profiles file there.
    std::map<std::string, std::set<std::string>> profiles;  // partition -> stems with a profiles file
    std::vector<std::pair<std::string, DirHandle::Entry>> entries;
    auto each_partition = [&](std::string_view table, auto visit) {
        DirHandle t = ds.root().sub(table, false);
        if (!t.is_open()) return;
        for (const DirHandle::Entry& part : t.list()) {
            if (part.type != DirHandle::Entry::Type::folder || !dataset::rank_of_partition_folder(part.name)) continue;
            DirHandle dir = t.sub(part.name, false);
            visit(part.name, dir);
        }
    };
    each_partition("profiles", [&](const std::string& part, const DirHandle& dir) {
        for (const DirHandle::Entry& f : dir.list())
            if (f.type == DirHandle::Entry::Type::file && f.name.size() > 8 &&
                f.name.compare(f.name.size() - 8, 8, ".parquet") == 0 && f.name[0] != '.')
                profiles[part].insert(f.name.substr(0, f.name.size() - 8));
    });
    DirHandle locks = ds.bookkeeping(dataset::kLockFolder);
    for (const dataset::Table& t : dataset::tables()) {
        const bool is_profiles = t.name == "profiles";
        each_partition(t.name, [&](const std::string& part, const DirHandle& dir) {
            for (const DirHandle::Entry& f : dir.list()) {
                if (f.type != DirHandle::Entry::Type::file) continue;
                if (orphaned_temporary(writers, f.name, journaled)) {
                    out.temporary_files += dir.remove(f.name);
                    continue;
                }
                if (is_profiles || f.name[0] == '.' || f.name.size() <= 8 ||
                    f.name.compare(f.name.size() - 8, 8, ".parquet") != 0)
                    continue;
                std::string stem = f.name.substr(0, f.name.size() - 8);
                if (!dataset::profile_id_of_stem(stem) || profiles[part].count(stem)) continue;
                // A commit putting the profile in place now holds its lock.
                FileLock lock(locks, stem, false);
                if (!lock.held()) continue;
                if (DirHandle p = ds.partition("profiles", part, false); p.is_open() && p.is_regular_file(f.name)) continue;
                out.unfinished_files += dir.remove(f.name);
            }
        });
    }
    for (const char* sub : {dataset::kAtFolder, dataset::kDoneFolder, dataset::kCommitFolder}) {
        DirHandle dir = ds.bookkeeping_if_any(sub);
        if (!dir.is_open()) continue;
        for (const DirHandle::Entry& f : dir.list())
            if (f.type == DirHandle::Entry::Type::file && orphaned_temporary(writers, f.name, journaled))
                out.temporary_files += dir.remove(f.name);
    }
    out.unplanned = dataset::unplanned_profiles(dataset_dir);
    return out;
}

void note_planned(const PlannedDataset& p, const std::string& dir) {
    for (const std::string& skipped : p.plan.skipped) print_note("skipped " + skipped);
    if (p.dropped_entries)
        print_note("re-planned: " + std::to_string(p.dropped_entries) + " entries of the earlier plan are not in the tree now; their " +
               std::to_string(p.removed_profiles) + " profiles were removed from the dataset");
    print_note("planned " + std::to_string(p.plan.entries.size()) + " profiles of " + std::to_string(p.ranks) +
               " ranks in " + dataset::plan_path(dir));
}

void note_repaired(const RepairedDataset& r, const std::string& dir) {
    print_note("repaired " + dir + ": " + std::to_string(r.commits_finished) + " interrupted commits finished, " +
               std::to_string(r.commits_removed) + " whose files were gone removed; " +
               std::to_string(r.temporary_files) + " temporary files of stopped writers and " +
               std::to_string(r.unfinished_files) + " files of profiles without a profiles file removed");
    if (!r.unplanned.empty())
        print_warning(std::to_string(r.unplanned.size()) + " profiles in the dataset are in no entry of its plan (converted by hand, or before the plan), the first: " +
                      r.unplanned.front() + ": nx-report --ranks compares them with the planned ones");
}

}  // namespace nx
