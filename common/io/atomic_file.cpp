#include "common/io/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <mutex>
#include <random>

#include "common/io/error.h"
#include "common/io/file_guard.h"

namespace nx {

namespace {

// The signal handler may only use async-signal-safe calls, so the registry is a
// fixed table of C strings rather than a std::set: each a name in a folder
// (AT_FDCWD for a path).
constexpr int kMaxTempPaths = 64;
constexpr int kMaxPathLen = 4096;
char g_temp_paths[kMaxTempPaths][kMaxPathLen];
int g_temp_dirs[kMaxTempPaths];
volatile sig_atomic_t g_temp_used[kMaxTempPaths];
std::mutex g_registry_mutex;
// DeferSignals: how many live, and the signal that came meanwhile.
std::atomic<int> g_deferring{0};
std::atomic<int> g_pending_signal{0};

void cleanup_and_reraise(int sig) {
    for (int i = 0; i < kMaxTempPaths; ++i)
        if (g_temp_used[i]) unlinkat(g_temp_dirs[i], g_temp_paths[i], 0);
    signal(sig, SIG_DFL);
    raise(sig);
}

void on_signal(int sig) {
    g_pending_signal.store(sig);
    if (g_deferring.load() > 0) return;  // ~DeferSignals runs it
    cleanup_and_reraise(sig);
}

void register_temp(int dir, const std::string& name) {
    if (name.size() >= kMaxPathLen) return;
    std::lock_guard<std::mutex> lock(g_registry_mutex);
    for (int i = 0; i < kMaxTempPaths; ++i) {
        if (!g_temp_used[i]) {
            std::memcpy(g_temp_paths[i], name.c_str(), name.size() + 1);
            g_temp_dirs[i] = dir;
            g_temp_used[i] = 1;
            return;
        }
    }
}

void unregister_temp(int dir, const std::string& name) {
    std::lock_guard<std::mutex> lock(g_registry_mutex);
    for (int i = 0; i < kMaxTempPaths; ++i) {
        if (g_temp_used[i] && g_temp_dirs[i] == dir && name == g_temp_paths[i]) {
            g_temp_used[i] = 0;
            return;
        }
    }
}

// Six letters or digits for a temporary name.
std::string random_suffix() {
    static const char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    thread_local std::mt19937_64 rng{std::random_device{}() ^ (static_cast<uint64_t>(getpid()) << 32)};
    std::string s(6, 'x');
    for (char& c : s) c = kChars[rng() % (sizeof kChars - 1)];
    return s;
}

}  // namespace

void register_temp_path(const std::string& path) { register_temp(AT_FDCWD, path); }

void unregister_temp_path(const std::string& path) { unregister_temp(AT_FDCWD, path); }

void install_cleanup_handlers() {
    static bool installed = false;
    if (installed) return;
    installed = true;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    // Write errors on a closed pipe come back as EPIPE and end the tool quietly.
    signal(SIGPIPE, SIG_IGN);
}

DeferSignals::DeferSignals() { g_deferring.fetch_add(1); }

DeferSignals::~DeferSignals() {
    if (g_deferring.fetch_sub(1) != 1) return;
    if (int sig = g_pending_signal.exchange(0)) cleanup_and_reraise(sig);
}

mode_t output_file_mode(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

AtomicFile::AtomicFile(std::string path, bool gzip) : path_(std::move(path)) {
    check_output_path(path_);
    int fd;
    struct stat st {};
    if (stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        // A device or FIFO (-o /dev/null, /dev/stdout, a named pipe) is written
        // in place: renaming a file over it would replace the device itself
        // (as root, /dev/null with a regular file).
        fd = open(path_.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) throw Error(std::string("cannot open: ") + std::strerror(errno), path_);
    } else {
        mode_t mode = output_file_mode(path_);
        // A hidden name beside the file (".<name>.tmp.XXXXXX"): what a killed
        // writer leaves is skipped by ls, globs and every engine that reads
        // a folder of files (Spark, Trino, Athena and Arrow skip "." and "_").
        // A name too long for that (255 bytes a name) gets a short one.
        size_t slash = path_.rfind('/');
        size_t base = slash == std::string::npos ? 0 : slash + 1;
        constexpr size_t kNameMax = 255, kAdded = sizeof(".") - 1 + sizeof(".tmp.XXXXXX") - 1;
        std::string templ = path_.size() - base + kAdded <= kNameMax
                                ? path_.substr(0, base) + "." + path_.substr(base) + ".tmp.XXXXXX"
                                : path_.substr(0, base) + ".nx.tmp.XXXXXX";
        fd = mkstemp(templ.data());
        if (fd < 0) throw Error(std::string("cannot create temporary file: ") + std::strerror(errno), path_);
        temp_path_ = templ;
        register_temp_path(temp_path_);
        fchmod(fd, mode);  // mkstemp made it 0600
    }
    open_stream(fd, gzip);
}

AtomicFile::AtomicFile(const DirHandle& dir, std::string name, std::string_view tag) : path_(dir.shown(name)) {
    check_component(name, dir.shown());
    struct stat st {};
    if (fstatat(dir.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) check_output_stat(st, path_);
    dir_fd_ = dup(dir.fd());
    if (dir_fd_ < 0) throw Error(std::string("cannot open the folder: ") + std::strerror(errno), dir.shown());
    // The writer's tag in the name: what a killed writer left is found by it.
    constexpr size_t kNameMax = 255;
    const std::string stem = "." + name + ".tmp." + std::string(tag) + ".";
    const std::string prefix = stem.size() + 6 <= kNameMax ? stem : ".nx.tmp." + std::string(tag) + ".";
    mode_t mask = umask(0);
    umask(mask);
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
        temp_name_ = prefix + random_suffix();
        fd = openat(dir_fd_, temp_name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666 & ~mask);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        int err = errno;
        close(dir_fd_);
        dir_fd_ = -1;
        throw Error(std::string("cannot create temporary file: ") + std::strerror(err), path_);
    }
    register_temp(dir_fd_, temp_name_);
    open_stream(fd, false);
}

void AtomicFile::open_stream(int fd, bool gzip) {
    if (gzip) {
        sync_fd_ = dup(fd);
        gz_ = gzdopen(fd, "wb6");
        if (!gz_ || sync_fd_ < 0) {
            if (!gz_) close(fd);
            if (gz_) gzclose(gz_);
            if (sync_fd_ >= 0) close(sync_fd_);
            discard_temp();
            throw Error("cannot open a gzip stream", path_);
        }
        out_ = std::make_unique<Output>(gz_, path_);
        return;
    }
    stream_ = fdopen(fd, "wb");
    if (!stream_) {
        int err = errno;
        close(fd);
        discard_temp();
        throw Error(std::string("cannot open: ") + std::strerror(err), path_);
    }
    out_ = std::make_unique<Output>(stream_, path_);
}

AtomicFile::~AtomicFile() {
    if (!committed_) {
        out_.reset();
        if (stream_) std::fclose(stream_);
        if (gz_) gzclose(gz_);
        if (sync_fd_ >= 0) close(sync_fd_);
        discard_temp();
    }
    if (dir_fd_ >= 0) close(dir_fd_);
}

void AtomicFile::discard_temp() {
    if (!temp_path_.empty()) {
        unlink(temp_path_.c_str());
        unregister_temp_path(temp_path_);
    }
    if (!temp_name_.empty() && dir_fd_ >= 0) {
        unlinkat(dir_fd_, temp_name_.c_str(), 0);
        unregister_temp(dir_fd_, temp_name_);
    }
}

void AtomicFile::move_into_place() {
    if (!temp_path_.empty()) {
        if (rename(temp_path_.c_str(), path_.c_str()) != 0)
            throw Error(std::string("cannot rename into place: ") + std::strerror(errno), path_);
        unregister_temp_path(temp_path_);
    }
    committed_ = true;
}

void AtomicFile::commit_as(std::string path) {
    if (temp_path_.empty()) throw Error("internal: a file written in place cannot be renamed", path_);
    path_ = std::move(path);
    commit();
}

void AtomicFile::close_and_sync(bool sync) {
    out_->close();
    if (gz_) {
        int rc = gzclose(gz_);
        gz_ = nullptr;
        bool synced = fsync(sync_fd_) == 0 || errno == EINVAL;  // EINVAL: a device or FIFO
        close(sync_fd_);
        sync_fd_ = -1;
        if (rc != Z_OK || !synced) throw Error("cannot write the gzip file", path_);
        return;
    }
    if (std::fflush(stream_) != 0) throw Error(std::string("cannot write: ") + std::strerror(errno), path_);
    if (sync && fsync(fileno(stream_)) != 0 && errno != EINVAL)
        throw Error(std::string("cannot write: ") + std::strerror(errno), path_);
    if (std::fclose(stream_) != 0) {
        stream_ = nullptr;
        throw Error(std::string("cannot write: ") + std::strerror(errno), path_);
    }
    stream_ = nullptr;
}

void AtomicFile::commit() {
    if (dir_fd_ >= 0) throw Error("internal: a folder's file is published, not committed", path_);
    close_and_sync();
    check_output_path(path_);  // inputs opened since the file was created
    move_into_place();
}

void AtomicFile::finish_temporary(bool sync) {
    if (dir_fd_ < 0) throw Error("internal: only a folder's file is finished as a temporary file", path_);
    if (finished_) return;
    close_and_sync(sync);
    finished_ = true;
}

void AtomicFile::publish(const DirHandle& to, std::string_view name) {
    if (!finished_ || committed_) throw Error("internal: a file published before it was finished", path_);
    const std::string final_name(name);
    check_component(final_name, to.shown());
    struct stat st {};
    if (fstatat(to.fd(), final_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) check_output_stat(st, to.shown(name));
    if (renameat(dir_fd_, temp_name_.c_str(), to.fd(), final_name.c_str()) != 0)
        throw Error(std::string("cannot rename into place: ") + std::strerror(errno), to.shown(name));
    unregister_temp(dir_fd_, temp_name_);
    path_ = to.shown(name);
    committed_ = true;
}

}  // namespace nx
