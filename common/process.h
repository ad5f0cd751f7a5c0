// Running external tools (neuron-profile, neuron-explorer, python drivers):
// argv without a shell, output captured so nx's own stdout stays data-only.
#pragma once

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

// Absolute path of an executable on PATH, or empty.
std::string find_on_path(const std::string& name);

// The last non-empty lines of a tool's output, for an error message.
std::string output_tail(const std::string& output, int lines = 3);

}  // namespace nx
