#include "common/io/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/file_guard.h"

namespace nx {

std::unique_ptr<InputSource> InputSource::open(const std::string& path) {
    return open_as(path, path == "-" ? "<stdin>" : path);
}

std::unique_ptr<InputSource> InputSource::open_as(const std::string& path, std::string name) {
    // A tool left waiting on a terminal looks hung: say what it waits for.
    static bool told = false;
    if (path == "-" && !told && isatty(STDIN_FILENO) == 1) {
        told = true;
        print_note("reading standard input; Ctrl-D to end");
    }
    int fd = path == "-" ? dup(STDIN_FILENO) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(std::string("cannot open: ") + std::strerror(errno), name);
    guard_input_fd(fd, name);
    struct stat st {};
    bool regular = path != "-" && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (regular) {
        unsigned char magic[2] = {0, 0};
        if (pread(fd, magic, 2, 0) != 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
            std::unique_ptr<InputSource> in;
            try {
                in.reset(new InputSource(nullptr, path, std::move(name)));
            } catch (...) {
                close(fd);
                throw;
            }
            in->plain_fd_ = fd;
            in->regular_file_ = true;
            return in;
        }
    }
    gzFile file = gzdopen(fd, "rb");
    if (!file) {
        close(fd);
        throw Error("cannot open: out of memory", name);
    }
    gzbuffer(file, 1 << 18);
    auto in = std::unique_ptr<InputSource>(new InputSource(file, path, std::move(name)));
    in->regular_file_ = regular;
    return in;
}

std::unique_ptr<InputSource> InputSource::reopen() const {
    if (!file_ && plain_fd_ < 0) return from_memory(memory_, name_);
    if (!regular_file_) return nullptr;
    return open_as(path_, name_);
}

std::unique_ptr<InputSource> InputSource::from_memory(std::string data, std::string name) {
    auto in = std::unique_ptr<InputSource>(new InputSource(nullptr, name, name));
    in->memory_ = std::move(data);
    return in;
}

InputSource::InputSource(gzFile file, std::string path, std::string name)
    : file_(file), path_(std::move(path)), name_(std::move(name)) {}

InputSource::~InputSource() {
    if (file_) gzclose(file_);
    if (plain_fd_ >= 0) close(plain_fd_);
}

size_t InputSource::read_raw(char* buf, size_t n) {
    if (pending_) {
        Error e = *pending_;
        pending_.reset();
        throw e;
    }
    if (plain_fd_ >= 0) {
        size_t total = 0;
        while (total < n) {
            ssize_t got = ::read(plain_fd_, buf + total, std::min<size_t>(n - total, size_t{1} << 30));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) {
                Error failure(std::string("cannot read: ") + std::strerror(errno), name_);
                if (total == 0) throw failure;
                pending_ = std::make_unique<Error>(failure);
                break;
            }
            if (got == 0) break;
            total += static_cast<size_t>(got);
        }
        return total;
    }
    if (!file_) {
        size_t got = std::min(n, memory_.size() - memory_pos_);
        std::memcpy(buf, memory_.data() + memory_pos_, got);
        memory_pos_ += got;
        return got;
    }
    size_t total = 0;
    while (total < n) {
        unsigned chunk = static_cast<unsigned>(std::min<size_t>(n - total, 1u << 30));
        int got = gzread(file_, buf + total, chunk);
        std::optional<Error> failure;
        if (got < 0) {
            int errnum = 0;
            const char* msg = gzerror(file_, &errnum);
            if (errnum == Z_ERRNO) failure = Error(std::string("cannot read: ") + std::strerror(errno), name_);
            else failure = Error(std::string("damaged gzip data: ") + (msg ? msg : "unknown error"), name_);
        } else if (got == 0) {
            int errnum = 0;
            const char* msg = gzerror(file_, &errnum);
            // zlib reports a cut-short gzip member as Z_BUF_ERROR at end of input.
            if (errnum == Z_BUF_ERROR) failure = Error("truncated gzip data (unexpected end of file)", name_);
            else if (errnum != Z_OK) failure = Error(std::string("damaged gzip data: ") + (msg ? msg : "unknown"), name_);
            else break;
        }
        if (failure) {
            if (total == 0) throw *failure;
            pending_ = std::make_unique<Error>(*failure);
            break;
        }
        total += static_cast<size_t>(got);
    }
    return total;
}

uint64_t InputSource::position() const {
    if (plain_fd_ >= 0) {
        off_t at = lseek(plain_fd_, 0, SEEK_CUR);
        return at > 0 ? static_cast<uint64_t>(at) : 0;
    }
    if (!file_) return memory_pos_;
    z_off_t at = gzoffset(file_);
    return at > 0 ? static_cast<uint64_t>(at) : 0;
}

size_t InputSource::read(char* buf, size_t n) {
    size_t total = 0;
    if (lookahead_pos_ < lookahead_.size()) {
        total = std::min(n, lookahead_.size() - lookahead_pos_);
        std::memcpy(buf, lookahead_.data() + lookahead_pos_, total);
        lookahead_pos_ += total;
        if (lookahead_pos_ == lookahead_.size()) {
            lookahead_.clear();
            lookahead_pos_ = 0;
        }
    }
    if (total < n) total += read_raw(buf + total, n - total);
    return total;
}

std::string_view InputSource::peek(size_t n) {
    size_t have = lookahead_.size() - lookahead_pos_;
    if (have < n) {
        if (lookahead_pos_ > 0) {
            lookahead_.erase(0, lookahead_pos_);
            lookahead_pos_ = 0;
        }
        // Read in chunks so that a stream failing part way (a gzip cut
        // short) still tells which line it reached.
        constexpr size_t kChunk = 1 << 14;
        while (lookahead_.size() < n) {
            size_t old = lookahead_.size();
            size_t want = std::min(kChunk, n - old);
            lookahead_.resize(old + want);
            size_t got;
            try {
                got = read_raw(lookahead_.data() + old, want);
            } catch (Error& e) {
                lookahead_.resize(old);
                if (e.line() == 0) e.set_line(1 + std::count(lookahead_.begin(), lookahead_.end(), '\n'));
                throw;
            }
            lookahead_.resize(old + got);
            if (got < want) break;
        }
        have = lookahead_.size();
    }
    return std::string_view(lookahead_.data() + lookahead_pos_, std::min(n, have));
}

void InputSource::skip(size_t n) {
    std::string_view head = peek(n);
    if (head.size() < n) throw Error("internal: skipping past the end of the input", name_);
    lines_skipped_ += std::count(head.begin(), head.end(), '\n');
    lookahead_pos_ += n;
}

}  // namespace nx
