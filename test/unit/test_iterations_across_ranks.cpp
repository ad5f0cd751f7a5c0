// A session's iterations across ranks (common/report/iterations_across_ranks.h):
// the k-th execution of a NEFF on each rank is one iteration; per NEFF, the
// rank slowest most often and the iterations furthest above the median.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/report/iterations_across_ranks.h"

namespace {

using namespace nx;

// A rank's session: executions of "a.neff" of the given durations (us), one
// after another, the source's indexes from `first_index` in steps of 2 (a
// second NEFF's executions between them, as a session interleaves graphs).
ProfileEntry session(int rank, const std::vector<int64_t>& durs_us, int64_t first_index = 0) {
    ProfileEntry p;
    p.info.rank = rank;
    p.info.name = "rank" + std::to_string(rank);
    int64_t t = 0;
    for (size_t k = 0; k < durs_us.size(); ++k) {
        ExecutionStat e;
        e.window = {first_index + 2 * static_cast<int64_t>(k), "a.neff", t, t + durs_us[k] * 1000};
        t = e.window.end_ns;
        p.summary.executions.push_back(e);
    }
    p.summary.start_ns = 0;
    p.summary.end_ns = t;
    return p;
}

std::vector<NeffAcrossRanks> compare(const std::vector<ProfileEntry>& ranks) {
    RankCapture c;
    for (const ProfileEntry& p : ranks) c.ranks.push_back(&p);
    return iterations_across_ranks(analyse_ranks(c));
}

TEST(IterationsAcrossRanks, NamesTheRankSlowestMostOftenAndTheIterationsFurthestAboveTheMedian) {
    // Rank 2 is slow in iterations 1 and 3, rank 0 in iteration 2 (less so).
    std::vector<ProfileEntry> ranks = {session(0, {10, 10, 13, 10}), session(1, {10, 10, 10, 10}),
                                       session(2, {10, 20, 10, 15}, 100)};
    std::vector<NeffAcrossRanks> n = compare(ranks);
    ASSERT_EQ(n.size(), 1u);
    EXPECT_EQ(n[0].neff, "a.neff");
    EXPECT_EQ(n[0].ranks, 3u);
    EXPECT_EQ(n[0].iterations, 4u);
    EXPECT_EQ(n[0].most_often_row, 2u);
    EXPECT_EQ(n[0].most_often_count, 2u);
    EXPECT_EQ(n[0].slowest_count, (std::vector<size_t>{1, 0, 2}));
    ASSERT_EQ(n[0].worst.size(), 3u);
    EXPECT_EQ(n[0].worst[0].ordinal, 1u);
    EXPECT_EQ(n[0].worst[0].slowest_row, 2u);
    EXPECT_EQ(n[0].worst[0].slowest_index, 102);  // rank 2's own index of that execution
    EXPECT_DOUBLE_EQ(n[0].worst[0].median_ns, 10000);
    EXPECT_DOUBLE_EQ(n[0].worst[0].over_median(), 2.0);
    EXPECT_EQ(n[0].worst[1].ordinal, 3u);
    EXPECT_EQ(n[0].worst[2].ordinal, 2u);
    EXPECT_EQ(n[0].worst[2].slowest_row, 0u);
}

TEST(IterationsAcrossRanks, AnIterationEveryRankTookAlikeHasNoSlowest) {
    std::vector<ProfileEntry> ranks = {session(0, {10, 10}), session(1, {10, 10})};
    std::vector<NeffAcrossRanks> n = compare(ranks);
    ASSERT_EQ(n.size(), 1u);
    EXPECT_EQ(n[0].iterations, 2u);
    EXPECT_TRUE(n[0].worst.empty());
    EXPECT_EQ(n[0].most_often_count, 0u);
}

TEST(IterationsAcrossRanks, IterationsOnOneRankOnlyAreNotCompared) {
    // Rank 1 ran the NEFF twice, rank 0 four times: two iterations compare.
    std::vector<ProfileEntry> ranks = {session(0, {10, 10, 50, 50}), session(1, {10, 12})};
    std::vector<NeffAcrossRanks> n = compare(ranks);
    ASSERT_EQ(n.size(), 1u);
    EXPECT_EQ(n[0].iterations, 2u);
    ASSERT_EQ(n[0].worst.size(), 1u);
    EXPECT_EQ(n[0].worst[0].slowest_row, 1u);
    EXPECT_DOUBLE_EQ(n[0].worst[0].median_ns, 11000);
}

TEST(IterationsAcrossRanks, ProfilesWithoutExecutionsGiveNothing) {
    std::vector<ProfileEntry> ranks = {session(0, {}), session(1, {})};
    EXPECT_TRUE(compare(ranks).empty());
}

}  // namespace
