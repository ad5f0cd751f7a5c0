#include "common/profile/interval_union.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <queue>

#include "common/io/error.h"
#include "common/io/spill_file.h"

namespace nx {

namespace {

// Sorts by begin and merges overlapping/adjacent intervals in place.
void sort_and_merge(std::vector<Interval>& v) {
    if (!std::is_sorted(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; }))
        std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
    size_t out = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (out > 0 && v[i].begin <= v[out - 1].end) {
            v[out - 1].end = std::max(v[out - 1].end, v[i].end);
        } else {
            v[out++] = v[i];
        }
    }
    v.resize(out);
}

}  // namespace

IntervalUnion::IntervalUnion(size_t chunk_intervals) : chunk_limit_(std::max<size_t>(chunk_intervals, 2)) {}

IntervalUnion::IntervalUnion(IntervalUnion&& o) noexcept
    : chunk_limit_(o.chunk_limit_), count_(o.count_), ordered_(o.ordered_), cur_begin_(o.cur_begin_),
      cur_end_(o.cur_end_), have_cur_(o.have_cur_), online_total_(o.online_total_), chunk_(std::move(o.chunk_)),
      spill_(o.spill_), runs_(std::move(o.runs_)), finished_(o.finished_), total_(o.total_) {
    o.spill_ = nullptr;
}

IntervalUnion::~IntervalUnion() {
    if (spill_) std::fclose(spill_);
}

void IntervalUnion::add(int64_t begin, int64_t end) {
    if (end <= begin) return;
    ++count_;
    if (ordered_) {
        if (!have_cur_) {
            cur_begin_ = begin;
            cur_end_ = end;
            have_cur_ = true;
            return;
        }
        if (begin >= cur_begin_) {
            if (begin <= cur_end_) {
                cur_end_ = std::max(cur_end_, end);
            } else {
                // The current merged interval is final: keep it (as detail for
                // the day order breaks) and count it.
                online_total_ += cur_end_ - cur_begin_;
                chunk_.push_back({cur_begin_, cur_end_});
                if (chunk_.size() >= chunk_limit_) flush_chunk();
                cur_begin_ = begin;
                cur_end_ = end;
            }
            return;
        }
        // Order broke: from here on keep raw intervals and merge at the end.
        ordered_ = false;
        chunk_.push_back({cur_begin_, cur_end_});
        have_cur_ = false;
    }
    chunk_.push_back({begin, end});
    if (chunk_.size() >= chunk_limit_) flush_chunk();
}

void IntervalUnion::flush_chunk() {
    if (chunk_.empty()) return;
    if (!ordered_) sort_and_merge(chunk_);
    if (!spill_) spill_ = open_spill_file("engine busy intervals");
    if (std::fseek(spill_, 0, SEEK_END) != 0) throw Error("cannot seek temporary interval file");
    long offset = std::ftell(spill_);
    if (std::fwrite(chunk_.data(), sizeof(Interval), chunk_.size(), spill_) != chunk_.size())
        throw Error(std::string("cannot write temporary interval run: ") + std::strerror(errno));
    runs_.emplace_back(offset, chunk_.size());
    chunk_.clear();
}

struct IntervalUnion::Reader::State {
    // The in-memory part, as one more run: the union's own chunk (merged
    // already when input came in order) or a sorted, merged copy of it.
    std::vector<Interval> copy;
    const std::vector<Interval>* tail = nullptr;
    size_t tail_pos = 0;
    // In order: the interval still growing, after the chunk's.
    bool has_last = false;
    Interval last{0, 0};
    std::vector<SpilledRunReader<Interval>> readers;
    // In order, the spilled runs follow one another in time (each holds
    // merged intervals that end before the next run's start): they are read
    // one after the other, then the tail, with no merge.
    bool in_order = false;
    size_t run = 0;  // the run being read, in order
    using Item = std::pair<Interval, size_t>;  // interval, source (readers.size() = tail)
    struct Later {
        bool operator()(const Item& a, const Item& b) const { return a.first.begin > b.first.begin; }
    };
    std::priority_queue<Item, std::vector<Item>, Later> heap;
    bool have = false;
    Interval cur{0, 0};

    // The tail's next interval (its last one included).
    bool next_in_tail(Interval& iv) {
        if (tail_pos < tail->size()) {
            iv = (*tail)[tail_pos++];
            return true;
        }
        if (has_last) {
            iv = last;
            has_last = false;
            return true;
        }
        return false;
    }
    void pull(size_t src) {
        Interval iv;
        if (src < readers.size()) {
            if (readers[src].next(iv)) heap.push({iv, src});
        } else if (next_in_tail(iv)) {
            heap.push({iv, src});
        }
    }
};

IntervalUnion::Reader::Reader(IntervalUnion& u) : state_(std::make_unique<State>()) {
    State& s = *state_;
    // Nothing is added while a Reader is in use, so in order the chunk is
    // read where it is: a Reader costs no copy (profile metrics make ten).
    if (u.ordered_) {
        s.tail = &u.chunk_;
        s.has_last = u.have_cur_;
        s.last = {u.cur_begin_, u.cur_end_};
    } else {
        s.copy = u.chunk_;
        sort_and_merge(s.copy);
        s.tail = &s.copy;
    }
    if (u.spill_) std::fflush(u.spill_);
    s.readers.reserve(u.runs_.size());
    for (auto& r : u.runs_) s.readers.emplace_back(u.spill_, r.first, r.second, 4096, "cannot read temporary interval run");
    // In order, or with no spilled run, the runs and the tail are the
    // union, merged and in order: next() reads them without the merge's heap.
    s.in_order = u.ordered_;
    if (s.in_order || s.readers.empty()) return;
    for (size_t i = 0; i <= s.readers.size(); ++i) s.pull(i);
}

