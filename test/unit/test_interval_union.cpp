// IntervalUnion, intersection_length and merge_intervals (common/profile/interval_union.h).
//
// Expectations are worked out by hand in the comments; the large random case
// is checked against a bitmap, which shares no code with the library.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/profile/interval_union.h"

namespace {

using nx::Interval;
using nx::IntervalUnion;
using Pairs = std::vector<std::pair<int64_t, int64_t>>;

Pairs as_pairs(const std::vector<Interval>& v) {
    Pairs out;
    for (const Interval& iv : v) out.emplace_back(iv.begin, iv.end);
    return out;
}

// Everything a Reader yields, in order.
Pairs read_all(IntervalUnion& u) {
    IntervalUnion::Reader reader(u);
    Pairs out;
    Interval iv;
    while (reader.next(iv)) out.emplace_back(iv.begin, iv.end);
    return out;
}

Pairs for_each_all(IntervalUnion& u) {
    Pairs out;
    u.for_each([&](const Interval& iv) { out.emplace_back(iv.begin, iv.end); });
    return out;
}

// Reference: mark every covered unit of [0, size) in a bitmap.
struct Bitmap {
    explicit Bitmap(int64_t size) : bits(static_cast<size_t>(size), false) {}
    void add(int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) bits[static_cast<size_t>(t)] = true;
    }
    int64_t total() const {
        int64_t n = 0;
        for (bool b : bits) n += b;
        return n;
    }
    // Maximal runs of covered units: the disjoint merged intervals.
    Pairs runs() const {
        Pairs out;
        size_t i = 0;
        while (i < bits.size()) {
            if (!bits[i]) {
                ++i;
                continue;
            }
            size_t j = i;
            while (j < bits.size() && bits[j]) ++j;
            out.emplace_back(static_cast<int64_t>(i), static_cast<int64_t>(j));
            i = j;
        }
        return out;
    }
    std::vector<bool> bits;
};

}  // namespace

TEST(IntervalUnion, EmptyUnionHasZeroTotalAndNoIntervals) {
    IntervalUnion u;
    EXPECT_EQ(u.total(), 0);
    EXPECT_EQ(u.count(), 0u);
    EXPECT_TRUE(read_all(u).empty());
}

TEST(IntervalUnion, SingleIntervalTotalIsItsLength) {
    IntervalUnion u;
    u.add(100, 250);  // 150
    EXPECT_EQ(u.total(), 150);
    EXPECT_EQ(read_all(u), (Pairs{{100, 250}}));
}

TEST(IntervalUnion, OverlappingIntervalsAreCountedOnce) {
    IntervalUnion u;
    u.add(0, 10);
    u.add(5, 15);  // union [0,15) = 15, not 10 + 10
    EXPECT_EQ(u.total(), 15);
    EXPECT_EQ(read_all(u), (Pairs{{0, 15}}));
}

TEST(IntervalUnion, TouchingIntervalsMergeIntoOne) {
    IntervalUnion u;
    u.add(0, 10);
    u.add(10, 20);  // [0,10) + [10,20) = [0,20)
    EXPECT_EQ(u.total(), 20);
    EXPECT_EQ(read_all(u), (Pairs{{0, 20}}));
}

TEST(IntervalUnion, NestedIntervalAddsNothing) {
    IntervalUnion u;
    u.add(0, 100);
    u.add(10, 20);  // inside [0,100)
    u.add(50, 100);  // shares the end
    EXPECT_EQ(u.total(), 100);
    EXPECT_EQ(read_all(u), (Pairs{{0, 100}}));
}

TEST(IntervalUnion, DisjointIntervalsSumTheirLengths) {
    IntervalUnion u;
    u.add(0, 10);
    u.add(20, 25);
    u.add(40, 41);  // 10 + 5 + 1
    EXPECT_EQ(u.total(), 16);
    EXPECT_EQ(read_all(u), (Pairs{{0, 10}, {20, 25}, {40, 41}}));
}

TEST(IntervalUnion, UnsortedInputGivesTheSameUnionAsSorted) {
    // [30,40) [0,10) [5,12) [38,50) [20,21): union [0,12) [20,21) [30,50) = 12 + 1 + 20 = 33.
    IntervalUnion u;
    u.add(30, 40);
    u.add(0, 10);
    u.add(5, 12);
    u.add(38, 50);
    u.add(20, 21);
    EXPECT_EQ(u.total(), 33);
    EXPECT_EQ(read_all(u), (Pairs{{0, 12}, {20, 21}, {30, 50}}));
}

