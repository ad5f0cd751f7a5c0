#include "common/profile/time_breakdown.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <climits>
#include <memory>
#include <vector>

#include "common/profile/interval_sweep.h"

namespace nx {

namespace {

// What Explorer's CcOp row says beyond the interval, among the row's other
// fields (args): the engine that triggered the operation and the delay from
// that trigger to its start.  A field of another type is not said.
void read_trigger(std::string_view args, CollectiveOp& op) {
    if (args.find("trigger") == std::string_view::npos) return;
    rapidjson::Document doc;
    doc.Parse(args.data(), args.size());
    if (doc.HasParseError() || !doc.IsObject()) return;
    if (auto m = doc.FindMember("trigger_engine"); m != doc.MemberEnd() && m->value.IsString()) {
        std::string_view label(m->value.GetString(), m->value.GetStringLength());
        Engine engine = engine_from_label(label);
        op.engine = engine != Engine::none ? std::string(to_string(engine)) : std::string(label);
    }
    if (auto m = doc.FindMember("cc_trigger_start_delay"); m != doc.MemberEnd() && m->value.IsInt64() &&
                                                            m->value.GetInt64() >= 0)
        op.trigger_delay_ns = m->value.GetInt64();
}

}  // namespace

void CollectiveOps::add(const Event& e) {
    ++count_;
    intervals_.add(e.ts_ns, e.ts_ns + std::max<int64_t>(e.dur_ns, 0));
    if (ops_.size() >= kMaxOps) {
        ++dropped_;
        return;
    }
    CollectiveOp& op = ops_.emplace_back();
    op.name = e.name;
    op.start_ns = e.ts_ns;
    op.dur_ns = std::max<int64_t>(e.dur_ns, 0);
    op.bytes = e.bytes;
    read_trigger(e.args_json, op);
}

std::vector<CollectiveOp> CollectiveOps::take_ops() {
    std::stable_sort(ops_.begin(), ops_.end(),
                     [](const CollectiveOp& a, const CollectiveOp& b) { return a.start_ns < b.start_ns; });
    return std::move(ops_);
}

namespace {

// What a row of the sweep counts towards.
struct RowKind {
    int kind;  // 0 compute, 1 collective, 2 DMA
    int slot;  // its place in kExecutionEngines (TensorE's rows share one), or -1
};
using Stream = SweepRow<RowKind>;

// Time by the set of kinds in progress (bit per kind: 1 compute,
// 2 collective, 4 DMA).
using SetTimes = std::array<int64_t, 8>;

int slot_of(Engine e) {
    if (e == Engine::tensor_matrix) e = Engine::tensor;
    for (size_t k = 0; k < std::size(kExecutionEngines); ++k)
        if (kExecutionEngines[k] == e) return static_cast<int>(k);
    return -1;
}

// A reader of each engine row's busy time (compute), of the collectives,
// and of DMA.
std::vector<Stream> breakdown_streams(EngineBusy& busy, IntervalUnion& collectives) {
    std::vector<Stream> streams;
    auto add = [&](IntervalUnion& u, int kind, int slot) { streams.emplace_back(u, RowKind{kind, slot}); };
    for (Engine e : EngineBusy::kRows) {
        if (e == Engine::dma || !busy.present(e) || busy.row(e) != e) continue;
        add(busy.busy(e), 0, slot_of(e));
    }
    add(collectives, 1, -1);
    if (busy.present(Engine::dma)) add(busy.busy(Engine::dma), 2, slot_of(Engine::dma));
    return streams;
}

// What is in progress at a point of the sweep: streams of each kind, and
// of each execution engine.
struct InProgress {
    int64_t kind[3] = {0, 0, 0};
    int64_t slot[std::size(kExecutionEngines)] = {};
    int set() const { return (kind[0] > 0 ? 1 : 0) | (kind[1] > 0 ? 2 : 0) | (kind[2] > 0 ? 4 : 0); }
};

// The sweep: `on_stretch(pos, next)` for each stretch between two
// consecutive boundaries, with `in` saying what is in progress over it.
template <class OnStretch>
void sweep(std::vector<Stream>& streams, InProgress& in, OnStretch on_stretch) {
    auto count = [&in](const RowKind& r, int by) {
        in.kind[r.kind] += by;
        if (r.slot >= 0) in.slot[r.slot] += by;
    };
    sweep_rows(
        streams, [&](const RowKind& r) { count(r, 1); }, [&](const RowKind& r) { count(r, -1); }, on_stretch);
}

// The breakdown's figures (TimeBreakdown's, an execution's) from the time
// by set over a window of `span` ns.
template <class Figures>
void set_figures(const SetTimes& b, int64_t span, Figures& x) {
    x.compute_ns = b[1] + b[3] + b[5] + b[7];
    x.collective_ns = b[2] + b[3] + b[6] + b[7];
    x.overlap_ns = b[3] + b[7];
    x.dma_exposed_ns = b[4];
    int64_t all = 0;
    for (size_t k = 1; k < 8; ++k) all += b[k];
    x.idle_ns = std::max<int64_t>(span - all, 0);
}

// Executions: each stretch adds to those whose window it overlaps (sorted
// by start; first_ the earliest not ended yet).
class ExecutionWindows {
public:
    explicit ExecutionWindows(std::vector<ExecutionStat>* executions) : x_(executions) {
        if (!x_) return;
        std::stable_sort(x_->begin(), x_->end(), [](const ExecutionStat& a, const ExecutionStat& b) {
            return a.window.start_ns < b.window.start_ns;
        });
        sets_.assign(x_->size(), {});
    }

