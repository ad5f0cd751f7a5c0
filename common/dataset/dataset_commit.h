// How a profile's files are put into a dataset so that every reader sees the
// profile whole or not at all, whatever stops the writer (nx(7) DATASET,
// "The commit"):
//
// 1. Each table's file is written in full, synced, under a hidden temporary
//    name in a partition folder (no reader looks at hidden names).
// 2. Under the profile's lock (_nx/lock/<stem>): a journal, _nx/commit/<stem>,
//    names those files and where they go; then, with SIGINT, SIGTERM and
//    SIGHUP held back, the profile's profiles file where it was is removed
//    (nx's readers key every table on it: the profile leaves them at once),
//    its other files there too when it moves to another rank, each file is
//    renamed into place, the profiles file last, its partition is noted in
//    _nx/at/<stem>, and the journal is removed.
// 3. A writer killed outright (SIGKILL) in step 2 leaves the journal: the next
//    writer into the dataset (each conversion starts so, and --repair)
//    finishes it, renaming what is left in the order above; if a file it
//    names is gone, it removes the profile instead, so that --missing
//    converts it again.  One killed in step 1 leaves only hidden files, which
//    the next writer removes once it can lock the killed one's file in
//    _nx/writers (dataset_folder.h).
//
// Two conversions of one profile at once each write their own files and put
// them in place in turn: the last one's, whole, stay.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "common/dataset/dataset_folder.h"
#include "common/io/atomic_file.h"

namespace nx::dataset {

// A table's file of a profile, finished under its temporary name in the
// partition folder `written_in`.
struct StagedFile {
    std::string table;
    std::string written_in;
    AtomicFile* file;
};

// Puts the profile's files (every table's) in place at `rank`, removing an
// earlier copy at another rank.  Throws Error; then the profile is either as
// it was, or gone, or left to its journal (the message says which).
void publish_profile(const Folder& dataset, const std::string& stem, int rank, const std::vector<StagedFile>& files,
                     const std::string& tag);

// Removes a profile from the dataset (its files at its noted partition, or
// at `partition` when it has no note), profiles file first, and its note.
void remove_profile(const Folder& dataset, const std::string& stem, const std::string& partition,
                    const std::string& tag);

// Finishes the journals of commits whose writer is gone (their profile's
// lock is free; `wait`: wait for a running one instead of passing it by).
struct Recovered {
    size_t finished = 0;  // put in place
    size_t removed = 0;   // a file was gone: the profile removed
    size_t running = 0;   // another writer is putting it in place now
    size_t left = 0;      // could not be finished (named on stderr)
};
Recovered recover_commits(const Folder& dataset, bool wait, const std::string& tag);

// The temporary files the journals name (which no sweep may remove).
std::set<std::string> journaled_temporaries(const Folder& dataset);

// The partition a profile's files are noted in (_nx/at/<stem>); empty when
// none is noted.
std::string noted_partition(const Folder& dataset, const std::string& stem);

}  // namespace nx::dataset
