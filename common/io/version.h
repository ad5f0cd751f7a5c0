// nx's version, as the build stamps it (the Makefile passes VERSION as
// NX_VERSION): printed by --version, in HTML reports and in sim run records.
#pragma once

namespace nx {

const char* nx_version();

}  // namespace nx
