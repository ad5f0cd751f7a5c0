// Diagnostics on stderr in the form every nx tool uses:
//   nx-convert: profile.json:12: expected an array for "instruction"
// stdout carries only data, so everything a person should read goes here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nx {

void set_program_name(std::string_view name);
const std::string& program_name();

// "PROGRAM: WHERE:LINE: message\n" on stderr; empty where/zero line are left out.
void print_error(std::string_view message, const std::string& where = {}, int64_t line = 0);
void print_warning(std::string_view message, const std::string& where = {}, int64_t line = 0);
// A plain note ("PROGRAM: message"), e.g. counts of skipped records.
void print_note(std::string_view message);

bool stderr_is_terminal();
bool stdout_is_terminal();

}  // namespace nx