TEST(IntervalUnion, EmptyAndNegativeIntervalsAreIgnored) {
    IntervalUnion u;
    u.add(5, 5);    // empty
    u.add(10, 3);   // negative length
    u.add(0, 4);    // the only real one
    u.add(-1, -9);  // negative length
    EXPECT_EQ(u.count(), 1u);
    EXPECT_EQ(u.total(), 4);
    EXPECT_EQ(read_all(u), (Pairs{{0, 4}}));
}

TEST(IntervalUnion, NegativeCoordinatesAreFine) {
    IntervalUnion u;
    u.add(-10, -5);
    u.add(-7, 2);  // union [-10, 2) = 12
    EXPECT_EQ(u.total(), 12);
}

TEST(IntervalUnion, TotalIsTheSameWhenAskedTwice) {
    IntervalUnion u(4);
    for (int i = 9; i >= 0; --i) u.add(i * 10, i * 10 + 5);  // 10 x 5 = 50, descending: unordered
    EXPECT_EQ(u.total(), 50);
    EXPECT_EQ(u.total(), 50);
}

TEST(IntervalUnion, ForEachAndReaderAgree) {
    IntervalUnion u(4);
    for (int i = 9; i >= 0; --i) u.add(i * 10, i * 10 + 5);
    Pairs expected;
    for (int i = 0; i < 10; ++i) expected.emplace_back(i * 10, i * 10 + 5);
    EXPECT_EQ(for_each_all(u), expected);
    EXPECT_EQ(read_all(u), expected);
}

TEST(IntervalUnion, OrderedInputSpillsAndStillReadsBackInOrder) {
    // 20 disjoint ordered intervals with 4 held in memory: runs go to disk.
    IntervalUnion u(4);
    Pairs expected;
    for (int i = 0; i < 20; ++i) {
        u.add(i * 100, i * 100 + 30);
        expected.emplace_back(i * 100, i * 100 + 30);
    }
    EXPECT_TRUE(u.spilled());
    EXPECT_EQ(read_all(u), expected);
    EXPECT_EQ(u.total(), 20 * 30);
}

TEST(IntervalUnion, OrderBreakingAfterSpillMergesOldAndNewRuns) {
    // Ordered [0,10) [20,30) ... [180,190) (spilled), then [5,25) out of
    // order, which bridges [0,10) and [20,30) into [0,30).
    // Total = 30 + 8 x 10 = 110.
    IntervalUnion u(4);
    for (int i = 0; i < 10; ++i) u.add(i * 20, i * 20 + 10);
    ASSERT_TRUE(u.spilled());
    u.add(5, 25);
    Pairs expected = {{0, 30}};
    for (int i = 2; i < 10; ++i) expected.emplace_back(i * 20, i * 20 + 10);
    EXPECT_EQ(read_all(u), expected);
    EXPECT_EQ(u.total(), 110);
}

TEST(IntervalUnion, TinyChunkLimitIsRaisedToTwo) {
    // chunk_intervals = 0 must not loop or crash; the result is still exact.
    IntervalUnion u(0);
    u.add(10, 20);
    u.add(0, 5);
    u.add(3, 12);  // union [0,20)
    EXPECT_EQ(u.total(), 20);
}

TEST(IntervalUnion, MovedUnionKeepsItsSpilledRuns) {
    IntervalUnion a(4);
    for (int i = 9; i >= 0; --i) a.add(i * 10, i * 10 + 5);
    ASSERT_TRUE(a.spilled());
    IntervalUnion b(std::move(a));
    EXPECT_TRUE(b.spilled());
    EXPECT_EQ(b.total(), 50);
}


// Cluster nodes often have a small /tmp and point TMPDIR at local scratch:
// spilled runs go where every other nx scratch file goes.
TEST(IntervalUnion, SpillsIntoTmpdirAndNamesItWhenItCannot) {
    const char* old = std::getenv("TMPDIR");
    std::string saved = old ? old : "";
    ::setenv("TMPDIR", "/nonexistent-nx-scratch", 1);
    IntervalUnion u(4);
    std::string message;
    try {
        for (int i = 9; i >= 0; --i) u.add(i * 10, i * 10 + 5);
    } catch (const std::exception& e) {
        message = e.what();
    }
    if (old) ::setenv("TMPDIR", saved.c_str(), 1);
    else ::unsetenv("TMPDIR");
    EXPECT_NE(message.find("engine busy intervals"), std::string::npos) << message;
    EXPECT_NE(message.find("/nonexistent-nx-scratch/"), std::string::npos) << message;
}
TEST(IntervalUnion, LargeRandomInputMatchesBitmapReference) {
    // 20000 intervals in random order, some empty or negative, over
    // [0, 200000) (about 5 deep on average, so gaps remain); 4 per chunk,
    // so thousands of spilled runs are k-way merged.
    constexpr int64_t kSpace = 200000;
    std::mt19937_64 rng(12345);
    std::uniform_int_distribution<int64_t> begin_d(0, kSpace - 200);
    std::uniform_int_distribution<int64_t> len_d(-20, 120);
    IntervalUnion u(4);
    Bitmap ref(kSpace);
    for (int i = 0; i < 20000; ++i) {
        int64_t b = begin_d(rng), e = b + len_d(rng);
        u.add(b, e);
        if (e > b) ref.add(b, e);
    }
    ASSERT_TRUE(u.spilled());
    Pairs expected = ref.runs();
    ASSERT_GT(expected.size(), 10u);  // the case is not trivially one interval
    EXPECT_EQ(read_all(u), expected);
    EXPECT_EQ(for_each_all(u), expected);
    EXPECT_EQ(u.total(), ref.total());
}

