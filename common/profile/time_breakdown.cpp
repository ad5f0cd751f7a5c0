#include "common/profile/time_breakdown.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <vector>

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

// One row's merged intervals, read in order.
struct Stream {
    std::unique_ptr<IntervalUnion::Reader> reader;
    int kind;  // 0 compute, 1 collective, 2 DMA
    int slot;  // its place in kExecutionEngines (TensorE's rows share one), or -1
    Interval cur{};
    bool more = false;
    bool inside = false;  // the sweep is within cur
    void advance() { more = reader->next(cur); }
    int64_t next_boundary() const { return inside ? cur.end : cur.begin; }
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
    std::vector<Stream> streams;
    auto slot_of = [](Engine e) {
        if (e == Engine::tensor_matrix) e = Engine::tensor;
        for (size_t k = 0; k < std::size(kExecutionEngines); ++k)
            if (kExecutionEngines[k] == e) return static_cast<int>(k);
        return -1;
    };
    auto add = [&](IntervalUnion& u, int kind, int slot) {
        streams.push_back({std::make_unique<IntervalUnion::Reader>(u), kind, slot});
        streams.back().advance();
    };
    for (Engine e : EngineBusy::kRows) {
        if (e == Engine::dma || !busy.present(e) || busy.row(e) != e) continue;
        add(busy.busy(e), 0, slot_of(e));
    }
    add(collectives, 1, -1);
    if (busy.present(Engine::dma)) add(busy.busy(Engine::dma), 2, slot_of(Engine::dma));
    // Executions: each stretch adds to those whose window it overlaps
    // (sorted by start; `first` the earliest not ended yet).
    std::vector<std::array<int64_t, 8>> window_sets;
    if (executions) {
        std::stable_sort(executions->begin(), executions->end(), [](const ExecutionStat& a, const ExecutionStat& b) {
            return a.window.start_ns < b.window.start_ns;
        });
        window_sets.assign(executions->size(), {});
    }
    size_t first = 0;
    int64_t in_slot[std::size(kExecutionEngines)] = {};

    const bool bucketed = out.span_ns > 0;
    TimeBuckets tb(start_ns, end_ns, std::max(buckets, 1));
    TimeBuckets::Forward forward(tb);  // the sweep's times only grow
    std::vector<int64_t> compute_b(static_cast<size_t>(tb.count()), 0), collective_b(compute_b);
    int64_t in_kind[3] = {0, 0, 0};  // streams of each kind in progress
    int64_t by_set[8] = {};          // length by the set of kinds in progress (bit per kind)
    int64_t pos = INT64_MIN;
    for (;;) {
        int64_t next = INT64_MAX;
        for (const Stream& s : streams)
            if (s.more) next = std::min(next, s.next_boundary());
        if (next == INT64_MAX) break;
        if (pos != INT64_MIN && next > pos) {
            int set = (in_kind[0] > 0 ? 1 : 0) | (in_kind[1] > 0 ? 2 : 0) | (in_kind[2] > 0 ? 4 : 0);
            by_set[set] += next - pos;
            if (executions && set != 0) {
                while (first < executions->size() && (*executions)[first].window.end_ns <= pos) ++first;
                for (size_t w = first; w < executions->size() && (*executions)[w].window.start_ns < next; ++w) {
                    ExecutionStat& x = (*executions)[w];
                    int64_t lo = std::max(pos, x.window.start_ns), hi = std::min(next, x.window.end_ns);
                    if (hi <= lo) continue;
                    window_sets[w][static_cast<size_t>(set)] += hi - lo;
                    for (size_t k = 0; k < std::size(kExecutionEngines); ++k)
                        if (in_slot[k] > 0) x.busy_ns[k] += hi - lo;
                }
            }
            if (bucketed && (set & 3)) {
                // Cut the stretch at bucket edges.
                for (int64_t lo = std::max(pos, start_ns), hi; lo < std::min(next, end_ns); lo = hi) {
                    int64_t b = forward.of(lo);
                    hi = b + 1 < tb.count() ? std::min(next, forward.edge(b + 1)) : std::min(next, end_ns);
                    if (set & 1) compute_b[static_cast<size_t>(b)] += hi - lo;
                    if (set & 2) collective_b[static_cast<size_t>(b)] += hi - lo;
                }
            }
        }
        pos = next;
        for (Stream& s : streams) {
            while (s.more && s.next_boundary() == pos) {
                if (s.inside) {
                    --in_kind[s.kind];
                    if (s.slot >= 0) --in_slot[s.slot];
                    s.inside = false;
                    s.advance();
                } else {
                    ++in_kind[s.kind];
                    if (s.slot >= 0) ++in_slot[s.slot];
                    s.inside = true;
                }
            }
        }
    }
    out.compute_ns = by_set[1] + by_set[3] + by_set[5] + by_set[7];
    out.collective_ns = by_set[2] + by_set[3] + by_set[6] + by_set[7];
    out.overlap_ns = by_set[3] + by_set[7];
    out.dma_exposed_ns = by_set[4];
    int64_t all = 0;
    for (int k = 1; k < 8; ++k) all += by_set[k];
    out.idle_ns = std::max<int64_t>(out.span_ns - all, 0);
    for (size_t w = 0; w < window_sets.size(); ++w) {
        const std::array<int64_t, 8>& b = window_sets[w];
        ExecutionStat& x = (*executions)[w];
        x.compute_ns = b[1] + b[3] + b[5] + b[7];
        x.collective_ns = b[2] + b[3] + b[6] + b[7];
        x.overlap_ns = b[3] + b[7];
        x.dma_exposed_ns = b[4];
        int64_t in_window = 0;
        for (int k = 1; k < 8; ++k) in_window += b[static_cast<size_t>(k)];
        x.idle_ns = std::max<int64_t>(x.dur_ns() - in_window, 0);
    }
    if (bucketed) {
        for (int64_t b = 0; b < tb.count(); ++b) {
            double width = static_cast<double>(tb.edge(b + 1) - tb.edge(b));
            out.compute_percent.push_back(width > 0 ? 100.0 * static_cast<double>(compute_b[static_cast<size_t>(b)]) / width : 0);
            out.collective_percent.push_back(width > 0 ? 100.0 * static_cast<double>(collective_b[static_cast<size_t>(b)]) / width : 0);
        }
    }
    return out;
}

}  // namespace nx
