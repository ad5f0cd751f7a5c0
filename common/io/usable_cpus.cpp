#include "common/io/usable_cpus.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>

#include "common/io/number_text.h"

namespace nx {

int usable_cpus() {
    int cpus = 1;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) cpus = std::max(1, CPU_COUNT(&set));
    if (const char* slurm = std::getenv("SLURM_CPUS_ON_NODE"))
        if (std::optional<int64_t> n = parse_int64(slurm); n && *n >= 1) cpus = static_cast<int>(std::min<int64_t>(cpus, *n));
    return cpus;
}

}  // namespace nx
