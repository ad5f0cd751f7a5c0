// Findings fitted to a kernel, or a region of one, that runs no matmul (an
// element-wise kernel, a reduction, a copy): its tensor engine is idle because
// there is nothing for it to do, so "the tensor engine is busy less than half the time: restructure
// matmuls" would send the user after matmuls that do not exist.  The two
// tensor-engine utilisation findings stay (a gate or a filter by rule still
// sees them) but say so, at info severity.
#pragma once

#include <vector>

#include "common/profile/profile.h"
#include "common/profile/rules.h"

namespace nx {

// True when the profile's instructions show TensorE running no matmul: a
// matmul_instruction_count of 0 and no hardware FLOPs.  False when the
// profile does not say (a summary without instructions).
bool runs_no_matmul(const ProfileSummary& s);

// Rewrites tensor_engine_idle and tensor_engine_underused for such a profile
// and ranks the findings again; other findings and other profiles are left as
// they are.
void fit_findings_to_matmul_free(std::vector<Finding>& findings, const ProfileSummary& s);

}  // namespace nx
