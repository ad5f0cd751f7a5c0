#include "common/import/two_pass_input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/io/error.h"

namespace nx {

TwoPassInput::TwoPassInput(InputSource& in) : in_(in) {}

InputSource& TwoPassInput::first() {
    first_ = in_.reopen();
    if (first_) return *first_;
    // A stream: copy it, then read the copy twice.
    copy_ = std::make_unique<TempPath>(".json");
    std::FILE* f = std::fopen(copy_->path().c_str(), "wb");
    if (!f) throw Error("cannot write a temporary copy of the input: " + std::string(std::strerror(errno)), in_.name());
    std::vector<char> buf(1 << 20);
    int64_t newlines = 0;
    try {
        for (size_t got; (got = in_.read(buf.data(), buf.size())) > 0;) {
            if (std::fwrite(buf.data(), 1, got, f) != got)
                throw Error("cannot write a temporary copy of the input: " + std::string(std::strerror(errno)), in_.name());
            for (const char* p = buf.data(); (p = static_cast<const char*>(std::memchr(p, '\n', got - (p - buf.data()))));
                 ++p)
                ++newlines;
        }
    } catch (Error& e) {
        std::fclose(f);
        // The stream failed part way (a gzip cut short): the line it reached,
        // as the parser would have said.
        if (e.line() == 0) e.set_line(1 + newlines);
        throw;
    } catch (...) {
        std::fclose(f);
        throw;
    }
    if (std::fclose(f) != 0)
        throw Error("cannot write a temporary copy of the input: " + std::string(std::strerror(errno)), in_.name());
    first_ = InputSource::open_as(copy_->path(), in_.name());
    return *first_;
}

InputSource& TwoPassInput::second() {
    first_.reset();
    if (!copy_) return in_;
    second_ = InputSource::open_as(copy_->path(), in_.name());
    return *second_;
}

}  // namespace nx
