#include "common/io/dir_handle.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/io/error.h"

namespace nx {

namespace {

std::string os_error(const char* what, int err) { return std::string(what) + ": " + std::strerror(err); }

}  // namespace

void check_component(std::string_view name, const std::string& where) {
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos ||
        name.find('\0') != std::string_view::npos)
        throw Error("internal: '" + std::string(name) + "' is not a file name of one component", where);
}

DirHandle DirHandle::open_path(const std::string& path, bool create) {
    if (create) {
        std::error_code ec;
        std::filesystem::create_directories(path, ec);
        if (ec) throw Error("cannot create the directory: " + ec.message(), path);
    }
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) throw Error(os_error("cannot open the directory", errno), path);
    std::string shown = path;
    while (shown.size() > 1 && shown.back() == '/') shown.pop_back();
    return DirHandle(fd, shown);
}

DirHandle::DirHandle(DirHandle&& o) noexcept : fd_(o.fd_), shown_(std::move(o.shown_)) { o.fd_ = -1; }

DirHandle& DirHandle::operator=(DirHandle&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.fd_;
        shown_ = std::move(o.shown_);
        o.fd_ = -1;
    }
    return *this;
}

DirHandle::~DirHandle() {
    if (fd_ >= 0) ::close(fd_);
}

DirHandle DirHandle::sub(std::string_view name, bool create) const {
    check_component(name, shown_);
    const std::string n(name);
    if (create && ::mkdirat(fd_, n.c_str(), 0777) != 0 && errno != EEXIST)
        throw Error(os_error("cannot create the folder", errno), shown(name));
    int fd = ::openat(fd_, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) return DirHandle(fd, shown(name));
    int err = errno;
    if (err == ENOENT && !create) return DirHandle();
    struct stat st {};
    if (::fstatat(fd_, n.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        throw Error("a symbolic link where nx keeps a folder of its own: nx does not follow links inside the folders "
                    "it writes (remove the link)",
                    shown(name));
    if (err == ENOTDIR) throw Error("not a folder, where nx keeps one of its own", shown(name));
    throw Error(os_error("cannot open the folder", err), shown(name));
}

bool DirHandle::remove(std::string_view name) const {
    check_component(name, shown_);
    if (::unlinkat(fd_, std::string(name).c_str(), 0) == 0) return true;
    if (errno == ENOENT) return false;
    throw Error(os_error("cannot remove", errno), shown(name));
}

void DirHandle::rename_to(std::string_view name, const DirHandle& to, std::string_view to_name) const {
    check_component(name, shown_);
    check_component(to_name, to.shown_);
    if (::renameat(fd_, std::string(name).c_str(), to.fd_, std::string(to_name).c_str()) != 0)
        throw Error(os_error("cannot rename into place", errno), to.shown(to_name));
}

bool DirHandle::found(std::string_view name) const {
    check_component(name, shown_);
    struct stat st {};
    return ::fstatat(fd_, std::string(name).c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

bool DirHandle::is_regular_file(std::string_view name) const {
    check_component(name, shown_);
    struct stat st {};
    return ::fstatat(fd_, std::string(name).c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

std::vector<DirHandle::Entry> DirHandle::list() const {
    std::vector<Entry> out;
    int fd = ::dup(fd_);
    if (fd < 0) throw Error(os_error("cannot list the folder", errno), shown_);
    DIR* d = ::fdopendir(fd);
    if (!d) {
        int err = errno;
        ::close(fd);
        throw Error(os_error("cannot list the folder", err), shown_);
    }
    ::rewinddir(d);
    errno = 0;
    while (dirent* e = ::readdir(d)) {
        std::string name = e->d_name;
        if (name == "." || name == "..") continue;
        unsigned char type = e->d_type;
        if (type == DT_UNKNOWN) {
            struct stat st {};
            if (::fstatat(fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
            type = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_FIFO;
        }
        Entry::Type t = type == DT_REG   ? Entry::Type::file
                        : type == DT_DIR ? Entry::Type::folder
                        : type == DT_LNK ? Entry::Type::link
                                         : Entry::Type::other;
        out.push_back({std::move(name), t});
        errno = 0;
    }
    int err = errno;
    ::closedir(d);
    if (err) throw Error(os_error("cannot list the folder", err), shown_);
    return out;
}

std::string DirHandle::read_small_file(std::string_view name, size_t max_bytes) const {
    check_component(name, shown_);
    // O_NONBLOCK: a FIFO planted under the name must not stop the tool.
    int fd = ::openat(fd_, std::string(name).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return {};
        throw Error(os_error("cannot read", errno), shown(name));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw Error("not a file, where nx keeps one of its own", shown(name));
    }
    std::string text;
    char buf[4096];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int err = errno;
            ::close(fd);
            throw Error(os_error("cannot read", err), shown(name));
        }
        if (n == 0) break;
        text.append(buf, static_cast<size_t>(n));
        if (text.size() > max_bytes) {
            ::close(fd);
            throw Error("larger than nx's own bookkeeping files are (" + std::to_string(max_bytes) + " bytes)",
                        shown(name));
        }
    }
    ::close(fd);
    return text;
}

FileLock::FileLock(const DirHandle& dir, std::string_view name, bool wait) {
    check_component(name, dir.shown());
    fd_ = ::openat(dir.fd(), std::string(name).c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd_ < 0) throw Error(os_error("cannot open the lock file", errno), dir.shown(name));
    for (;;) {
        if (::flock(fd_, LOCK_EX | (wait ? 0 : LOCK_NB)) == 0) {
            held_ = true;
            return;
        }
        if (errno == EINTR) continue;
        if (errno == EWOULDBLOCK) return;  // another holds it
        if (errno == ENOLCK || errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS) {
            supported_ = false;
            held_ = true;
            return;
        }
        int err = errno;
        ::close(fd_);
        fd_ = -1;
        throw Error(os_error("cannot lock", err), dir.shown(name));
    }
}

FileLock::FileLock(FileLock&& o) noexcept : fd_(o.fd_), held_(o.held_), supported_(o.supported_) {
    o.fd_ = -1;
    o.held_ = false;
}

FileLock& FileLock::operator=(FileLock&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.fd_;
        held_ = o.held_;
        supported_ = o.supported_;
        o.fd_ = -1;
        o.held_ = false;
    }
    return *this;
}

FileLock::~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace nx
