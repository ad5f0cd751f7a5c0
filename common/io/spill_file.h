// Scratch files for data that outgrows a bounded memory budget (the trace
// spool's runs, the slice layout's sorted runs, interval unions' runs):
// unlinked as soon as they are made, so nothing is left behind whatever
// happens to the process; and the reader of a run of fixed-size records.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/io/error.h"

namespace nx {

// An unlinked temporary file in $TMPDIR (default /tmp), open for reading and
// writing.  `what` names its use in the error when it cannot be made
// ("trace", "slice layout", "engine busy intervals").
std::FILE* open_spill_file(std::string_view what);

// One run of `count` records of T written at `offset` of a scratch file,
// read back in order through a buffer of `buffer_records`.  The file is
// shared by several readers: each seeks before it reads.  A failed or short
// read throws Error("<cannot_read>: <why>").
template <class T>
class SpilledRunReader {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    SpilledRunReader(std::FILE* f, long offset, size_t count, size_t buffer_records, std::string cannot_read)
        : file_(f), next_(offset), left_(count), cap_(std::max<size_t>(buffer_records, 1)),
          cannot_read_(std::move(cannot_read)) {}

    bool next(T& out) {
        if (at_ == buf_.size()) {
            size_t n = std::min(cap_, left_);
            if (n == 0) return false;
            buf_.resize(n);
            at_ = 0;
            if (std::fseek(file_, next_, SEEK_SET) != 0 || std::fread(buf_.data(), sizeof(T), n, file_) != n)
                throw Error(cannot_read_ + ": " + (std::feof(file_) ? std::string("it is truncated") : std::strerror(errno)));
            next_ += static_cast<long>(n * sizeof(T));
            left_ -= n;
        }
        out = buf_[at_++];
        return true;
    }

private:
    std::FILE* file_;
    long next_;
    size_t left_;
    size_t cap_;
    std::string cannot_read_;
    std::vector<T> buf_;
    size_t at_ = 0;
};

}  // namespace nx
