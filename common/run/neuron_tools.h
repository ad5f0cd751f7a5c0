// The Neuron SDK's profiler CLI as nx uses it.  neuron-explorer superseded
// neuron-profile with the same sub-commands and flags, so whichever is on
// PATH is used (neuron-explorer first; NX_NEURON_PROFILER overrides).
//   view    -n NEFF -s NTFF --output-format json --output-file F
//   capture -n NEFF -s NTFF [--num-exec N] [--profile-nth-exec K] ...
#pragma once

#include <string>
#include <vector>

namespace nx {

// Path of the profiler tool; throws Error naming both tools when neither is found.
std::string neuron_profiler_tool();

// Whether the profiler tool writes Parquet: neuron-explorer does (its
// default, and from SDK 2.34 its only complete output); neuron-profile, the
// tool of older SDKs, writes JSON.
bool profiler_writes_parquet(const std::string& tool);

// Turns NTFF + NEFF into the JSON nx-convert reads (neuron-profile, which
// exits when it has written it).  Throws Error with the tool's last output
// lines on failure.  neuron-explorer's Parquet: convert/explorer_view.h.
void neuron_view_json(const std::string& tool, const std::string& neff, const std::string& ntff,
                      const std::string& out_json);

// Runs a capture; `extra` are passed through (multi-worker options, inputs).
void neuron_capture(const std::string& neff, const std::string& ntff, const std::vector<std::string>& extra);

}  // namespace nx
