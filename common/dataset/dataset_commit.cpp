#include "common/dataset/dataset_commit.h"

#include <optional>
#include <sstream>

#include "common/dataset/dataset_layout.h"
#include "common/dataset/dataset_names.h"
#include "common/io/diag.h"
#include "common/io/error.h"

namespace nx::dataset {

namespace {

constexpr const char* kJournalHeader = "nx dataset commit 1";
constexpr const char* kProfiles = "profiles";

struct Journal {
    std::string to, from;  // partition folders
    struct File {
        std::string table, written_in, temp;
    };
    std::vector<File> files;
};

std::string journal_text(const Journal& j) {
    std::string t = std::string(kJournalHeader) + "\nto " + j.to + "\nfrom " + j.from + "\n";
    for (const Journal::File& f : j.files) t += "file " + f.table + " " + f.written_in + " " + f.temp + "\n";
    return t;
}

// A journal nx wrote, every name checked: a table nx has, partition folders,
// hidden temporary names of one component.  None for anything else.
std::optional<Journal> parse_journal(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line) || line != kJournalHeader) return std::nullopt;
    Journal j;
    auto partition = [](const std::string& s) { return rank_of_partition_folder(s).has_value(); };
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string key, a, b, c, extra;
        words >> key >> a;
        if (key == "to" || key == "from") {
            if (!partition(a) || (words >> extra)) return std::nullopt;
            (key == "to" ? j.to : j.from) = a;
        } else if (key == "file") {
            words >> b >> c;
            if (!find_table(a) || !partition(b) || !is_temporary_name(c) || c.find('/') != std::string::npos ||
                (words >> extra))
                return std::nullopt;
            j.files.push_back({a, b, c});
        } else {
            return std::nullopt;
        }
    }
    // No files: the profile's removal (remove_profile), from `from`.
    if (j.to.empty() || j.from.empty()) return std::nullopt;
    return j;
}

std::string file_of(const std::string& stem) { return stem + ".parquet"; }

// A profile's files in `partition`, as folders held open: its profiles
// file's first (nx's readers key every table on it), then, unless
// `only_profiles`, the rest.  Opening them all before any is removed, a
// folder that cannot be used (a link planted there) fails with the copy
// still whole.
struct Copy {
    std::vector<DirHandle> folders;
    std::string file;
};

Copy open_copy(const Folder& ds, const std::string& stem, const std::string& partition, bool only_profiles) {
    Copy c{{}, file_of(stem)};
    auto open_in = [&](std::string_view table) {
        if (DirHandle d = ds.partition(table, partition, false); d.is_open()) c.folders.push_back(std::move(d));
    };
    open_in(kProfiles);
    if (!only_profiles)
        for (const Table& t : tables())
            if (std::string_view(t.name) != kProfiles) open_in(t.name);
    return c;
}

void remove_copy(const Copy& c) {
    for (const DirHandle& d : c.folders) d.remove(c.file);
}

// Takes the profile out of `partition` (open_copy's order).
void remove_copy(const Folder& ds, const std::string& stem, const std::string& partition, bool only_profiles) {
    remove_copy(open_copy(ds, stem, partition, only_profiles));
}

void write_note(const Folder& ds, const std::string& stem, const std::string& partition, const std::string& tag) {
    if (noted_partition(ds, stem) == partition) return;
    write_small_file(ds.bookkeeping(kAtFolder), stem, partition + "\n", tag);
}

// Files in publishing order: every table's but the profiles file, then it.
template <class File, class Table>
std::vector<const File*> in_publishing_order(const std::vector<File>& files, Table table_of) {
    std::vector<const File*> out;
    for (const File& f : files)
        if (table_of(f) != kProfiles) out.push_back(&f);
    for (const File& f : files)
        if (table_of(f) == kProfiles) out.push_back(&f);
    return out;
}

enum class Outcome { finished, removed };

