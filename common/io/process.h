// Running external tools (neuron-profile, neuron-explorer, python drivers):
// argv without a shell, output captured so nx's own stdout stays data-only.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nx {

struct ProcessResult {
    int status = -1;        // exit status, or 128+signal
    std::string output;     // stdout and stderr interleaved (last 64 KiB)
};

// Runs argv[0] found on PATH.  `env` adds "K=V" entries to the environment.
// Throws Error when the program cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});

// A child whose stdin we write and whose stdout we read line by line (its
// stderr is ours, so its diagnostics reach the user).  The destructor kills
// a child still running.
class ChildProcess {
public:
    ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    void write_stdin(const std::string& text);  // throws Error if the child is gone
    void close_stdin();
    bool read_line(std::string& line);           // false at end of output
    void kill();                                 // SIGTERM, and stop reading its output
    int wait();                                  // exit status, or 128+signal

private:
    int pid_ = -1;
    int in_ = -1, out_ = -1;
    std::string buffer_;
    bool eof_ = false;
    bool waited_ = false;
    int status_ = -1;
};

// A program left running while nx watches what it writes: a viewer that may
// never exit by itself (neuron-explorer `view` keeps serving its UI after
// writing the tables).  It runs in a process group of its own, so stopping
// it ends whatever it started too; its stdout and stderr go to a file (a
// pipe nobody reads would block it).  The destructor stops it: nx never
// leaves it running.
class BackgroundProcess {
public:
    explicit BackgroundProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});
    BackgroundProcess(const BackgroundProcess&) = delete;
    BackgroundProcess& operator=(const BackgroundProcess&) = delete;
    ~BackgroundProcess();

    // Its exit status (or 128+signal) once it has exited; nullopt while it runs.
    std::optional<int> poll();
    // SIGTERM to its process group, SIGKILL after `grace_ms` if anything of
    // it is still there; returns once it is reaped.
    void stop(int grace_ms = 2000);
    // The last lines of its output (output_tail).
    std::string output_tail(int lines = 3) const;

private:
    int pid_ = -1;
    bool done_ = false;
    int status_ = -1;
    std::string log_;  // its output
};

// Absolute path of an executable on PATH, or empty.
std::string find_on_path(const std::string& name);

// The last non-empty lines of a tool's output, for an error message.
std::string output_tail(const std::string& output, int lines = 3);

}  // namespace nx