IntervalUnion::Reader::~Reader() = default;

bool IntervalUnion::Reader::next(Interval& out) {
    State& s = *state_;
    if (s.in_order || s.readers.empty()) {
        for (; s.run < s.readers.size(); ++s.run)
            if (s.readers[s.run].next(out)) return true;
        return s.next_in_tail(out);
    }
    while (!s.heap.empty()) {
        State::Item top = s.heap.top();
        s.heap.pop();
        s.pull(top.second);
        const Interval& iv = top.first;
        if (s.have && iv.begin <= s.cur.end) {
            s.cur.end = std::max(s.cur.end, iv.end);
            continue;
        }
        if (s.have) {
            out = s.cur;
            s.cur = iv;
            return true;
        }
        s.cur = iv;
        s.have = true;
    }
    if (s.have) {
        out = s.cur;
        s.have = false;
        return true;
    }
    return false;
}

void IntervalUnion::merge_runs(const std::function<void(const Interval&)>& fn) {
    Reader reader(*this);
    Interval iv;
    while (reader.next(iv)) fn(iv);
}

int64_t IntervalUnion::total() {
    if (finished_) return total_;
    if (ordered_) {
        total_ = online_total_ + (have_cur_ ? cur_end_ - cur_begin_ : 0);
    } else {
        int64_t sum = 0;
        merge_runs([&](const Interval& iv) { sum += iv.end - iv.begin; });
        total_ = sum;
    }
    finished_ = true;
    return total_;
}

void IntervalUnion::for_each(const std::function<void(const Interval&)>& fn) { merge_runs(fn); }

TimeBuckets::TimeBuckets(int64_t start, int64_t end, int64_t count)
    : t0_(start),
      span_(std::max<int64_t>(end - start, 1)),
      n_(std::max<int64_t>(count, 1)),
      edge_fits_(INT64_MAX / span_),
      offset_fits_(INT64_MAX / n_) {}

int64_t TimeBuckets::edge(int64_t b) const {
    if (b >= 0 && b <= edge_fits_) return t0_ + b * span_ / n_;
    return t0_ + static_cast<int64_t>(static_cast<__int128>(b) * span_ / n_);
}

int64_t TimeBuckets::of(int64_t t) const {
    // In 128 bits only when 64 would overflow: the 128-bit division was 3%
    // of a JSON import's parse thread.  The same quotient either way.
    int64_t d = t - t0_;
    int64_t q = d >= 0 && d <= offset_fits_ ? d * n_ / span_
                                             : static_cast<int64_t>(static_cast<__int128>(d) * n_ / span_);
    int64_t b = std::clamp<int64_t>(q, 0, n_ - 1);
    // Edges round down, and so does this quotient, past an edge at times:
    // 2940 ns in 50 buckets puts edge(43) at 2528, where the quotient says 42.
    // The bucket is the one whose edges hold t.
    while (b + 1 < n_ && edge(b + 1) <= t) ++b;
    return b;
}

TimeBuckets::Forward::Forward(const TimeBuckets& tb) : edges_(static_cast<size_t>(tb.count()) + 1) {
    for (int64_t b = 0; b <= tb.count(); ++b) edges_[static_cast<size_t>(b)] = tb.edge(b);
}

int64_t TimeBuckets::Forward::of(int64_t t) {
    // The last bucket whose lower edge is at or before t (of()'s answer,
    // clamped to the first and the last).
    const auto last = static_cast<int64_t>(edges_.size()) - 2;
    while (b_ < last && edges_[static_cast<size_t>(b_) + 1] <= t) ++b_;
    return b_;
}

std::vector<int64_t> TimeBuckets::busy(IntervalUnion& u) const {
    std::vector<int64_t> out(static_cast<size_t>(n_), 0);
    // The union's intervals are in order and apart, so their times only grow.
    Forward buckets(*this);
    IntervalUnion::Reader reader(u);
    Interval iv;
    while (reader.next(iv)) {
        for (int64_t b = buckets.of(iv.begin), last = buckets.of(iv.end - 1); b <= last; ++b) {
            int64_t lo = std::max(iv.begin, buckets.edge(b)), hi = std::min(iv.end, buckets.edge(b + 1));
            if (hi > lo) out[static_cast<size_t>(b)] += hi - lo;
        }
    }
    return out;
}

std::vector<double> TimeBuckets::percent(IntervalUnion& u) const {
    std::vector<int64_t> ns = busy(u);
    std::vector<double> out;
    for (int64_t b = 0; b < n_; ++b) {
        double width = static_cast<double>(edge(b + 1) - edge(b));
        out.push_back(width > 0 ? 100.0 * static_cast<double>(ns[static_cast<size_t>(b)]) / width : 0);
    }
    return out;
}

int64_t intersection_length(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    int64_t total = 0;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        int64_t lo = std::max(a[i].begin, b[j].begin);
        int64_t hi = std::min(a[i].end, b[j].end);
        if (hi > lo) total += hi - lo;
        if (a[i].end < b[j].end) ++i;
        else ++j;
    }
    return total;
}

std::vector<Interval> merge_intervals(std::vector<Interval> v) {
    v.erase(std::remove_if(v.begin(), v.end(), [](const Interval& iv) { return iv.end <= iv.begin; }), v.end());
    sort_and_merge(v);
    return v;
}

}  // namespace nx