// Finishes the commit a journal describes (the profile's lock held): see
// the header.  A file the journal names that is neither under its
// temporary name nor in place makes the profile unfit: it is removed.
Outcome finish_journal(const Folder& ds, const DirHandle& commits, const std::string& stem, const std::string& tag) {
    DeferSignals hold;
    std::optional<Journal> j = parse_journal(commits.read_small_file(stem));
    if (!j) {
        // Not a journal nx wrote: what it would name cannot be trusted.  The
        // profile's files stay as they are; readers key on its profiles file.
        commits.remove(stem);
        return Outcome::removed;
    }
    if (j->files.empty()) {
        // A removal: the profile's files at `from`, its profiles file first.
        remove_copy(ds, stem, j->from, false);
        if (DirHandle at = ds.bookkeeping_if_any(kAtFolder); at.is_open()) at.remove(stem);
        commits.remove(stem);
        return Outcome::removed;
    }
    auto table_of = [](const Journal::File& f) { return f.table; };
    std::vector<const Journal::File*> order = in_publishing_order(j->files, table_of);
    const Journal::File* profiles = order.back()->table == kProfiles ? order.back() : nullptr;
    auto staged = [&](const Journal::File& f) {
        DirHandle d = ds.partition(f.table, f.written_in, false);
        return d.is_open() && d.is_regular_file(f.temp);
    };
    // The profiles file goes last: when it is no longer under its temporary
    // name, every rename happened.
    if (profiles && staged(*profiles)) {
        remove_copy(ds, stem, j->from, j->from == j->to);
        bool whole = true;
        for (const Journal::File* f : order) {
            if (f == profiles) break;
            DirHandle to = ds.partition(f->table, j->to, true);
            if (staged(*f)) ds.partition(f->table, f->written_in, false).rename_to(f->temp, to, file_of(stem));
            else if (!to.is_regular_file(file_of(stem))) whole = false;
        }
        if (!whole) {
            remove_copy(ds, stem, j->to, false);
            for (const Journal::File& f : j->files)
                if (DirHandle d = ds.partition(f.table, f.written_in, false); d.is_open()) d.remove(f.temp);
            if (DirHandle at = ds.bookkeeping_if_any(kAtFolder); at.is_open()) at.remove(stem);
            commits.remove(stem);
            return Outcome::removed;
        }
        ds.partition(profiles->table, profiles->written_in, false)
            .rename_to(profiles->temp, ds.partition(kProfiles, j->to, true), file_of(stem));
    }
    write_note(ds, stem, j->to, tag);
    commits.remove(stem);
    return Outcome::finished;
}

}  // namespace

std::set<std::string> journaled_temporaries(const Folder& ds) {
    std::set<std::string> names;
    DirHandle commits = ds.bookkeeping_if_any(kCommitFolder);
    if (!commits.is_open()) return names;
    for (const DirHandle::Entry& e : commits.list()) {
        if (e.type != DirHandle::Entry::Type::file || !profile_id_of_stem(e.name)) continue;
        if (std::optional<Journal> j = parse_journal(commits.read_small_file(e.name)))
            for (const Journal::File& f : j->files) names.insert(f.temp);
    }
    return names;
}

std::string noted_partition(const Folder& ds, const std::string& stem) {
    DirHandle at = ds.bookkeeping_if_any(kAtFolder);
    if (!at.is_open()) return {};
    std::string text = at.read_small_file(stem);
    std::string first = text.substr(0, text.find('\n'));
    return rank_of_partition_folder(first) ? first : std::string();
}

