#include "common/cli.h"

#include <iostream>
#include <sstream>

#include "common/atomic_file.h"
#include "common/diag.h"
#include "common/error.h"
#include "common/exit_status.h"
#include "common/output.h"

#ifndef NX_VERSION
#define NX_VERSION "0.0.0"
#endif

namespace nx {

bool parse_command_line(int argc, char** argv, const ToolSpec& spec, po::options_description& options,
                        po::variables_map& vm, const char* positional_name) {
    po::options_description general("General options");
    general.add_options()
        ("help,h", "print this help and exit")
        ("version", "print the version and exit");
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
            Output::standard().write(std::string(spec.name) + " (nx) " + NX_VERSION + "\n");
            return false;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    return true;
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
    return status;
}

void conflicting_options(const po::variables_map& vm, const char* a, const char* b) {
    if (vm.count(a) && !vm[a].defaulted() && vm.count(b) && !vm[b].defaulted())
        throw UsageError(std::string("options '--") + a + "' and '--" + b + "' cannot be used together");
}

std::pair<std::string, std::string> split_key_value(const std::string& text, const char* option) {
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw UsageError(std::string("option '--") + option + "' expects KEY=VALUE, got '" + text + "'");
    return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace nx
