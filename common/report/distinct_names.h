// Names shortened to what tells them apart: a thousand ranks' profile paths
// ("i-0abc_pid_4001/3418752096_instid_0_vnc_1") differ in a few words (the
// instance, the process, the core), which a table shows as
// "…pid_4001/…vnc_1" with the whole name on hover.
#pragma once

#include <string>
#include <vector>

namespace nx {

// Each name with the words every name shares left out: a shared run of
// words at the start, the end or between differing words becomes "…",
// keeping the word just before a differing one (its label: "pid", "vnc")
// and runs of at most kKeptRun characters; a differing word loses the start
// every name has there when it is longer than kKeptRun / 2 characters
// ("i-0000000000000057" among "i-00000000000000NN" is "i-…57").  Names that do not split into the
// same number of words lose their common prefix and suffix (cut at a word's
// edge) instead.  One name, or names all alike, stay whole.
std::vector<std::string> distinct_names(const std::vector<std::string>& names);

inline constexpr size_t kKeptRun = 8;

}  // namespace nx
