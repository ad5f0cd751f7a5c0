// An input an importer reads twice: a quick first pass that collects what the
// source writes late (Chrome traces name their threads and processes in "M"
// events at the end of the file, after the events that use them) and the
// import pass proper.
//
// A regular file (plain or gzip) is simply opened a second time, so memory
// and disk stay as they were.  Standard input and pipes cannot be read
// again: their bytes (decompressed) are copied to a temporary file first,
// which is removed when this goes out of scope, on an error too, and by the
// signal handlers if the tool is killed.  Errors name the original input
// ("<stdin>"), never the copy.
#pragma once

#include <memory>

#include "common/io/input.h"
#include "common/io/temp_path.h"

namespace nx {

class TwoPassInput {
public:
    // Takes over `in` (nothing of it may have been read yet but peeked bytes).
    explicit TwoPassInput(InputSource& in);
    TwoPassInput(const TwoPassInput&) = delete;
    TwoPassInput& operator=(const TwoPassInput&) = delete;

    // The first pass's reader; call once.
    InputSource& first();
    // The second pass's reader, from the start again; call once, after the
    // first pass.
    InputSource& second();

private:
    InputSource& in_;
    std::unique_ptr<TempPath> copy_;
    std::unique_ptr<InputSource> first_, second_;
};

}  // namespace nx