void publish_profile(const Folder& ds, const std::string& stem, int rank, const std::vector<StagedFile>& files,
                     const std::string& tag) {
    const std::string to = partition_folder(rank);
    FileLock lock(ds.bookkeeping(kLockFolder), stem, true);
    DirHandle commits = ds.bookkeeping(kCommitFolder);
    // A commit of this profile that a kill interrupted comes first.
    if (commits.found(stem)) finish_journal(ds, commits, stem, tag);
    std::string from = noted_partition(ds, stem);
    if (from.empty()) from = to;
    Journal j{to, from, {}};
    for (const StagedFile& f : files) j.files.push_back({f.table, f.written_in, f.file->temp_name()});
    // Every folder the commit uses, open before anything changes: one that
    // cannot be used (a link planted there) fails it with the dataset as it
    // was.
    Copy old = open_copy(ds, stem, from, from == to);
    std::vector<DirHandle> dests;
    auto table_of = [](const StagedFile& f) { return f.table; };
    std::vector<const StagedFile*> order = in_publishing_order(files, table_of);
    for (const StagedFile* f : order) dests.push_back(ds.partition(f->table, to, true));
    // From the journal on, a SIGTERM (a scheduler's time limit, Ctrl-C)
    // waits for the profile to be in place.
    DeferSignals hold;
    write_small_file(commits, stem, journal_text(j), tag);
    size_t placed = 0;
    try {
        remove_copy(old);
        for (; placed < order.size(); ++placed) order[placed]->file->publish(dests[placed], file_of(stem));
    } catch (const Error& e) {
        // The profile cannot be whole here: what was put in place goes, and
        // what is left of the copy it replaces (its profiles file may be
        // gone already), by a journal of that removal, which the next writer
        // finishes if this one cannot.
        try {
            while (placed > 0) dests[--placed].remove(file_of(stem));
            write_small_file(commits, stem, journal_text(Journal{from, from, {}}), tag);
            finish_journal(ds, commits, stem, tag);
        } catch (const Error&) {
            throw Error(std::string(e.what()) + "; the profile's journal is left for the next conversion into the "
                                                "dataset (or nx-convert --repair) to finish",
                        e.where());
        }
        throw Error(std::string(e.what()) + " (the profile is not in the dataset; convert it again)", e.where());
    }
    try {
        write_note(ds, stem, to, tag);
    } catch (const Error& e) {
        throw Error(std::string(e.what()) + " (the profile is in place, but the note of its partition is not: the "
                                            "next conversion into the dataset, or nx-convert --repair, writes it)",
                    e.where());
    }
    commits.remove(stem);
}

void remove_profile(const Folder& ds, const std::string& stem, const std::string& partition, const std::string& tag) {
    FileLock lock(ds.bookkeeping(kLockFolder), stem, true);
    DirHandle commits = ds.bookkeeping(kCommitFolder);
    if (commits.found(stem)) finish_journal(ds, commits, stem, tag);
    std::set<std::string> places{partition};
    if (std::string noted = noted_partition(ds, stem); !noted.empty()) places.insert(noted);
    // Journaled too: a kill midway leaves what the next writer finishes,
    // not files without their profiles file.
    DeferSignals hold;
    for (const std::string& where : places) {
        write_small_file(commits, stem, journal_text(Journal{where, where, {}}), tag);
        finish_journal(ds, commits, stem, tag);
    }
}

Recovered recover_commits(const Folder& ds, bool wait, const std::string& tag) {
    Recovered r;
    DirHandle commits = ds.bookkeeping_if_any(kCommitFolder);
    if (!commits.is_open()) return r;
    for (const DirHandle::Entry& e : commits.list()) {
        if (e.type != DirHandle::Entry::Type::file || !profile_id_of_stem(e.name)) continue;
        FileLock lock(ds.bookkeeping(kLockFolder), e.name, wait);
        // Without flock nothing tells a running commit from a killed one:
        // only a --repair, which says to run it alone, finishes them.
        if (!lock.held() || (!lock.supported() && !wait)) {
            ++r.running;
            continue;
        }
        if (!commits.found(e.name)) continue;  // finished by its writer meanwhile
        try {
            (finish_journal(ds, commits, e.name, tag) == Outcome::finished ? r.finished : r.removed) += 1;
        } catch (const Error& err) {
            // One that cannot be finished (a folder it names is a link) is
            // left, named; the rest of the dataset is not held up by it.
            print_warning(std::string("cannot finish an interrupted commit: ") + err.what(), err.where());
            ++r.left;
        }
    }
    return r;
}

}  // namespace nx::dataset
