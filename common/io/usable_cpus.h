// How many CPUs this process may keep busy, so that a tool runs a helper
// thread only where it would get a CPU of its own.  Scheduler tasks are
// often given one.  Slurm binds a task to its CPUs with its task/affinity or
// cgroup plugins (the affinity mask says so); with task/none it binds
// nothing, but still tells a job how many CPUs it holds on this node
// (SLURM_CPUS_ON_NODE: an array task is a job of its own) and a task how
// many it was given (SLURM_CPUS_PER_TASK, when asked for).  A second thread
// on a task's one CPU only takes turns with the first, and costs the
// handing over.
#pragma once

namespace nx {

// The CPUs of this process's affinity mask, no more than SLURM_CPUS_ON_NODE
// or SLURM_CPUS_PER_TASK where they are set to a number >= 1; at least 1.
int usable_cpus();

}  // namespace nx
