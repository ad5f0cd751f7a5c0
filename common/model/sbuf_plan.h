// SBUF capacity planning for a lowered kernel: which buffers it keeps
// resident, how many generations of each fit (one generation is the minimum;
// two is double buffering), and whether the kernel fits at all.
//
// Sizes are bytes per partition: a tile [P, F] occupies F * dtype bytes in
// each of its P partitions, and every partition has the same capacity.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nx::model {

class SbufPlan {
public:
    explicit SbufPlan(double bytes_per_partition) : capacity_(bytes_per_partition) {}

    // A buffer group of `bytes` per generation; at least `min_gen`
    // generations, up to `max_gen` when there is room.  Returns its id.
    int add(std::string name, int64_t bytes, int min_gen, int max_gen);
    // Assigns the minimum generations, then upgrades groups in the order they
    // were added while they fit.  Returns fits().
    bool settle();

    bool fits() const { return required() <= capacity_; }
    int generations(int id) const { return groups_[id].gen; }
    // Every maximal assignment of generations that fits (no group could get
    // one more), the settled (greedy) one first; generations per group in
    // the order the groups were added.
    std::vector<std::vector<int>> maximal_assignments() const;
    // Bytes per partition of an assignment.
    int64_t bytes(const std::vector<int>& gens) const;
    // Bytes per partition at the minimum generations / as settled.
    int64_t required() const;
    int64_t used() const;
    double capacity() const { return capacity_; }
    // "needs 288.0 KiB per partition (lhsT 32.0 KiB, rhs 256.0 KiB), 192.0 KiB available"
    std::string shortfall() const;

private:
    struct Group {
        std::string name;
        int64_t bytes;
        int min_gen;
        int max_gen;
        int gen;
    };
    double capacity_;
    std::vector<Group> groups_;
};

// "192.0 KiB" for messages.
std::string format_kib(double bytes);

}  // namespace nx::model
