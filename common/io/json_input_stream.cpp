// JsonInputStream (json_input_stream.h): buffer refills, line counting and
// the plain-run scan.
#include "common/io/json_input_stream.h"

#include "common/io/error.h"
#include "common/io/json_text.h"
#include "common/io/limits.h"

namespace nx {

JsonInputStream::JsonInputStream(InputSource& source, size_t buffer_size)
    : source_(source), size_(buffer_size), buffer_(new char[buffer_size + 1]), lines_before_(source.lines_skipped()) {
    current_ = buffer_.get();
    last_ = buffer_.get();
    *current_ = '\0';
    read_count_ = 0;
    refill();
    // A UTF-8 byte-order mark is not JSON: step over it.
    if (read_count_ >= 3 && std::memcmp(buffer_.get(), "\xEF\xBB\xBF", 3) == 0) current_ += 3;
}

void JsonInputStream::refill() {
    if (eof_) return;
    if (token_limit_ > 0 && Tell() - mark_ > token_limit_)
        throw Error("a JSON string or value longer than the limit of " + max_record_text(), source_.name(), line());
    // Count the newlines of the buffer we are leaving (line() has usually
    // counted most of it already); line() counts the rest of the new one.
    if (read_count_ > 0) {
        current_ = buffer_.get() + read_count_;
        line();
        lines_before_ += counted_lines_;
        consumed_before_ += read_count_;
    }
    try {
        read_count_ = source_.read(buffer_.get(), size_);
    } catch (Error& e) {
        // The input failed under us (a gzip cut short): say which line it reached.
        if (e.line() == 0) e.set_line(1 + lines_before_);
        throw;
    }
    current_ = buffer_.get();
    counted_to_ = buffer_.get();
    counted_lines_ = 0;
    last_ = buffer_.get() + read_count_ - 1;
    // A short read with an error behind it is not the end: the next refill
    // raises the error, at the line the parser reached.
    if (read_count_ < size_ && !source_.has_pending_error()) {
        // A '\0' after the data tells the reader the input ended.
        buffer_[read_count_] = '\0';
        ++last_;
        eof_ = true;
    }
}

int64_t JsonInputStream::line() const {
    const char* p = counted_to_ ? counted_to_ : buffer_.get();
    if (p > current_) p = buffer_.get(), counted_lines_ = 0;
    while (p < current_) {
        const void* nl = std::memchr(p, '\n', static_cast<size_t>(current_ - p));
        if (!nl) {
            p = current_;
            break;
        }
        ++counted_lines_;
        p = static_cast<const char*>(nl) + 1;
    }
    counted_to_ = p;
    return 1 + lines_before_ + counted_lines_;
}

size_t JsonInputStream::plain_run_length() const {
    // The last byte is left to Take(), which refills after it.
    return json_plain_prefix(current_, last_);
}

}  // namespace nx
