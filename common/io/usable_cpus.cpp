#include "common/io/usable_cpus.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>

#include "common/io/number_text.h"

namespace nx {

namespace {

// The affinity mask's CPUs; a machine of more CPUs than a cpu_set_t holds
// (1,024) needs a larger set, which sched_getaffinity asks for with EINVAL.
int affinity_cpus() {
    for (int n = CPU_SETSIZE; n <= (1 << 20); n *= 4) {
        cpu_set_t* set = CPU_ALLOC(n);
        if (!set) return 1;
        size_t bytes = CPU_ALLOC_SIZE(n);
        CPU_ZERO_S(bytes, set);
        int got = sched_getaffinity(0, bytes, set) == 0 ? CPU_COUNT_S(bytes, set) : -1;
        CPU_FREE(set);
        if (got >= 0) return std::max(1, got);
    }
    return 1;
}

// A Slurm variable's count of CPUs, when it is set to one.
void cap_by(const char* variable, int& cpus) {
    if (const char* text = std::getenv(variable))
        if (std::optional<int64_t> n = parse_int64(text); n && *n >= 1)
            cpus = static_cast<int>(std::min<int64_t>(cpus, *n));
}

}  // namespace

int usable_cpus() {
    int cpus = affinity_cpus();
    cap_by("SLURM_CPUS_ON_NODE", cpus);
    cap_by("SLURM_CPUS_PER_TASK", cpus);
    return cpus;
}

}  // namespace nx
