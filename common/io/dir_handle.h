// A directory held open, and the work done inside it by name: folders made
// and opened, files removed, renamed, listed and locked, each call relative to
// the open directory (openat, renameat, unlinkat) and never following a
// symbolic link below it.  What a tool writes under a folder it owns (a
// dataset) goes through these, so a link planted in that folder, or a folder
// swapped for one while the tool runs, cannot send a write, a rename or a
// deletion outside it.  Every name given here is one path component: a name
// with a '/', "." or ".." is refused.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nx {

class DirHandle {
public:
    DirHandle() = default;
    // The directory at `path` (following links in `path` itself: the caller
    // named it); created first, with its parents, when `create`.  Throws Error.
    static DirHandle open_path(const std::string& path, bool create);
    DirHandle(DirHandle&& o) noexcept;
    DirHandle& operator=(DirHandle&& o) noexcept;
    DirHandle(const DirHandle&) = delete;
    DirHandle& operator=(const DirHandle&) = delete;
    ~DirHandle();

    bool is_open() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    // The path a message names it by.
    const std::string& shown() const { return shown_; }
    std::string shown(std::string_view name) const { return shown_ + "/" + std::string(name); }

    // The folder `name` in this one, made when missing and `create`.  A
    // symbolic link there is refused, not followed.  Returns an unopened
    // handle when it is missing and not `create`.
    DirHandle sub(std::string_view name, bool create) const;
    // Removes the file `name`; false when there was none.  Throws Error on
    // any other failure (a folder there, no permission).
    bool remove(std::string_view name) const;
    // Renames `name` here to `to_name` in `to` (the same file system).
    // Throws Error; a missing `name` throws too (found() tells first).
    void rename_to(std::string_view name, const DirHandle& to, std::string_view to_name) const;
    // True when an entry `name` exists (not following a link).
    bool found(std::string_view name) const;
    bool is_regular_file(std::string_view name) const;
    struct Entry {
        std::string name;
        enum class Type { file, folder, link, other } type;
    };
    // Every entry but "." and "..", unsorted.
    std::vector<Entry> list() const;
    // The file's text (a bookkeeping file), empty when it is missing; an
    // Error past `max_bytes`.
    std::string read_small_file(std::string_view name, size_t max_bytes = size_t{1} << 20) const;

private:
    DirHandle(int fd, std::string shown) : fd_(fd), shown_(std::move(shown)) {}
    int fd_ = -1;
    std::string shown_;
};

// Throws Error unless `name` is one path component: not empty, no '/', no
// NUL, not "." or "..".
void check_component(std::string_view name, const std::string& where);

// An exclusive flock(2) on the file `name` in `dir` (created when missing),
// released when the lock is destroyed.  On a file system without flock
// (some network mounts) the lock is taken as held: supported() says which.
class FileLock {
public:
    FileLock() = default;
    // Waits for the lock when `wait`; else try_lock semantics: held() tells.
    FileLock(const DirHandle& dir, std::string_view name, bool wait);
    FileLock(FileLock&& o) noexcept;
    FileLock& operator=(FileLock&& o) noexcept;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();
    bool held() const { return held_; }
    bool supported() const { return supported_; }
    int fd() const { return fd_; }

private:
    int fd_ = -1;
    bool held_ = false, supported_ = true;
};

}  // namespace nx
