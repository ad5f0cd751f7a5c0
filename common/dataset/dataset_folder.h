// A dataset's folder held open (io/dir_handle.h: nothing below it is reached
// through a symbolic link), and the one description of its bookkeeping,
// DATASET/_nx, which engines skip (names that start with '_'):
//
//   _nx/plan.tsv        nx-convert --plan: every profile of the capture tree, with its rank
//   _nx/done/<key>      a plan entry converted: the profiles it wrote (key: the entry's hash)
//   _nx/at/<stem>       the partition a profile's files are in ("rank=3")
//   _nx/lock/<stem>     locked while a profile's files are put in place
//   _nx/commit/<stem>   the journal of a profile being put in place
//   _nx/writers/<tag>   a writer that is running (locked while it lives): the
//                       folders it has temporary files in
//   _nx/logs/<run>/     make dataset's task logs, a folder per run
//
// <stem> is a profile's file stem (dataset_names.h); <tag> a writer's random
// mark, which its temporary files carry (".<file>.tmp.<tag>.XXXXXX").
// Also here: each writer's tag, and the sweep that removes what writers
// killed outright (SIGKILL) left.
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "common/io/dir_handle.h"

namespace nx::dataset {

inline constexpr const char* kBookkeeping = "_nx";
inline constexpr const char* kPlanFile = "plan.tsv";
inline constexpr const char* kDoneFolder = "done";
inline constexpr const char* kAtFolder = "at";
inline constexpr const char* kLockFolder = "lock";
inline constexpr const char* kCommitFolder = "commit";
inline constexpr const char* kWritersFolder = "writers";
inline constexpr const char* kLogsFolder = "logs";

// DIR/_nx/plan.tsv, for messages and for reading (it is written through a Folder).
std::string plan_path(const std::string& root);

class Folder {
public:
    // Opens DIR (made first when `create`).  Throws Error.
    Folder(const std::string& root, bool create);
    const std::string& path() const { return path_; }
    const DirHandle& root() const { return root_; }
    // DIR/<table>/<partition>: made when `create`, else unopened when missing.
    DirHandle partition(std::string_view table, std::string_view partition, bool create) const;
    // DIR/_nx, and DIR/_nx/<sub>, made when missing.
    DirHandle bookkeeping() const;
    DirHandle bookkeeping(std::string_view sub) const;
    // DIR/_nx/<sub> when it exists; unopened otherwise.
    DirHandle bookkeeping_if_any(std::string_view sub) const;

private:
    std::string path_;
    DirHandle root_;
};

// Writes a small bookkeeping file whole (a temporary name, then a rename;
// not synced).
void write_small_file(const DirHandle& dir, const std::string& name, const std::string& text,
                      std::string_view tag);

// This process's mark on the temporary files it writes into a dataset, and
// its file in _nx/writers, locked while it runs: a writer whose file another
// can lock has gone, and what it left can be removed.
class WriterTag {
public:
    explicit WriterTag(const Folder& dataset);
    ~WriterTag();
    WriterTag(const WriterTag&) = delete;
    WriterTag& operator=(const WriterTag&) = delete;
    const std::string& tag() const { return tag_; }
    // Before the first temporary file goes into DIR/<table>/<partition>.
    void note_folder(std::string_view table, std::string_view partition);

private:
    DirHandle writers_;
    std::string tag_;
    FileLock lock_;
    std::set<std::string> noted_;
    long offset_ = 0;
};

// Removes the temporary files of writers that have gone (their file in
// _nx/writers can be locked), in the folders each noted, and their files;
// but not those a journal names (`journaled`, asked once a writer is known
// to be gone: its commit finishes them).  On a file system without flock
// nothing can be told of a writer: none is removed.
struct Swept {
    size_t writers = 0, files = 0;
};
Swept sweep_gone_writers(const Folder& dataset, const std::function<std::set<std::string>()>& journaled);

// True for a writer's temporary file name (hidden, ".tmp." within).
bool is_temporary_name(std::string_view name);
// The tag a temporary file name carries; empty for one an nx before tags wrote.
std::string tag_of_temporary_name(std::string_view name);

}  // namespace nx::dataset
