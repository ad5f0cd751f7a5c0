// Where nx finds its data files (named queries, calibration points) at run
// time: $NX_DATA_DIR, then <prefix>/share/nx next to the installed binary,
// then the source tree the binary was built in (build/bin/../..).
#pragma once

#include <string>

namespace nx {

// Directory holding `relative` (e.g. "queries"), or empty when none does.
std::string find_data_path(const std::string& relative);

}  // namespace nx
