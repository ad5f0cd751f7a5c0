#include "common/io/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "common/io/error.h"
#include "common/io/file_guard.h"

namespace nx {

namespace {

// The signal handler may only use async-signal-safe calls, so the registry is a
// fixed table of C strings rather than a std::set.
constexpr int kMaxTempPaths = 64;
constexpr int kMaxPathLen = 4096;
char g_temp_paths[kMaxTempPaths][kMaxPathLen];
volatile sig_atomic_t g_temp_used[kMaxTempPaths];
std::mutex g_registry_mutex;

void cleanup_and_reraise(int sig) {
    for (int i = 0; i < kMaxTempPaths; ++i)
        if (g_temp_used[i]) unlink(g_temp_paths[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

}  // namespace

void register_temp_path(const std::string& path) {
    if (path.size() >= kMaxPathLen) return;
    std::lock_guard<std::mutex> lock(g_registry_mutex);
    for (int i = 0; i < kMaxTempPaths; ++i) {
        if (!g_temp_used[i]) {
            std::memcpy(g_temp_paths[i], path.c_str(), path.size() + 1);
            g_temp_used[i] = 1;
            return;
        }
    }
}

void unregister_temp_path(const std::string& path) {
    std::lock_guard<std::mutex> lock(g_registry_mutex);
    for (int i = 0; i < kMaxTempPaths; ++i) {
        if (g_temp_used[i] && path == g_temp_paths[i]) {
            g_temp_used[i] = 0;
            return;
        }
    }
}

void install_cleanup_handlers() {
    static bool installed = false;
    if (installed) return;
    installed = true;
    struct sigaction sa {};
    sa.sa_handler = cleanup_and_reraise;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    // Write errors on a closed pipe come back as EPIPE and end the tool quietly.
    signal(SIGPIPE, SIG_IGN);
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
    if (committed_) return;
    out_.reset();
    if (stream_) std::fclose(stream_);
    if (gz_) gzclose(gz_);
    if (sync_fd_ >= 0) close(sync_fd_);
    discard_temp();
}

void AtomicFile::discard_temp() {
    if (temp_path_.empty()) return;
    unlink(temp_path_.c_str());
    unregister_temp_path(temp_path_);
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

void AtomicFile::commit() {
    out_->close();
    check_output_path(path_);  // inputs opened since the file was created
    if (gz_) {
        int rc = gzclose(gz_);
        gz_ = nullptr;
        bool synced = fsync(sync_fd_) == 0 || errno == EINVAL;  // EINVAL: a device or FIFO
        close(sync_fd_);
        sync_fd_ = -1;
        if (rc != Z_OK || !synced) throw Error("cannot write the gzip file", path_);
        move_into_place();
        return;
    }
    if (fsync(fileno(stream_)) != 0 && errno != EINVAL)
        throw Error(std::string("cannot write: ") + std::strerror(errno), path_);
    if (std::fclose(stream_) != 0) {
        stream_ = nullptr;
        throw Error(std::string("cannot write: ") + std::strerror(errno), path_);
    }
    stream_ = nullptr;
    move_into_place();
}

}  // namespace nx
