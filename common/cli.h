// Command-line conventions shared by every nx tool (DESIGN.md "CLI conventions"):
// Boost.ProgramOptions parsing with --help (stdout, exit 0) and --version,
// usage errors as "nx-TOOL: message" plus a hint (exit 2), and one place that
// turns exceptions into diagnostics and exit statuses.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <string>
#include <vector>

namespace nx {

namespace po = boost::program_options;

struct ToolSpec {
    const char* name;      // "nx-convert"
    const char* synopsis;  // "nx-convert [OPTIONS] [FILE...]" (may hold several lines)
    const char* summary;   // what the tool does, one paragraph
    const char* examples;  // shell examples shown by --help (and kept in the man page)
};

// Parses argv against `options` (plus --help and --version, added here).
// Positional arguments, if `positional_name` is non-empty, are collected under it.
// Returns false when --help or --version was handled (the caller exits 0).
// Throws UsageError on a bad command line.
bool parse_command_line(int argc, char** argv, const ToolSpec& spec, po::options_description& options,
                        po::variables_map& vm, const char* positional_name = nullptr);

// Runs `body` as the tool's main: sets the program name, installs the signal
// handlers that remove temporary files, maps Error -> exit 1 with
// "nx-TOOL: FILE:LINE: message", UsageError -> exit 2 with a --help hint,
// BrokenPipe -> quiet exit 0, and checks that stdout was written completely.
int run_tool(const ToolSpec& spec, const std::function<int()>& body);

// A tool's main: parse (returns std::nullopt after --help/--version), then
// run with the options, inside run_tool.
//   int main(int argc, char** argv) { return nx::tool_main(kSpec, argc, argv, parse, run); }
template <typename Parse, typename Run>
int tool_main(const ToolSpec& spec, int argc, char** argv, Parse&& parse, Run&& run) {
    return run_tool(spec, [&] {
        auto options = parse(argc, argv);
        return options ? run(*options) : 0;
    });
}

// Throws UsageError when both options were given.
void conflicting_options(const po::variables_map& vm, const char* a, const char* b);

// Splits "k=v" (for --param and friends); throws UsageError naming the option.
std::pair<std::string, std::string> split_key_value(const std::string& text, const char* option);

}  // namespace nx
