// usable_cpus: the affinity mask's CPUs, no more than a Slurm job step holds.
#include <gtest/gtest.h>
#include <sched.h>

#include <cstdlib>
#include <string>

#include "common/io/usable_cpus.h"

namespace {

int affinity_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
    return CPU_COUNT(&set);
}

// Sets (or, for nullptr, unsets) a variable, and restores it as the test
// found it.
struct Env {
    Env(const char* name, const char* value) : name(name) {
        if (const char* v = std::getenv(name)) saved = v, had = true;
        if (value) setenv(name, value, 1);
        else unsetenv(name);
    }
    ~Env() {
        if (had) setenv(name, saved.c_str(), 1);
        else unsetenv(name);
    }
    const char* name;
    std::string saved;
    bool had = false;
};
struct SlurmCpus : Env {
    explicit SlurmCpus(const char* value) : Env("SLURM_CPUS_ON_NODE", value) {}
    Env per_task{"SLURM_CPUS_PER_TASK", nullptr};
};

TEST(UsableCpus, TheAffinityMasksCpusNoMoreThanSlurmGaveTheStep) {
    const int mask = affinity_cpus();
    ASSERT_GE(mask, 1);
    {
        SlurmCpus none(nullptr);
        EXPECT_EQ(nx::usable_cpus(), mask);
    }
    {
        SlurmCpus one("1");
        EXPECT_EQ(nx::usable_cpus(), 1);
    }
    {
        SlurmCpus many("4096");
        EXPECT_EQ(nx::usable_cpus(), mask);
    }
    // Not a count: the mask alone.
    for (const char* bad : {"", "0", "-2", "two", "2x"}) {
        SlurmCpus b(bad);
        EXPECT_EQ(nx::usable_cpus(), mask) << bad;
    }
    // A task given fewer CPUs than its job holds here (srun -c 1 in a job of 2).
    {
        SlurmCpus job("2");
        Env task("SLURM_CPUS_PER_TASK", "1");
        EXPECT_EQ(nx::usable_cpus(), 1);
    }
}

TEST(UsableCpus, ANarrowerAffinityMaskIsWhatCounts) {
    cpu_set_t saved;
    CPU_ZERO(&saved);
    ASSERT_EQ(sched_getaffinity(0, sizeof saved, &saved), 0);
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; ++c)
        if (CPU_ISSET(c, &saved)) first = c;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    SlurmCpus none(nullptr);
    EXPECT_EQ(nx::usable_cpus(), 1);
    ASSERT_EQ(sched_setaffinity(0, sizeof saved, &saved), 0);
}

}  // namespace
