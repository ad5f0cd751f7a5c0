// nx-report --ranks' straggler (common/report/rank_analysis.h) where the
// ranks mark their iterations: counted over iterations as HTA counts it (the
// rank last on each iteration's most variable significant collective), and
// over collectives when the iterations do not line up.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/report/rank_analysis.h"

namespace {

using namespace nx;

// A rank's profile: collectives at the given starts (ns from 0, 100 us
// each), iterations [0, 1 ms), [1 ms, 2 ms) ... with the given steps.
ProfileEntry rank_profile(int rank, const std::vector<int64_t>& starts, const std::vector<int64_t>& steps) {
    ProfileEntry p;
    p.info.rank = rank;
    p.info.name = "rank" + std::to_string(rank);
    p.summary.start_ns = 0;
    p.summary.end_ns = static_cast<int64_t>(steps.size()) * 1000000 + 1000000;
    for (int64_t s : starts) p.summary.collectives.push_back({"all_reduce", s, 100000, -1, "", -1, "", -1});
    for (size_t i = 0; i < steps.size(); ++i)
        p.summary.iterations.push_back({steps[i], static_cast<int64_t>(i) * 1000000, 1000000});
    return p;
}

RankAnalysis analyse(const std::vector<ProfileEntry>& ranks) {
    RankCapture c;
    for (const ProfileEntry& p : ranks) c.ranks.push_back(&p);
    return analyse_ranks(c);
}

// Two iterations of three all_reduces: rank 1 is 1 us late on the first and
// third of each, rank 2 is 50 us late on the second.
std::vector<ProfileEntry> job(const std::vector<int64_t>& steps_of_rank2) {
    std::vector<ProfileEntry> ranks;
    for (int r = 0; r < 3; ++r) {
        std::vector<int64_t> starts;
        for (int64_t it = 0; it < 2; ++it)
            for (int64_t k = 0; k < 3; ++k)
                starts.push_back(it * 1000000 + 100000 + k * 200000 + (r == 1 && k != 1 ? 1000 : 0) +
                                 (r == 2 && k == 1 ? 50000 : 0));
        ranks.push_back(rank_profile(r, starts, r == 2 ? steps_of_rank2 : std::vector<int64_t>{7, 8}));
    }
    return ranks;
}

TEST(RankAnalysis, WithIterationsTheStragglerIsLastOnEachIterationsMostVariableCollective) {
    std::vector<ProfileEntry> ranks = job({7, 8});
    RankAnalysis a = analyse(ranks);
    EXPECT_EQ(a.iterations, 2u);
    ASSERT_EQ(a.straggler, 2);
    EXPECT_EQ(a.rows[2].latest_count, 2);
    EXPECT_EQ(a.rows[1].latest_count, 0);
    EXPECT_EQ(a.most_variable, "all_reduce #2 (step 7)");
    EXPECT_DOUBLE_EQ(a.start_spread_ns, 50000);
}

TEST(RankAnalysis, IterationsThatDoNotLineUpLeaveEachCollectiveCounting) {
    // Rank 2's steps are numbered otherwise: no collective is in the same
    // step on every rank, so each counts, and rank 1 is last most often.
    std::vector<ProfileEntry> ranks = job({1, 2});
    RankAnalysis a = analyse(ranks);
    EXPECT_EQ(a.iterations, 0u);
    ASSERT_EQ(a.straggler, 1);
    EXPECT_EQ(a.rows[1].latest_count, 4);
    EXPECT_EQ(a.rows[2].latest_count, 2);
}

TEST(RankAnalysis, CollectivesOutsideEveryIterationAreLeftOutOfTheCount) {
    // A third collective block after the last iteration: rank 1 is 400 us
    // late on it, more than anything inside, yet it is in no iteration.
    std::vector<ProfileEntry> ranks = job({7, 8});
    for (ProfileEntry& p : ranks)
        p.summary.collectives.push_back({"all_reduce", 2500000 + (p.info.rank == 1 ? 400000 : 0), 100000, -1, "", -1, "", -1});
    RankAnalysis a = analyse(ranks);
    EXPECT_EQ(a.iterations, 2u);
    EXPECT_EQ(a.straggler, 2);
}

}  // namespace

TEST(RankAnalysis, ARanksTotalTimeFromTheProfilersSecondsIsWholeNanoseconds) {
    // 0.008176 s times 1e9 is 8175999.999999999 in doubles: the rank
    // records printed that as total_ns and behind_ns.
    std::vector<ProfileEntry> ranks = {rank_profile(0, {100000}, {}), rank_profile(1, {100000}, {})};
    for (ProfileEntry& p : ranks) p.summary.metrics.push_back({"total_time", 0.008176, true});
    ranks[1].summary.metrics.back().value = 0.008177;
    RankAnalysis a = analyse(ranks);
    EXPECT_EQ(a.rows[0].total_ns, 8176000.0);
    EXPECT_EQ(a.rows[1].total_ns, 8177000.0);
    EXPECT_EQ(a.rows[a.slowest].total_ns - a.rows[a.fastest].total_ns, 1000.0);
}
