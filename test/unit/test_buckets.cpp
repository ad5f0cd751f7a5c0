// Unit tests for sequence-bucket planning (common/report/buckets): reading a
// request-length distribution, the cost of a bucket set, and the exact best
// buckets.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/report/buckets.h"
#include "test/unit/test_support.h"

namespace {

using nx_test::TempDir;
using Cost = std::vector<std::pair<int64_t, double>>;

// Pass cost grows with the padded length: 1 us per token.
const Cost kLinear = {{128, 128}, {256, 256}, {512, 512}, {1024, 1024}};

TEST(SeqDistribution, ReadsPlainLinesJsonAndComments) {
    TempDir dir;
    std::string p = dir.write("d.txt", "# requests\n100 5\n300\n\n{\"seq\": 700, \"count\": 2.5}  \n900 0 # none\n");
    std::vector<nx::SeqCount> d = nx::read_seq_distribution(p);
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[0].seq, 100);
    EXPECT_EQ(d[0].count, 5);
    EXPECT_EQ(d[1].count, 1);
    EXPECT_EQ(d[2].seq, 700);
    EXPECT_EQ(d[2].count, 2.5);
    EXPECT_EQ(d[3].count, 0);
}

TEST(SeqDistribution, MalformedLinesAreErrorsNamingTheLine) {
    TempDir dir;
    for (const char* bad : {"100 abc", "1.5 3", "abc", "100 2 3", "0 1", "-5", "100 -1", "100 nan", "100 inf",
                            "99999999999999999999 1", "{\"seq\": 1.5}", "{\"seq\": \"100\"}", "{\"count\": 3}",
                            "{\"seq\": 100, \"count\": \"many\"}", "{\"seq\": 100"}) {
        std::string p = dir.write("bad.txt", std::string("128 1\n") + bad + "\n");
        try {
            (void)nx::read_seq_distribution(p);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const nx::Error& e) {
            EXPECT_EQ(e.line(), 2) << bad << ": " << e.what();
            EXPECT_EQ(e.where(), p) << bad;
        }
    }
    EXPECT_THROW(nx::read_seq_distribution(dir.write("empty.txt", "# nothing\n")), nx::Error);
    EXPECT_THROW(nx::read_seq_distribution(dir.path("missing.txt")), nx::Error);
}

TEST(Buckets, EvaluateCountsPaddingAndUnserved) {
    std::vector<nx::SeqCount> d = {{100, 1}, {256, 1}, {2000, 3}};
    nx::BucketPlan p = nx::evaluate_buckets(d, kLinear, {256, 128});
    EXPECT_EQ(p.buckets, (std::vector<int64_t>{128, 256}));
    EXPECT_DOUBLE_EQ(p.expected_cost, (128.0 + 256.0) / 2);
    EXPECT_DOUBLE_EQ(p.padding_percent, 100.0 * 28 / 384);
    EXPECT_EQ(p.unserved, 3);
}

TEST(Buckets, BestPlanIsTheExactOptimum) {
    // Many short requests and a few long ones: a short bucket pays off.
    std::vector<nx::SeqCount> d = {{100, 90}, {1000, 10}};
    nx::BucketPlan one = nx::best_buckets(d, kLinear, 1);
    EXPECT_EQ(one.buckets, (std::vector<int64_t>{1024}));
    nx::BucketPlan two = nx::best_buckets(d, kLinear, 2);
    EXPECT_EQ(two.buckets, (std::vector<int64_t>{128, 1024}));
    EXPECT_DOUBLE_EQ(two.expected_cost, (90 * 128.0 + 10 * 1024.0) / 100);
    // A third bucket has nothing left to gain.
    EXPECT_EQ(nx::best_buckets(d, kLinear, 3).buckets, two.buckets);
}

}  // namespace
