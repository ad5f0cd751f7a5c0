#include "common/trace/trace_counters.h"

#include <algorithm>

namespace nx {

namespace {
constexpr double kPercent = 100.0;
}  // namespace

void StepCounter::set(int64_t ts, double value) {
    if (have_pending_ && ts != pending_ts_) {
        if (!have_written_ || pending_ != written_) {
            writer_.counter(track_, pending_ts_, pending_);
            written_ = pending_;
            have_written_ = true;
        }
    }
    have_pending_ = true;
    pending_ts_ = ts;
    pending_ = value;
}

void StepCounter::finish() {
    if (have_pending_ && (!have_written_ || pending_ != written_)) writer_.counter(track_, pending_ts_, pending_);
    have_pending_ = false;
}

void DmaCounters::changed(int64_t ts) {
    throughput_.set(ts, static_cast<double>(rate_));
    pending_.set(ts, static_cast<double>(in_flight_.size()));
}

void DmaCounters::advance_to(int64_t ts) {
    while (!in_flight_.empty() && in_flight_.top().end <= ts) {
        InFlight f = in_flight_.top();
        in_flight_.pop();
        rate_ -= f.rate;
        changed(f.end);
    }
}

void DmaCounters::transfer(int64_t begin, int64_t end, int64_t bytes) {
    advance_to(begin);
    // Whole bytes per second, rounded: sums of integers are exact, so the
    // counter is the same whatever order the transfers that start or end
    // together come in (the layout's, or a database's).
    __int128 rate = 0;
    if (bytes > 0 && end > begin) {
        auto dur = static_cast<__int128>(end) - begin;
        rate = (static_cast<__int128>(bytes) * 1000000000 + dur / 2) / dur;
    }
    in_flight_.push({end, rate});
    rate_ += rate;
    changed(begin);
}

void DmaCounters::finish() {
    while (!in_flight_.empty()) advance_to(in_flight_.top().end);
    throughput_.finish();
    pending_.finish();
}

UtilisationBins::UtilisationBins(int64_t start, int64_t end) : start_(start), end_(std::max(start, end)) {
    int64_t span = end_ - start_;
    width_ = std::max<int64_t>(1, (span + kBins - 1) / kBins);
    bins_ = span > 0 ? static_cast<int>((span + width_ - 1) / width_) : 0;
}

void UtilisationBins::commit(Engine_& s) {
    if (!s.have || bins_ == 0) return;
    if (s.busy_ns.empty()) s.busy_ns.assign(static_cast<size_t>(bins_), 0.0);
    int64_t b = std::clamp(s.begin, start_, end_), e = std::clamp(s.end, start_, end_);
    while (b < e) {
        int64_t bin = (b - start_) / width_;
        int64_t bin_end = std::min(end_, start_ + (bin + 1) * width_);
        int64_t hi = std::min(e, bin_end);
        s.busy_ns[static_cast<size_t>(bin)] += static_cast<double>(hi - b);
        b = hi;
    }
    s.have = false;
}

void UtilisationBins::add(Engine e, int64_t begin, int64_t end) {
    if (end <= begin) return;
    Engine_& s = engines_[static_cast<size_t>(e)];
    if (s.have && begin <= s.end) {
        s.end = std::max(s.end, end);
        return;
    }
    commit(s);
    s.have = true;
    s.begin = begin;
    s.end = end;
}

bool UtilisationBins::busy(Engine e) {
    Engine_& s = engines_[static_cast<size_t>(e)];
    commit(s);
    return !s.busy_ns.empty();
}

void UtilisationBins::write(Engine e, TraceWriter& w, const TraceTrack& t) {
    Engine_& s = engines_[static_cast<size_t>(e)];
    commit(s);
    if (s.busy_ns.empty()) return;
    // Runs of equal bins (idle stretches) become one sample.
    StepCounter c(w, t);
    for (int i = 0; i < bins_; ++i) {
        int64_t lo = start_ + i * width_, hi = std::min(end_, lo + width_);
        double pct = hi > lo ? kPercent * s.busy_ns[static_cast<size_t>(i)] / static_cast<double>(hi - lo) : 0;
        c.set(lo, std::clamp(pct, 0.0, kPercent));
    }
    c.set(end_, 0);
    c.finish();
}

}  // namespace nx
