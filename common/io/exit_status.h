// Exit statuses shared by every nx tool.
// Documented in each man page under EXIT STATUS.
#pragma once

namespace nx {

enum ExitStatus : int {
    kExitOk = 0,       // the work was done
    kExitFailure = 1,  // the work failed: bad input, device or backend error
    kExitUsage = 2,    // the command line was wrong
    kExitGate = 3,     // a regression gate tripped (nx-report --fail-on)
};

}  // namespace nx
