// Progress for long work on stderr, only when stderr is a terminal (or
// --progress forces it; --quiet silences it).  One line, rewritten in place.
#pragma once

#include <string>

namespace nx {

class Progress {
public:
    // total: the number of items, 0 when unknown (a stream): "[3/8] x", "[3] x".
    // force: 1 --progress, -1 --quiet, 0 decide by the terminal.
    Progress(size_t total, int force);
    ~Progress();
    void step(const std::string& what);  // before working on item what
    void done();                          // clears the line

private:
    size_t total_, count_ = 0;
    bool on_;
    bool dirty_ = false;
};

}  // namespace nx
