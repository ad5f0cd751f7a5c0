// A PyTorch profiler trace's "distributedInfo": which worker of a
// torch.distributed job wrote it ({"backend": "gloo", "rank": 34,
// "world_size": 300, "pg_config": [...]}).  The Chrome importer takes the
// profile's rank from it; the fan-out plan (convert/fanout_plan.h) reads it
// from each trace of a capture tree, so each lands in its rank's partition.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nx {

struct DistributedInfo {
    bool present = false;
    int64_t rank = -1;        // -1: not given (or not a rank)
    int64_t world_size = -1;  // -1: not given
    std::string backend;

    // {"backend":...,"rank":...,"world_size":...}, null for what is not given.
    std::string json() const;
};

// From the value's JSON text; not present when it is not an object.
DistributedInfo parse_distributed_info(std::string_view json);

// From the trace at `path` (.gz too), reading only what comes before its
// "traceEvents" (PyTorch writes distributedInfo first), and at most the
// first kHeadBytes of it: a trace of any size costs its head.  Not present
// when the trace has none there (or is a bare array); a file that is not
// JSON is an Error naming it.
inline constexpr uint64_t kHeadBytes = uint64_t{4} << 20;
DistributedInfo read_distributed_info(const std::string& path);

}  // namespace nx