    void add(int set, int64_t pos, int64_t next, const InProgress& in) {
        if (!x_ || set == 0) return;
        while (first_ < x_->size() && (*x_)[first_].window.end_ns <= pos) ++first_;
        for (size_t w = first_; w < x_->size() && (*x_)[w].window.start_ns < next; ++w) {
            ExecutionStat& x = (*x_)[w];
            int64_t lo = std::max(pos, x.window.start_ns), hi = std::min(next, x.window.end_ns);
            if (hi <= lo) continue;
            sets_[w][static_cast<size_t>(set)] += hi - lo;
            for (size_t k = 0; k < std::size(kExecutionEngines); ++k)
                if (in.slot[k] > 0) x.busy_ns[k] += hi - lo;
        }
    }

    void finish() {
        for (size_t w = 0; w < sets_.size(); ++w) set_figures(sets_[w], (*x_)[w].dur_ns(), (*x_)[w]);
    }

private:
    std::vector<ExecutionStat>* x_;
    std::vector<SetTimes> sets_;
    size_t first_ = 0;
};

// The compute and collective share of each timeline bucket.
class BucketShares {
public:
    BucketShares(int64_t start_ns, int64_t end_ns, int buckets)
        : start_(start_ns), end_(end_ns), tb_(start_ns, end_ns, std::max(buckets, 1)), forward_(tb_),
          compute_(static_cast<size_t>(tb_.count()), 0), collective_(compute_) {}

    // Cut the stretch at bucket edges.
    void add(int set, int64_t pos, int64_t next) {
        for (int64_t lo = std::max(pos, start_), hi; lo < std::min(next, end_); lo = hi) {
            int64_t b = forward_.of(lo);
            hi = b + 1 < tb_.count() ? std::min(next, forward_.edge(b + 1)) : std::min(next, end_);
            if (set & 1) compute_[static_cast<size_t>(b)] += hi - lo;
            if (set & 2) collective_[static_cast<size_t>(b)] += hi - lo;
        }
    }

    void percents(TimeBreakdown& out) const {
        for (int64_t b = 0; b < tb_.count(); ++b) {
            double width = static_cast<double>(tb_.edge(b + 1) - tb_.edge(b));
            out.compute_percent.push_back(width > 0 ? 100.0 * static_cast<double>(compute_[static_cast<size_t>(b)]) / width : 0);
            out.collective_percent.push_back(width > 0 ? 100.0 * static_cast<double>(collective_[static_cast<size_t>(b)]) / width : 0);
        }
    }

private:
    int64_t start_, end_;
    TimeBuckets tb_;
    TimeBuckets::Forward forward_;  // the sweep's times only grow
    std::vector<int64_t> compute_, collective_;
};

}  // namespace

// One sweep over every row's merged intervals (each sorted and disjoint):
// between two consecutive boundaries the set of kinds in progress is fixed,
// so each stretch adds to the figure of its set and, cut at bucket edges, to
// the buckets.  Memory: one reader per row, whatever the events.
TimeBreakdown break_down_time(EngineBusy& busy, IntervalUnion& collectives, int64_t start_ns, int64_t end_ns,
                              int buckets, std::vector<ExecutionStat>* executions) {
    TimeBreakdown out;
    out.span_ns = std::max<int64_t>(end_ns - start_ns, 0);
    std::vector<Stream> streams = breakdown_streams(busy, collectives);
    ExecutionWindows windows(executions);
    const bool bucketed = out.span_ns > 0;
    BucketShares shares(start_ns, end_ns, buckets);
    SetTimes by_set{};
    InProgress in;
    sweep(streams, in, [&](int64_t pos, int64_t next) {
        const int set = in.set();
        by_set[static_cast<size_t>(set)] += next - pos;
        windows.add(set, pos, next, in);
        if (bucketed && (set & 3)) shares.add(set, pos, next);
    });
    set_figures(by_set, out.span_ns, out);
    windows.finish();
    if (bucketed) shares.percents(out);
    return out;
}

}  // namespace nx
