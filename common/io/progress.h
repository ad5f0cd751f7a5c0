// Progress for long work on stderr, only when stderr is a terminal (or
// --progress forces it; --quiet silences it).  One line, rewritten in place.
#pragma once

#include <cstdint>
#include <string>

namespace nx {

class Progress {
public:
    // total: the number of items, 0 when unknown (a stream): "[3/8] x", "[3] x".
    // force: 1 --progress, -1 --quiet, 0 decide by the terminal.
    Progress(size_t total, int force);
    ~Progress();
    void step(const std::string& what);  // before working on item what
    // How far the current item got, for work measured in bytes and events
    // (a long import): "[2] trace.json  12.3 MiB of 40.0 MiB, 1,234,567
    // events, 3.1 MiB/s, ETA 9 s".  total_bytes 0: unknown (no share, no ETA);
    // bytes 0: events only (their rate instead).  `seconds`: time spent on
    // the item so far (0: no rate).
    void measure(const std::string& what, uint64_t bytes, uint64_t total_bytes, uint64_t events, double seconds);
    void done();                          // clears the line
    bool on() const { return on_; }

private:
    void show(const std::string& what);
    size_t total_, count_ = 0;
    bool on_;
    bool dirty_ = false;
};

}  // namespace nx
