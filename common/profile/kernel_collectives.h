// The collective operation a communication kernel of a Kineto trace runs
// (NCCL's ncclKernel_* and ncclDevKernel_*, RCCL's, oneCCL's): which
// collective, its size, its process group and its sequence number there, as
// PyTorch writes them in the kernel's args ("Collective name",
// "In msg nelems", "dtype", "Process Group Name", "Seq"), else what the
// kernel's name says.  nx-report --ranks matches these across ranks by
// process group and sequence (rank_analysis.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/profile/event.h"
#include "common/profile/profile.h"

namespace nx {

// The collective a communication kernel's name says: the word after the
// library's prefix ("AllReduce" of ncclDevKernel_AllReduce_Sum_f32_RING_LL),
// or the name itself when it says none.
std::string_view collective_of_kernel_name(std::string_view name);

// The operation of a device event whose name is a communication kernel's
// (device_streams.h classify_device_work); none for other events.  Its name
// is "nccl:" (NCCL's and RCCL's; "ccl:" oneCCL's) and the collective in
// lower case without separators ("nccl:allreduce"), the same on every rank
// whichever way the kernel is named.
std::optional<CollectiveOp> collective_of_kernel(const Event& e);

}  // namespace nx
