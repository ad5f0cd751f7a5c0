#include "common/io/output.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/io/error.h"

namespace nx {

namespace {
constexpr size_t kFlushThreshold = 1 << 16;
}

Output::Output() : Output(stdout, "<stdout>") {}

Output::Output(std::FILE* stream, std::string name) : stream_(stream), name_(std::move(name)) {
    buffer_.reserve(kFlushThreshold * 2);
}

Output::Output(gzFile gz, std::string name) : gz_(gz), name_(std::move(name)) { buffer_.reserve(kFlushThreshold * 2); }

Output::~Output() {
    // Errors were reported by close(); a destructor must not throw.
    if (!closed_) {
        try {
            drain();
            if (stream_) std::fflush(stream_);
        } catch (...) {
        }
    }
}

Output& Output::standard() {
    static Output out;
    return out;
}

void Output::write(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kFlushThreshold) drain();
}

void Output::end_record() {
    if (unbuffered_) flush();
}

void Output::drain() {
    if (failed_) buffer_.clear();
    if (buffer_.empty()) return;
    if (gz_) {
        if (gzwrite(gz_, buffer_.data(), static_cast<unsigned>(buffer_.size())) != static_cast<int>(buffer_.size())) {
            int errnum = 0;
            const char* msg = gzerror(gz_, &errnum);
            if (errnum == Z_ERRNO) check();
            failed_ = true;
            buffer_.clear();
            throw Error(std::string("cannot write: ") + (msg ? msg : "gzip error"), name_);
        }
    } else {
        size_t n = std::fwrite(buffer_.data(), 1, buffer_.size(), stream_);
        if (n != buffer_.size()) check();
    }
    buffer_.clear();
}

void Output::flush() {
    drain();
    if (failed_) return;
    if (stream_ && std::fflush(stream_) != 0) check();
}

void Output::check() {
    int err = errno;
    failed_ = true;
    buffer_.clear();
    if (err == EPIPE) throw BrokenPipe();
    throw Error(std::string("cannot write: ") + std::strerror(err), name_);
}

void Output::close() {
    if (closed_) return;
    if (failed_) {
        closed_ = true;
        return;
    }
    flush();
    if (stream_ && std::ferror(stream_)) check();
    closed_ = true;
}

bool Output::is_terminal() const { return stream_ && isatty(fileno(stream_)) == 1; }

}  // namespace nx
