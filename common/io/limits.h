// Sizes nx reads whole, and the knob that overrides them (nx(7), LIMITS).
//
// A record line, a JSON string or other single JSON token, a carried value, an
// SQL file (nx-query --file) and a sequence-length distribution
// (nx-report --seq-dist) are held in memory whole, so each is capped at
// max_record_bytes(): 64 MiB unless NX_MAX_RECORD_MIB says otherwise.
// Nesting is capped separately (kMaxJsonDepth in jsonl.h).
#pragma once

#include <cstddef>
#include <string>

namespace nx {

constexpr size_t kDefaultMaxRecordMiB = 64;

// The cap in bytes (NX_MAX_RECORD_MIB, a whole number of MiB >= 1, or the default).
size_t max_record_bytes();
// "64 MiB (NX_MAX_RECORD_MIB)": for messages.
std::string max_record_text();
// Reads a whole (small) file; throws Error naming `path` when it cannot be read
// or is larger than max_record_bytes().  "-" is stdin.
std::string read_whole_file(const std::string& path);

}  // namespace nx