// In order the union's spilled runs are read one after another, not merged:
// sorted starts whose intervals overlap, touch and nest across the runs'
// boundaries (4 per chunk) give the bitmap's runs.
TEST(IntervalUnion, OrderedInputSpilledInManyRunsMatchesBitmapReference) {
    constexpr int64_t kSpace = 100000;
    std::mt19937_64 rng(99);
    std::uniform_int_distribution<int64_t> step_d(0, 40);
    std::uniform_int_distribution<int64_t> len_d(0, 60);
    IntervalUnion u(4);
    Bitmap ref(kSpace);
    for (int64_t b = 0; b < kSpace - 100; b += step_d(rng)) {
        int64_t e = b + len_d(rng);
        u.add(b, e);
        if (e > b) ref.add(b, e);
    }
    ASSERT_TRUE(u.spilled());
    Pairs expected = ref.runs();
    ASSERT_GT(expected.size(), 100u);
    EXPECT_EQ(read_all(u), expected);
    EXPECT_EQ(u.total(), ref.total());
}

TEST(IntervalUnion, ReaderYieldsSortedDisjointNonTouchingIntervals) {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int64_t> begin_d(0, 100000);
    std::uniform_int_distribution<int64_t> len_d(1, 50);
    IntervalUnion u(8);
    for (int i = 0; i < 5000; ++i) {
        int64_t b = begin_d(rng);
        u.add(b, b + len_d(rng));
    }
    Pairs got = read_all(u);
    ASSERT_FALSE(got.empty());
    for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_LT(got[i].first, got[i].second) << "interval " << i;
        if (i > 0) {
            EXPECT_GT(got[i].first, got[i - 1].second) << "intervals " << i - 1 << " and " << i;
        }
    }
}

// ---- intersection_length

TEST(IntersectionLength, CountsOnlyTheSharedParts) {
    // a = [0,10) [20,30), b = [5,25): shared [5,10) + [20,25) = 10.
    std::vector<Interval> a = {{0, 10}, {20, 30}};
    std::vector<Interval> b = {{5, 25}};
    EXPECT_EQ(nx::intersection_length(a, b), 10);
    EXPECT_EQ(nx::intersection_length(b, a), 10);
}

TEST(IntersectionLength, TouchingIntervalsShareNothing) {
    std::vector<Interval> a = {{0, 10}};
    std::vector<Interval> b = {{10, 20}};
    EXPECT_EQ(nx::intersection_length(a, b), 0);
}

TEST(IntersectionLength, EmptySetGivesZero) {
    std::vector<Interval> a = {{0, 10}};
    EXPECT_EQ(nx::intersection_length(a, {}), 0);
    EXPECT_EQ(nx::intersection_length({}, a), 0);
}

TEST(IntersectionLength, ManySmallAgainstOneLarge) {
    // a = [0,2) [4,6) [8,10) [12,14), b = [1,13):
    // [1,2) + [4,6) + [8,10) + [12,13) = 1 + 2 + 2 + 1 = 6.
    std::vector<Interval> a = {{0, 2}, {4, 6}, {8, 10}, {12, 14}};
    std::vector<Interval> b = {{1, 13}};
    EXPECT_EQ(nx::intersection_length(a, b), 6);
}

TEST(IntersectionLength, IdenticalSetsIntersectFully) {
    std::vector<Interval> a = {{0, 3}, {7, 9}};
    EXPECT_EQ(nx::intersection_length(a, a), 5);
}

// ---- merge_intervals

TEST(MergeIntervals, SortsMergesAndDropsEmptyIntervals) {
    // Drop [10,10) and [12,11); sort; [0,3)+[2,4)+[4,5) touch/overlap -> [0,5).
    std::vector<Interval> in = {{20, 25}, {0, 3}, {2, 4}, {10, 10}, {12, 11}, {4, 5}, {8, 9}};
    EXPECT_EQ(as_pairs(nx::merge_intervals(in)), (Pairs{{0, 5}, {8, 9}, {20, 25}}));
}

