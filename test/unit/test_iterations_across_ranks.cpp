// A session's iterations across ranks (common/report/iterations_across_ranks.h):
// the k-th execution of a NEFF on each rank is one iteration; per NEFF, the
// rank slowest most often and the iterations furthest above the median.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/io/output.h"
#include "common/report/document.h"
#include "common/report/iterations_across_ranks.h"
#include "common/report/ranks_report.h"
#include "test/unit/render_support.h"

namespace {

using namespace nx;

// A rank's session: executions of "a.neff" of the given durations (us), one
// after another, the source's indexes from `first_index` in steps of 2 (a
// second NEFF's executions between them, as a session interleaves graphs).
ProfileEntry session(int rank, const std::vector<int64_t>& durs_us, int64_t first_index = 0,
                     const std::string& neff = "a.neff") {
    ProfileEntry p;
    p.info.rank = rank;
    p.info.name = "rank" + std::to_string(rank);
    int64_t t = 0;
    for (size_t k = 0; k < durs_us.size(); ++k) {
        ExecutionStat e;
        e.window = {first_index + 2 * static_cast<int64_t>(k), neff, t, t + durs_us[k] * 1000};
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

TEST(IterationsAcrossRanks, SaysWhatGrewInTheSlowestRanksExecutionAgainstTheMedianRanks) {
    // Iteration 1: rank 2's execution takes 20 us, its TensorE 9 us more
    // than rank 1's (the median of 10, 12 and 20 us); rank 0's is shorter.
    std::vector<ProfileEntry> ranks = {session(0, {10, 10}), session(1, {10, 12}), session(2, {10, 20})};
    auto busy = [&](int rank, int64_t compute_us, int64_t tensor_us) {
        ExecutionStat& e = ranks[static_cast<size_t>(rank)].summary.executions[1];
        e.compute_ns = compute_us * 1000;
        e.busy_ns[0] = tensor_us * 1000;
        e.idle_ns = e.dur_ns() - e.compute_ns;
    };
    busy(0, 8, 6);
    busy(1, 9, 7);
    busy(2, 18, 16);
    std::vector<NeffAcrossRanks> n = compare(ranks);
    ASSERT_EQ(n.size(), 1u);
    ASSERT_EQ(n[0].worst.size(), 1u);
    EXPECT_EQ(n[0].worst[0].slowest_row, 2u);
    EXPECT_EQ(n[0].worst[0].median_row, 1u);
    EXPECT_EQ(n[0].worst[0].changed, "compute +9.00 us (TensorE busy +9.00 us)");
    Document doc;
    RankCapture c;
    for (const ProfileEntry& p : ranks) c.ranks.push_back(&p);
    add_rank_report(doc, {analyse_ranks(c)});
    EXPECT_NE(test::rendered(doc, "text").find("iteration 1, rank 2 (its execution 2) 20 us, 1.67x the median (12 us): "
                                               "compute +9.00 us (TensorE busy +9.00 us) against rank 1's"),
              std::string::npos)
        << test::rendered(doc, "text");
}

TEST(IterationsAcrossRanks, AnExecutionWhoseFiguresDidNotGrowSaysNothingOfThem) {
    // Durations alone (no engine figures): the sentence names no part.
    std::vector<ProfileEntry> ranks = {session(0, {10, 10}), session(1, {10, 30})};
    std::vector<NeffAcrossRanks> n = compare(ranks);
    ASSERT_EQ(n[0].worst.size(), 1u);
    EXPECT_EQ(n[0].worst[0].changed, "");
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

std::string text_of(const Document& d) { return test::rendered(d, "text"); }

TEST(IterationsAcrossRanks, TheTextNamesFiveNeffsFurthestAboveTheirMedianAndCountsTheRest) {
    // Seven NEFFs, each on two ranks: NEFF i's second iteration is (10 + i)
    // us on rank 1 against 10 us on rank 0; NEFF "same" alike on both.
    std::vector<ProfileEntry> ranks(2);
    for (int r = 0; r < 2; ++r) {
        ranks[r].info.rank = r;
        ranks[r].info.name = "rank" + std::to_string(r);
        for (int i = 1; i <= 7; ++i) {
            ProfileEntry one = session(r, {10, r == 1 ? 10 + i : 10}, 0, "n" + std::to_string(i) + ".neff");
            for (const ExecutionStat& e : one.summary.executions) ranks[r].summary.executions.push_back(e);
        }
        for (const ExecutionStat& e : session(r, {10, 10}, 0, "same.neff").summary.executions)
            ranks[r].summary.executions.push_back(e);
        ranks[r].summary.end_ns = 1000000;
    }
    RankCapture c;
    for (const ProfileEntry& p : ranks) c.ranks.push_back(&p);
    Document doc;
    add_rank_report(doc, {analyse_ranks(c)});
    const std::string text = text_of(doc);
    for (int i = 3; i <= 7; ++i) EXPECT_NE(text.find("Iterations of n" + std::to_string(i) + ".neff"), std::string::npos) << i;
    EXPECT_EQ(text.find("Iterations of n1.neff"), std::string::npos);
    EXPECT_EQ(text.find("Iterations of n2.neff"), std::string::npos);
    EXPECT_NE(text.find("2 more NEFFs have a rank slower than the others in some iteration"), std::string::npos);
    EXPECT_NE(text.find("Every rank takes the same time in each iteration of same.neff (2 iterations run by two ranks "
                        "or more)."), std::string::npos);
    // The furthest above its median first.
    EXPECT_LT(text.find("Iterations of n7.neff"), text.find("Iterations of n3.neff"));
}

}  // namespace
