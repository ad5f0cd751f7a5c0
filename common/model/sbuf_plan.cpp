#include "common/model/sbuf_plan.h"

#include <cstdio>

namespace nx::model {

int SbufPlan::add(std::string name, int64_t bytes, int min_gen, int max_gen) {
    groups_.push_back({std::move(name), bytes, min_gen, max_gen < min_gen ? min_gen : max_gen, min_gen});
    return static_cast<int>(groups_.size() - 1);
}

int64_t SbufPlan::required() const {
    int64_t total = 0;
    for (const Group& g : groups_) total += g.bytes * g.min_gen;
    return total;
}

int64_t SbufPlan::used() const {
    int64_t total = 0;
    for (const Group& g : groups_) total += g.bytes * g.gen;
    return total;
}

bool SbufPlan::settle() {
    for (Group& g : groups_) g.gen = g.min_gen;
    if (!fits()) return false;
    int64_t used_bytes = used();
    for (Group& g : groups_) {
        while (g.gen < g.max_gen && static_cast<double>(used_bytes + g.bytes) <= capacity_) {
            ++g.gen;
            used_bytes += g.bytes;
        }
    }
    return true;
}

int64_t SbufPlan::bytes(const std::vector<int>& gens) const {
    int64_t total = 0;
    for (size_t i = 0; i < groups_.size(); ++i) total += groups_[i].bytes * gens[i];
    return total;
}

std::vector<std::vector<int>> SbufPlan::maximal_assignments() const {
    std::vector<std::vector<int>> out;
    if (!fits()) return out;
    std::vector<int> settled;
    for (const Group& g : groups_) settled.push_back(g.gen);
    out.push_back(settled);
    // Odometer over min_gen..max_gen per group (a few groups of 1-2 generations).
    std::vector<int> gens;
    for (const Group& g : groups_) gens.push_back(g.min_gen);
    for (;;) {
        const int64_t used_bytes = bytes(gens);
        if (static_cast<double>(used_bytes) <= capacity_) {
            bool maximal = true;
            for (size_t i = 0; i < groups_.size() && maximal; ++i)
                if (gens[i] < groups_[i].max_gen && static_cast<double>(used_bytes + groups_[i].bytes) <= capacity_)
                    maximal = false;
            if (maximal && gens != settled) out.push_back(gens);
        }
        size_t i = 0;
        while (i < groups_.size() && gens[i] == groups_[i].max_gen) {
            gens[i] = groups_[i].min_gen;
            ++i;
        }
        if (i == groups_.size()) break;
        ++gens[i];
    }
    return out;
}

std::string format_kib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024.0);
    return buf;
}

std::string SbufPlan::shortfall() const {
    std::string s = "needs " + format_kib(static_cast<double>(required())) + " of SBUF per partition (";
    bool first = true;
    for (const Group& g : groups_) {
        if (!first) s += ", ";
        first = false;
        s += g.name + " " + format_kib(static_cast<double>(g.bytes * g.min_gen));
    }
    s += "), " + format_kib(capacity_) + " available";
    return s;
}

}  // namespace nx::model
