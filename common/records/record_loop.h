// The one loop over an input's JSONL records, with --keep-going's policy in
// one place: each line is parsed as a JSON object and handed to `each`; an
// Error (from the parse or from `each`) is the input's error at that line
// (its file and line filled in when the Error has none) or, with keep_going,
// counted as `kind` in error_counts() and the loop goes on.  Used by nx-run
// (workloads), nx-capture (runs), nx-convert (run and capture records) and
// nx-report (any records).
#pragma once

#include <rapidjson/document.h>

#include <functional>
#include <string>

#include "common/io/input.h"
#include "common/records/error_counts.h"

namespace nx {

using RecordFunction = std::function<void(rapidjson::Document& record, const std::string& text, int64_t line)>;

void for_each_record(InputSource& in, bool keep_going, const RecordFunction& each,
                     ErrorKind kind = ErrorKind::bad_record);

}  // namespace nx
