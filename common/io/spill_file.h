// Scratch files for data that outgrows a bounded memory budget (the trace
// spool's runs, the slice layout's sorted runs): unlinked as soon as they are
// made, so nothing is left behind whatever happens to the process.
#pragma once

#include <cstdio>
#include <string_view>

namespace nx {

// An unlinked temporary file in $TMPDIR (default /tmp), open for reading and
// writing.  `what` names its use in the error when it cannot be made
// ("trace", "slice layout").
std::FILE* open_spill_file(std::string_view what);

}  // namespace nx
