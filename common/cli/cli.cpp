#include "common/cli/cli.h"

#include <iostream>
#include <sstream>

#include "common/io/diag.h"
#include "common/io/exit_status.h"
#include "common/io/version.h"
#include "common/io/atomic_file.h"
#include "common/io/error.h"
#include "common/io/output.h"
#include "common/records/error_counts.h"

namespace nx {

namespace {

// "formats, queries" for --help and messages.
std::string listing_kinds(const ToolSpec& spec) {
    std::string kinds;
    for (const Listing& l : spec.listings) kinds += (kinds.empty() ? "" : ", ") + std::string(l.kind);
    return kinds;
}

// Where an alias's listing is noted in the variables map.
constexpr const char* kListAliasKey = "list (alias)";

// --list's kind must be one of the tool's; an alias counts as its --list.
void check_listing(po::variables_map& vm, const ToolSpec& spec) {
    std::string asked;
    int ways = 0;
    if (auto it = vm.find("list"); it != vm.end()) {
        asked = it->second.as<std::string>();
        ++ways;
        bool known = false;
        for (const Listing& l : spec.listings) known = known || asked == l.kind;
        if (!known) throw UsageError("--list takes one of: " + listing_kinds(spec) + " (got '" + asked + "')");
    }
    for (const Listing& l : spec.listings) {
        if (!l.alias || !given(vm, l.alias)) continue;
        ++ways;
        vm.insert({kListAliasKey, po::variable_value(std::string(l.kind), false)});
    }
    if (ways > 1) throw UsageError("one --list at a time");
}

}  // namespace

bool parse_command_line(int argc, char** argv, const ToolSpec& spec, po::options_description& options,
                        po::variables_map& vm, const char* positional_name) {
    po::options_description general("General options");
    general.add_options()
        ("help,h", "print this help and exit")
        ("version", "print the version and exit")
        ("unbuffered", po::bool_switch(), "flush standard output after every record");
    if (!spec.listings.empty()) {
        std::string kinds = listing_kinds(spec);
        general.add_options()("list", po::value<std::string>()->implicit_value(spec.listings.front().kind),
                              ("list KIND and exit: " + kinds + " (default " + spec.listings.front().kind + ")").c_str());
        for (const Listing& l : spec.listings)
            if (l.alias)
                general.add_options()(l.alias, po::bool_switch(),
                                      ("the same as --list " + std::string(l.kind) + ": " + l.what).c_str());
    }
    po::options_description all;
    all.add(options).add(general);

    po::positional_options_description positional;
    po::options_description hidden;
    if (positional_name) {
        positional.add(positional_name, -1);
        hidden.add_options()(positional_name, po::value<std::vector<std::string>>(), "");
        all.add(hidden);
    }
    try {
        po::store(po::command_line_parser(argc, argv)
                      .options(all)
                      .positional(positional)
                      .style(po::command_line_style::default_style &
                             ~po::command_line_style::allow_guessing)
                      .run(),
                  vm);
        if (vm.count("help")) {
            Output& out = Output::standard();
            out.write(std::string("Usage: ") + spec.synopsis + "\n\n" + spec.summary + "\n\n");
            std::ostringstream text;
            text << options << "\n" << general << "\n";
            out.write(text.str());
            out.write(std::string("Examples:\n") + spec.examples + "\n");
            out.write(std::string("See ") + spec.name + "(1) for the full manual.\n");
            return false;
        }
        if (vm.count("version")) {
            Output::standard().write(std::string(spec.name) + " (nx) " + nx_version() + "\n");
            return false;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    if (given(vm, "unbuffered")) Output::standard().set_unbuffered(true);
    check_listing(vm, spec);
    for (const OptionRule& r : spec.option_rules) {
        if (r.kind == OptionRule::one_of) {
            // The first two given, in the list's order: "--compare and --baseline".
            std::vector<std::string> chosen;
            std::string_view list = r.option;
            for (size_t at = 0; at <= list.size();) {
                size_t comma = std::min(list.find(',', at), list.size());
                std::string name(list.substr(at, comma - at));
                if (given(vm, name.c_str())) chosen.push_back(name);
                at = comma + 1;
            }
            if (chosen.size() > 1)
                throw UsageError("--" + chosen[1] + " and --" + chosen[0] + " cannot be used together");
            continue;
        }
        if (!given(vm, r.option)) continue;
        if (r.kind == OptionRule::conflicts && given(vm, r.other))
            throw UsageError(std::string("--") + r.option + " and --" + r.other + " cannot be used together");
        if (r.kind == OptionRule::needs && !given(vm, r.other))
            throw UsageError(std::string("--") + r.option + " needs --" + r.other);
    }
    return true;
}

bool given(const po::variables_map& vm, const char* option) {
    auto it = vm.find(option);
    if (it == vm.end() || it->second.defaulted()) return false;
    if (const bool* b = boost::any_cast<bool>(&it->second.value())) return *b;
    return true;
}

std::string requested_listing(const po::variables_map& vm) {
    auto it = vm.find("list");
    if (it != vm.end()) return it->second.as<std::string>();
    auto alias = vm.find(kListAliasKey);
    return alias != vm.end() ? alias->second.as<std::string>() : std::string();
}

int run_tool(const ToolSpec& spec, const std::function<int()>& body) {
    set_program_name(spec.name);
    install_cleanup_handlers();
    int status = kExitOk;
    try {
        status = body();
        Output::standard().close();
    } catch (const BrokenPipe&) {
        return kExitOk;
    } catch (const UsageError& e) {
        print_error(e.what());
        std::string hint = std::string("try '") + spec.name + " --help' for more information";
        print_note(hint);
        return kExitUsage;
    } catch (const Error& e) {
        print_error(e.what(), e.where(), e.line());
        status = kExitFailure;
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
        status = kExitFailure;
    } catch (const std::exception& e) {
        print_error(std::string("internal error: ") + e.what());
        status = kExitFailure;
    }
    try {
        Output::standard().close();
    } catch (const BrokenPipe&) {
    } catch (const Error& e) {
        print_error(e.what(), e.where());
        if (status == kExitOk) status = kExitFailure;
    }
    // What was skipped or failed on the way, counted (records/error_counts.h).
    error_counts().print_summary();
    if (error_counts().any_error() && status == kExitOk) status = kExitFailure;
    return status;
}

std::pair<std::string, std::string> split_key_value(const std::string& text, const char* option) {
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw UsageError(std::string("option '--") + option + "' expects KEY=VALUE, got '" + text + "'");
    return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace nx
