#include "common/cli/progress.h"

#include <cstdio>

#include "common/cli/diag.h"

namespace nx {

Progress::Progress(size_t total, int force) : total_(total), on_(force > 0 || (force == 0 && stderr_is_terminal())) {}

Progress::~Progress() { done(); }

void Progress::step(const std::string& what) {
    ++count_;
    if (!on_) return;
    // A stream's length is not known in advance (total 0): the count alone.
    std::string count = std::to_string(count_) + (total_ ? "/" + std::to_string(total_) : std::string());
    std::string line = "\r" + program_name() + ": [" + count + "] " + what;
    if (line.size() > 100) line.resize(100);
    line += "\033[K";
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    dirty_ = true;
}

void Progress::done() {
    if (on_ && dirty_) std::fputs("\r\033[K", stderr);
    dirty_ = false;
}

}  // namespace nx
