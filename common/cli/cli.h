// Command-line conventions shared by every nx tool (nx(7) and every tool's man page):
// Boost.ProgramOptions parsing with --help (stdout, exit 0) and --version,
// usage errors as "nx-TOOL: message" plus a hint (exit 2), and one place that
// turns exceptions into diagnostics and exit statuses.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace nx {

namespace po = boost::program_options;

// Relations between a tool's options, checked by parse_command_line so that
// every tool words them the same way.
struct OptionRule {
    // one_of: `option` lists options ("baseline,compare,study-diff,ranks")
    // of which at most one may be given (modes of one tool); `other` unused.
    enum Kind { conflicts, needs, one_of } kind;
    const char* option;  // "fail-on"
    const char* other;   // "baseline"
};

// "List and exit" is spelled --list KIND in every tool (--list alone: the
// tool's first kind).  `alias` is the older spelling kept for scripts
// ("list-formats", "rules"), or nullptr.
struct Listing {
    const char* kind;   // "formats"
    const char* alias;
    const char* what;   // "the input formats"
};

struct ToolSpec {
    const char* name;      // "nx-convert"
    const char* synopsis;  // "nx-convert [OPTIONS] [FILE...]" (may hold several lines)
    const char* summary;   // what the tool does, one paragraph
    const char* examples;  // shell examples shown by --help (and kept in the man page)
    std::span<const Listing> listings;        // what --list KIND prints; empty: no --list
    std::span<const OptionRule> option_rules;
};

// Parses argv against `options` plus the options every tool has, added
// here: --help, --version, --unbuffered (flush standard output after every
// record) and, when the spec has listings, --list [KIND] and its aliases.
// The spec's option rules are checked.
// Positional arguments, if `positional_name` is non-empty, are collected under it.
// Returns false when --help or --version was handled (the caller exits 0).
// Throws UsageError on a bad command line.
bool parse_command_line(int argc, char** argv, const ToolSpec& spec, po::options_description& options,
                        po::variables_map& vm, const char* positional_name = nullptr);

// Runs `body` as the tool's main: sets the program name, installs the signal
// handlers that remove temporary files, maps Error -> exit 1 with
// "nx-TOOL: FILE:LINE: message", UsageError -> exit 2 with a --help hint,
// BrokenPipe -> quiet exit 0, and checks that stdout was written completely.
// At the end it prints the error counters that are not zero and exits 1 when
// one of error severity is (records/error_counts.h).
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

// The listing --list (or an alias) asked for; empty when none.
std::string requested_listing(const po::variables_map& vm);

// Whether the user gave `option` (a bool_switch left false or a default
// value does not count).
bool given(const po::variables_map& vm, const char* option);

// Splits "k=v" (for --param and friends); throws UsageError naming the option.
std::pair<std::string, std::string> split_key_value(const std::string& text, const char* option);

}  // namespace nx
