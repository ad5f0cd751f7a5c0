// RecordSorter (common/io/record_sorter.h): records come back in key order,
// ties in arrival order, whether they stayed in memory or were spilled in
// runs of any size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/io/record_sorter.h"

namespace nx {
namespace {

struct Rec {
    int64_t k;
    int64_t arrival;
    int64_t key() const { return k; }
};

std::vector<Rec> drained(RecordSorter<Rec>& s) {
    std::vector<Rec> out;
    s.drain([&](const Rec& r) { out.push_back(r); });
    return out;
}

TEST(RecordSorter, GivesKeyOrderWithTiesInArrivalOrderWhateverTheRunSize) {
    std::mt19937_64 rng(7);
    for (size_t n : {size_t{0}, size_t{1}, size_t{5}, size_t{1000}, size_t{20011}}) {
        for (size_t run_records : {size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{100000}}) {
            std::vector<Rec> in;
            // Few distinct keys, so ties are common, some ascending stretches
            // (as the layout's are) and some random.
            for (size_t i = 0; i < n; ++i) {
                int64_t k = i % 3 == 0 ? static_cast<int64_t>(i / 10) : static_cast<int64_t>(rng() % 50);
                in.push_back({k, static_cast<int64_t>(i)});
            }
            RecordSorter<Rec> s(run_records * sizeof(Rec), "test");
            for (const Rec& r : in) s.add(r);
            EXPECT_EQ(s.size(), n);
            std::vector<Rec> want = in;
            std::stable_sort(want.begin(), want.end(), [](const Rec& a, const Rec& b) { return a.k < b.k; });
            std::vector<Rec> got = drained(s);
            ASSERT_EQ(got.size(), want.size()) << "n " << n << " run " << run_records;
            for (size_t i = 0; i < got.size(); ++i) {
                ASSERT_EQ(got[i].k, want[i].k) << "n " << n << " run " << run_records << " at " << i;
                ASSERT_EQ(got[i].arrival, want[i].arrival) << "n " << n << " run " << run_records << " at " << i;
            }
            EXPECT_EQ(s.size(), 0u);
        }
    }
}

TEST(RecordSorter, SpillsOnlyWhenARunFillsAndIsReusableAfterDraining) {
    RecordSorter<Rec> s(4 * sizeof(Rec), "test");
    for (int64_t i = 4; i > 0; --i) s.add({i, 0});
    EXPECT_EQ(s.spilled_runs(), 0u);  // a full run is spilled by the next record only
    s.add({0, 0});
    EXPECT_EQ(s.spilled_runs(), 1u);
    std::vector<Rec> got = drained(s);
    ASSERT_EQ(got.size(), 5u);
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].k, static_cast<int64_t>(i));
    EXPECT_EQ(s.spilled_runs(), 0u);
    for (int64_t i = 9; i >= 0; --i) s.add({i, 0});
    got = drained(s);
    ASSERT_EQ(got.size(), 10u);
    EXPECT_TRUE(std::is_sorted(got.begin(), got.end(), [](const Rec& a, const Rec& b) { return a.k < b.k; }));
}

}  // namespace
}  // namespace nx