TEST(MergeIntervals, EmptyInputGivesEmptyOutput) { EXPECT_TRUE(nx::merge_intervals({}).empty()); }

TEST(MergeIntervals, OnlyEmptyIntervalsGiveEmptyOutput) {
    EXPECT_TRUE(nx::merge_intervals({{3, 3}, {5, 1}}).empty());
}

// ---- TimeBuckets

TEST(TimeBuckets, SplitsMergedIntervalsAcrossUnevenBuckets) {
    // [100, 110) in 3 buckets: edges 100, 103, 106, 110 (10 * b / 3 rounded down).
    nx::TimeBuckets b(100, 110, 3);
    EXPECT_EQ(b.edge(1), 103);
    EXPECT_EQ(b.edge(2), 106);
    EXPECT_EQ(b.edge(3), 110);
    EXPECT_EQ(b.of(99), 0);    // clamped
    EXPECT_EQ(b.of(105), 1);
    EXPECT_EQ(b.of(200), 2);   // clamped
    // [101, 104) and [102, 105) merge to [101, 105): 2 ns in bucket 0, 2 in 1;
    // [107, 110): 3 ns in bucket 2.
    IntervalUnion u;
    u.add(101, 104);
    u.add(102, 105);
    u.add(107, 110);
    EXPECT_EQ(b.busy(u), (std::vector<int64_t>{2, 2, 3}));
}

// An interval whose last nanosecond is a bucket's first, where the quotient
// rounds down past edge(): 2940 ns in 50 buckets, edge(43) = floor(43 * 58.8)
// = 2528, but floor(2528 * 50 / 2940) = 42.  That nanosecond is bucket 43's
// (loop.json's timeline lost it: 48 ns of 49 in a bucket).
TEST(TimeBuckets, TheLastNanosecondOnABucketsFirstCountsThere) {
    nx::TimeBuckets b(0, 2940, 50);
    ASSERT_EQ(b.edge(43), 2528);
    EXPECT_EQ(b.of(2528), 43);
    EXPECT_EQ(b.of(2527), 42);
    IntervalUnion u;
    u.add(2500, 2529);
    std::vector<int64_t> ns = b.busy(u);
    EXPECT_EQ(ns[42], 2528 - 2500);
    EXPECT_EQ(ns[43], 1);
}

TEST(TimeBuckets, EmptySpanIsOneNanosecond) {
    nx::TimeBuckets b(5, 5, 0);
    EXPECT_EQ(b.count(), 1);
    EXPECT_EQ(b.edge(1), 6);
}

// Forward answers of() for growing times without dividing: every time of a
// few spans that round their edges down (and some that do not), before,
// inside and after the span, with repeats.
TEST(TimeBuckets, ForwardGivesOfsAnswerForGrowingTimes) {
    for (auto [start, end, n] : {std::array<int64_t, 3>{0, 2940, 50}, {100, 110, 3}, {-50, 7, 9}, {0, 3, 10},
                                 {1000, 1000 + 99991, 50}}) {
        nx::TimeBuckets b(start, end, n);
        nx::TimeBuckets::Forward f(b);
        for (int64_t t = start - 5; t <= end + 5; ++t) {
            ASSERT_EQ(f.of(t), b.of(t)) << start << ".." << end << " in " << n << " at " << t;
            ASSERT_EQ(f.of(t), b.of(t)) << "the same time twice, at " << t;
        }
        for (int64_t k = 0; k <= b.count(); ++k) EXPECT_EQ(f.edge(k), b.edge(k));
    }
}

// busy() against bucket-by-bucket intersections, on intervals spread over
// the span (some inside one bucket, some across many, some past each end),
// whether the union kept them in memory or spilled runs.
TEST(TimeBuckets, BusyEqualsEachBucketsIntersection) {
    for (size_t chunk : {size_t{2}, size_t{1} << 16}) {
        nx::TimeBuckets b(0, 2940, 50);
        IntervalUnion u(chunk);
        std::vector<Interval> in;
        for (int64_t t = -40; t < 3000; t += 37) in.push_back({t, t + (t % 5 == 0 ? 400 : 11)});
        for (auto it = in.rbegin(); it != in.rend(); ++it) u.add(it->begin, it->end);  // out of order
        std::vector<Interval> merged = nx::merge_intervals(in);
        std::vector<int64_t> ns = b.busy(u);
        for (int64_t k = 0; k < b.count(); ++k) {
            // Time before the span's start or past its end is in no bucket.
            int64_t lo = b.edge(k), hi = b.edge(k + 1);
            EXPECT_EQ(ns[static_cast<size_t>(k)], nx::intersection_length(merged, {{lo, hi}})) << "bucket " << k;
        }
    }
}
