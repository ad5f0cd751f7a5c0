// The exact total length of a union of half-open intervals [begin, end), in
// bounded memory whatever the input size or order.
//
// Engine "active time" is this union over the engine's instructions, not the
// sum of their durations: overlapping or back-to-back instructions must not be
// counted twice.  Inputs are usually sorted per engine, and then the union is
// computed online in O(1) memory.  Out-of-order input is buffered in chunks;
// each chunk is sorted, merged and spilled as a run to an unlinked temporary
// file in $TMPDIR (io/spill_file.h), and finish() merges the runs (k-way), so
// memory stays flat.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

namespace nx {

struct Interval {
    int64_t begin;
    int64_t end;
};

class IntervalUnion {
public:
    // `chunk_intervals`: how many out-of-order intervals to hold in memory
    // before spilling a sorted run (tests pass small values).
    explicit IntervalUnion(size_t chunk_intervals = 1 << 16);
    IntervalUnion(const IntervalUnion&) = delete;
    IntervalUnion& operator=(const IntervalUnion&) = delete;
    IntervalUnion(IntervalUnion&&) noexcept;
    ~IntervalUnion();

    // Empty and negative-length intervals are ignored.
    void add(int64_t begin, int64_t end);

    // Total covered length.  Call once all intervals were added; it may read
    // back spilled runs.  Later calls return the same value.
    int64_t total();

    // Streams the disjoint merged intervals in order (reads spilled runs).
    void for_each(const std::function<void(const Interval&)>& fn);

    // The merged intervals one at a time, in order, in bounded memory (a k-way
    // merge over the spilled runs).  Add nothing while a Reader is in use.
    class Reader {
    public:
        explicit Reader(IntervalUnion& u);
        ~Reader();
        Reader(const Reader&) = delete;
        Reader& operator=(const Reader&) = delete;
        bool next(Interval& out);

    private:
        struct State;
        std::unique_ptr<State> state_;
    };

    size_t count() const { return count_; }
    bool spilled() const { return spill_ != nullptr; }

private:
    void flush_chunk();
    void merge_runs(const std::function<void(const Interval&)>& fn);

    size_t chunk_limit_;
    size_t count_ = 0;
    // Online state, exact while input arrives ordered by begin.
    bool ordered_ = true;
    int64_t cur_begin_ = 0, cur_end_ = 0;
    bool have_cur_ = false;
    int64_t online_total_ = 0;
    // Everything is also kept as sorted runs once order breaks.
    std::vector<Interval> chunk_;
    std::FILE* spill_ = nullptr;
    std::vector<std::pair<long, size_t>> runs_;  // offset, interval count
    bool finished_ = false;
    int64_t total_ = 0;
};

// Equal time buckets over [start, end) (timelines): bucket b is
// [edge(b), edge(b + 1)), edges computed without overflow for long spans.
class TimeBuckets {
public:
    // `end` is raised to start + 1 and `count` to 1 when smaller.
    TimeBuckets(int64_t start, int64_t end, int64_t count);
    int64_t count() const { return n_; }
    int64_t edge(int64_t b) const;
    // The bucket holding time t, clamped to the first and last.
    int64_t of(int64_t t) const;
    // Busy time per bucket of the union's merged intervals (reads spilled runs).
    std::vector<int64_t> busy(IntervalUnion& u) const;
    // The same as a percent of each bucket's width.
    std::vector<double> percent(IntervalUnion& u) const;

    // of(t) for times that never go back (a sweep; a union's intervals in
    // order): each answer is found by stepping forward from the last over
    // edges computed once, with no division.
    class Forward {
    public:
        explicit Forward(const TimeBuckets& tb);
        // Equals tb.of(t) for t not below the previous call's.
        int64_t of(int64_t t);
        int64_t edge(int64_t b) const { return edges_[static_cast<size_t>(b)]; }

    private:
        std::vector<int64_t> edges_;  // edge(0) ... edge(count())
        int64_t b_ = 0;
    };

private:
    int64_t t0_, span_, n_;
    // Past these, b * span_ and (t - t0_) * n_ need 128 bits; below them 64
    // do, and a 128-bit division (__divti3) costs several 64-bit ones.
    int64_t edge_fits_, offset_fits_;
};

// Length of the intersection of two sets of disjoint, sorted intervals.
int64_t intersection_length(const std::vector<Interval>& a, const std::vector<Interval>& b);

// Merges possibly overlapping, unsorted intervals into disjoint sorted ones
// (in memory; for small sets such as tests and per-bucket work).
std::vector<Interval> merge_intervals(std::vector<Interval> v);

}  // namespace nx
