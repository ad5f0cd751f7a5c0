#include "common/dataset/dataset_folder.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <sstream>

#include "common/dataset/dataset_layout.h"
#include "common/dataset/dataset_names.h"
#include "common/io/atomic_file.h"
#include "common/io/error.h"

namespace nx::dataset {

namespace {

constexpr size_t kTagChars = 16;

std::string new_tag() {
    std::random_device rd;
    std::mt19937_64 rng((static_cast<uint64_t>(rd()) << 32) ^ rd() ^ static_cast<uint64_t>(getpid()));
    static const char kHex[] = "0123456789abcdef";
    std::string tag(kTagChars, '0');
    uint64_t bits = rng();
    for (char& c : tag) {
        c = kHex[bits & 15];
        bits >>= 4;
    }
    return tag;
}

bool is_tag(std::string_view s) {
    if (s.size() != kTagChars) return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

}  // namespace

std::string plan_path(const std::string& root) {
    return root + "/" + kBookkeeping + "/" + kPlanFile;
}

Folder::Folder(const std::string& root, bool create) : path_(root), root_(DirHandle::open_path(root, create)) {}

DirHandle Folder::partition(std::string_view table, std::string_view partition, bool create) const {
    DirHandle t = root_.sub(table, create);
    if (!t.is_open()) return t;
    return t.sub(partition, create);
}

DirHandle Folder::bookkeeping() const { return root_.sub(kBookkeeping, true); }

DirHandle Folder::bookkeeping(std::string_view sub) const { return bookkeeping().sub(sub, true); }

DirHandle Folder::bookkeeping_if_any(std::string_view sub) const {
    DirHandle nx = root_.sub(kBookkeeping, false);
    return nx.is_open() ? nx.sub(sub, false) : DirHandle();
}

void write_small_file(const DirHandle& dir, const std::string& name, const std::string& text, std::string_view tag) {
    AtomicFile f(dir, name, tag);
    f.out().write(text);
    // Not synced: what it guards against is a stopped process, whose writes
    // the kernel keeps, not a lost machine (nx(7), The commit).
    f.finish_temporary(false);
    f.publish(dir, name);
}

bool is_temporary_name(std::string_view name) {
    return !name.empty() && name[0] == '.' && name.find(".tmp.") != std::string_view::npos;
}

std::string tag_of_temporary_name(std::string_view name) {
    size_t at = name.rfind(".tmp.");
    if (at == std::string_view::npos) return {};
    std::string_view rest = name.substr(at + 5);
    size_t dot = rest.find('.');
    if (dot == std::string_view::npos) return {};
    std::string_view tag = rest.substr(0, dot);
    return is_tag(tag) ? std::string(tag) : std::string();
}

WriterTag::WriterTag(const Folder& dataset) : writers_(dataset.bookkeeping(kWritersFolder)) {
    // A tag no writer has: the file is made new, never taken over.
    for (int attempt = 0; attempt < 16 && tag_.empty(); ++attempt) {
        std::string t = new_tag();
        if (!writers_.found(t)) tag_ = t;
    }
    if (tag_.empty()) throw Error("cannot choose a writer's tag", writers_.shown());
    lock_ = FileLock(writers_, tag_, false);
    if (!lock_.held()) throw Error("another writer holds a new writer's file", writers_.shown(tag_));
}

WriterTag::~WriterTag() {
    try {
        writers_.remove(tag_);
    } catch (const Error&) {
        // Left for the next sweep, which finds it unlocked.
    }
}

void WriterTag::note_folder(std::string_view table, std::string_view partition) {
    std::string line = std::string(table) + "/" + std::string(partition) + "\n";
    if (!noted_.insert(line).second) return;
    ssize_t n = ::pwrite(lock_.fd(), line.data(), line.size(), offset_);
    if (n != static_cast<ssize_t>(line.size()))
        throw Error(std::string("cannot note the writer's folders: ") + (n < 0 ? std::strerror(errno) : "short write"),
                    writers_.shown(tag_));
    offset_ += n;
}

Swept sweep_gone_writers(const Folder& dataset, const std::function<std::set<std::string>()>& journaled) {
    Swept swept;
    DirHandle writers = dataset.bookkeeping_if_any(kWritersFolder);
    if (!writers.is_open()) return swept;
    for (const DirHandle::Entry& w : writers.list()) {
        if (w.type != DirHandle::Entry::Type::file || !is_tag(w.name)) continue;
        FileLock gone(writers, w.name, false);
        if (!gone.held() || !gone.supported()) continue;  // running, or nothing can be told
        const std::set<std::string> keep = journaled();
        std::istringstream folders(writers.read_small_file(w.name));
        std::string line;
        while (std::getline(folders, line)) {
            size_t slash = line.find('/');
            if (slash == std::string::npos) continue;
            std::string table = line.substr(0, slash), part = line.substr(slash + 1);
            // Only what a writer could have noted: a table's partition folder.
            if (!find_table(table) || !rank_of_partition_folder(part)) continue;
            DirHandle dir = dataset.partition(table, part, false);
            if (!dir.is_open()) continue;
            for (const DirHandle::Entry& f : dir.list())
                if (f.type == DirHandle::Entry::Type::file && is_temporary_name(f.name) &&
                    tag_of_temporary_name(f.name) == w.name && !keep.count(f.name) && dir.remove(f.name))
                    ++swept.files;
        }
        writers.remove(w.name);
        ++swept.writers;
    }
    return swept;
}

}  // namespace nx::dataset
