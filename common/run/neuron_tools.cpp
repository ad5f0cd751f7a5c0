#include "common/run/neuron_tools.h"

#include <cstdlib>

#include "common/io/error.h"
#include "common/io/process.h"

namespace nx {

std::string neuron_profiler_tool() {
    if (const char* forced = std::getenv("NX_NEURON_PROFILER"); forced && *forced) {
        std::string p = find_on_path(forced);
        if (p.empty()) throw Error(std::string("NX_NEURON_PROFILER names '") + forced + "', which is not an executable");
        return p;
    }
    for (const char* name : {"neuron-explorer", "neuron-profile"}) {
        std::string p = find_on_path(name);
        if (!p.empty()) return p;
    }
    // The tools package installs here; it is often not on PATH.
    for (const char* p : {"/opt/aws/neuron/bin/neuron-explorer", "/opt/aws/neuron/bin/neuron-profile"}) {
        std::string found = find_on_path(p);
        if (!found.empty()) return found;
    }
    throw Error("neither neuron-explorer nor neuron-profile is on PATH (install aws-neuronx-tools)");
}

bool profiler_writes_parquet(const std::string& tool) {
    std::string base = tool.substr(tool.find_last_of('/') == std::string::npos ? 0 : tool.find_last_of('/') + 1);
    return base == "neuron-explorer";
}

void neuron_view_json(const std::string& tool, const std::string& neff, const std::string& ntff,
                      const std::string& out_json) {
    ProcessResult r = run_process({tool, "view", "-n", neff, "-s", ntff, "--output-format", "json", "--output-file", out_json});
    if (r.status != 0)
        throw Error(tool + " view failed (exit " + std::to_string(r.status) + "): " + output_tail(r.output), ntff);
}

void neuron_capture(const std::string& neff, const std::string& ntff, const std::vector<std::string>& extra) {
    std::string tool = neuron_profiler_tool();
    std::vector<std::string> argv = {tool, "capture", "-n", neff, "-s", ntff};
    argv.insert(argv.end(), extra.begin(), extra.end());
    ProcessResult r = run_process(argv);
    if (r.status != 0)
        throw Error(tool + " capture failed (exit " + std::to_string(r.status) + "): " + output_tail(r.output), neff);
}

}  // namespace nx
