// Log lines before a JSON document.  neuron-profile and neuron-explorer are Go
// programs that log with logrus on stderr (`time="2026-03-18T18:37:08Z"
// level=info msg="..."`, or `INFO[0000] ...` on a terminal); a user who
// captures stdout and stderr together (`> out.json 2>&1`, a notebook cell)
// gets those lines first, then the summary-json (real-samples/summary-json).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace nx {

struct LogPrefix {
    size_t bytes = 0;   // to skip: the log lines with their newlines
    int64_t lines = 0;
};

// The log lines that open `head`, when every line before the first one
// starting with '{' is a logrus line; none otherwise (a text that is not a
// logged JSON document is left for its format to refuse).
LogPrefix leading_log_lines(std::string_view head);

}  // namespace nx
