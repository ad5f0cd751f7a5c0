// How many CPUs this process may keep busy, so that a tool runs a helper
// thread only where it would get a CPU of its own.  Scheduler tasks are
// often given one: Slurm binds a task to its CPUs with its task/affinity or
// cgroup plugins (the affinity mask says so), and with task/none it does not
// bind at all, but still tells the job step how many it holds on this node
// (SLURM_CPUS_ON_NODE).  A second thread on a task's one CPU only takes turns
// with the first, and costs the handing over.
#pragma once

namespace nx {

// The CPUs of this process's affinity mask, no more than SLURM_CPUS_ON_NODE
// when that is set to a number >= 1; at least 1.
int usable_cpus();

}  // namespace nx
