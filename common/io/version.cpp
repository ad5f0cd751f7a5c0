// The one place NX_VERSION is read (version.h); a build without it says 0.0.0.
#include "common/io/version.h"

#ifndef NX_VERSION
#define NX_VERSION "0.0.0"
#endif

namespace nx {

const char* nx_version() { return NX_VERSION; }

}  // namespace nx
