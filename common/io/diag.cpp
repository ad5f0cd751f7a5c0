#include "common/io/diag.h"

#include <unistd.h>

#include <cstdio>

#include "common/io/error.h"

namespace nx {

namespace {
std::string& name_storage() {
    static std::string name = "nx";
    return name;
}

void emit(std::string_view kind, std::string_view message, const std::string& where, int64_t line) {
    std::string text = name_storage() + ": " + location_prefix(where, line);
    text += kind;
    text += message;
    text += '\n';
    std::fwrite(text.data(), 1, text.size(), stderr);
}
}  // namespace

std::string location_prefix(const std::string& where, int64_t line) {
    if (where.empty()) return {};
    if (line > 0) return where + ":" + std::to_string(line) + ": ";
    return where + ": ";
}

void set_program_name(std::string_view name) { name_storage() = std::string(name); }
const std::string& program_name() { return name_storage(); }

void print_error(std::string_view message, const std::string& where, int64_t line) {
    emit("", message, where, line);
}
void print_warning(std::string_view message, const std::string& where, int64_t line) {
    emit("warning: ", message, where, line);
}
void print_note(std::string_view message) { emit("", message, {}, 0); }

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }
bool stdout_is_terminal() { return isatty(STDOUT_FILENO) == 1; }

}  // namespace nx
