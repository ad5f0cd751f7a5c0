#include "common/profile/device_streams.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <map>
#include <memory>
#include <regex>

#include "common/profile/interval_sweep.h"
#include "common/profile/interval_union.h"
#include "common/profile/kernel_collectives.h"

namespace nx {

namespace {

// Run size of each external sorter: a trace of a few hundred thousand
// kernels never touches the disk.
constexpr size_t kRunBytes = size_t{16} << 20;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool starts_with_nocase(std::string_view s, std::string_view p) {
    if (s.size() < p.size()) return false;
    for (size_t i = 0; i < p.size(); ++i) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
        if (c != p[i]) return false;
    }
    return true;
}

// HTA's communication kernels: a name that starts with "nccl" and holds
// "Kernel" further on (ncclKernel_AllReduce_..., ncclDevKernel_...; RCCL
// names its kernels so too).  nx adds oneCCL's, which start with "oneccl"
// or "ccl_" / "ccl::" in any case.
bool communication_name(std::string_view n) {
    if (starts_with(n, "nccl") && n.find("Kernel", 4) != std::string_view::npos) return true;
    return starts_with_nocase(n, "oneccl") || starts_with_nocase(n, "ccl_") || starts_with_nocase(n, "ccl::");
}

// The runtime calls that put work on a stream's launch queue (HTA's list:
// CUDA's, HIP's and MTIA's kernel launches, async copies and sets).
bool launch_call(std::string_view n) {
    static constexpr std::string_view kCalls[] = {
        "cudaLaunchKernel",   "cudaLaunchKernelExC", "cuLaunchKernel",          "cuLaunchKernelEx",
        "cudaMemcpyAsync",    "cudaMemsetAsync",     "hipLaunchKernel",         "hipExtLaunchKernel",
        "hipExtModuleLaunchKernel", "hipModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync",
        "runFunction - job_prep_and_submit_for_execution"};
    return std::find(std::begin(kCalls), std::end(kCalls), n) != std::end(kCalls);
}

constexpr int kKinds = 4;  // DeviceWork values, one bit each in a sweep's set

// A step's window and where its time went (by set of kinds running).
struct StepWindow {
    int64_t step = 0, start = INT64_MAX, end = INT64_MIN;
    std::array<int64_t, 1 << kKinds> by_set{};
};

// Linear interpolation between closest ranks (pandas' describe()), over a
// histogram of integer values.
double quantile(const std::map<int64_t, int64_t>& hist, int64_t n, double q) {
    if (n <= 0) return 0;
    double pos = q * static_cast<double>(n - 1);
    auto lo_rank = static_cast<int64_t>(std::floor(pos));
    double frac = pos - static_cast<double>(lo_rank);
    int64_t seen = 0;
    double lo = 0, hi = 0;
    bool have_lo = false;
    for (const auto& [value, count] : hist) {
        if (!have_lo && lo_rank < seen + count) {
            lo = static_cast<double>(value);
            have_lo = true;
            if (lo_rank + 1 < seen + count) return lo;  // both in this value
        } else if (have_lo) {
            hi = static_cast<double>(value);
            return lo + frac * (hi - lo);
        }
        seen += count;
    }
    return lo;
}

using SetTimes = std::array<int64_t, 1 << kKinds>;
using KindUnions = std::array<std::unique_ptr<IntervalUnion>, kKinds>;
constexpr int kComp = 1 << static_cast<int>(DeviceWork::computation);
constexpr int kComm = 1 << static_cast<int>(DeviceWork::communication);

// The step whose CPU window holds time t (the last of overlapping ones,
// as HTA assigns them), or -1.
int64_t step_at(const std::vector<Iteration>& steps, int64_t t) {
    auto after = std::upper_bound(steps.begin(), steps.end(), t,
                                  [](int64_t x, const Iteration& it) { return x < it.start_ns; });
    for (auto it = after; it != steps.begin();) {
        --it;
        if (t < event_end(it->start_ns, it->dur_ns)) return it - steps.begin();
        if (after - it > 4) break;  // steps do not nest deeper than this
    }
    return -1;
}

// Counted work on its stream, or its launch entering the stream's launch
// queue; sorted by time.
struct StreamPoint {
    int64_t ts;
    int64_t end;          // work: its end; launch: 0
    int64_t stream;
    int64_t launch_ts;    // work: its launch's start (INT64_MIN: none)
    int64_t launch_end;
    uint8_t kind;         // DeviceWork
    uint8_t role;         // 0: a launch entering the queue, 1: work
    uint8_t queued;       // work whose launch is a launch call
    int64_t key() const { return ts; }
};

// One stream's figures from its points in time order: busy time, idle
// gaps by cause, the launch queue.
struct StreamTally {
    DeviceStreamStat stat;
    bool any_work = false;
    int64_t prev_end = 0;
    int64_t busy_begin = 0, busy_end = 0;
    bool busy_open = false;
    int64_t queue = 0, last_ts = 0, last_value = 0;
    bool any_point = false;
    double sum = 0, sum_sq = 0;
    std::map<int64_t, int64_t> counts, time_at;

    // Work: the idle gap before it, by cause, and the busy stretch it
    // extends or opens.
    void add_work(const StreamPoint& p) {
        ++stat.events;
        if (any_work) {
            int64_t gap = p.ts - prev_end;
            if (p.launch_ts != INT64_MIN && p.launch_ts > prev_end) stat.host_wait_ns += gap;
            else if (gap < kKernelWaitNs) stat.kernel_wait_ns += gap;
            else stat.other_wait_ns += gap;
        }
        any_work = true;
        prev_end = p.end;
        if (busy_open && p.ts <= busy_end) {
            busy_end = std::max(busy_end, p.end);
        } else {
            if (busy_open) stat.busy_ns += busy_end - busy_begin;
            busy_begin = p.ts;
            busy_end = p.end;
            busy_open = true;
        }
    }

    // The queue's length after this point: one more for a launch, one
    // less as its work starts.
    void add_queue_point(const StreamPoint& p) {
        if (any_point) time_at[last_value] += p.ts - last_ts;
        queue += p.role == 0 ? 1 : -1;
        any_point = true;
        last_ts = p.ts;
        last_value = queue;
        ++counts[queue];
        ++stat.queue_points;
        sum += static_cast<double>(queue);
        sum_sq += static_cast<double>(queue) * static_cast<double>(queue);
    }

    // The figures once every point is in: the last busy stretch, and the
    // queue's distribution and time at its longest and at CUDA's limit.
    DeviceStreamStat finish() {
        if (busy_open) stat.busy_ns += busy_end - busy_begin;
        DeviceStreamStat& st = stat;
        if (st.queue_points > 0) {
            double n = static_cast<double>(st.queue_points);
            st.queue_mean = sum / n;
            st.queue_std = st.queue_points > 1 ? std::sqrt(std::max(0.0, (sum_sq - sum * sum / n) / (n - 1))) : 0;
            st.queue_min = counts.begin()->first;
            st.queue_max = counts.rbegin()->first;
            st.queue_p25 = quantile(counts, st.queue_points, 0.25);
            st.queue_p50 = quantile(counts, st.queue_points, 0.50);
            st.queue_p75 = quantile(counts, st.queue_points, 0.75);
            auto at = time_at.find(st.queue_max);
            st.queue_at_max_ns = at != time_at.end() ? at->second : 0;
            for (auto it = time_at.lower_bound(kLaunchQueueLimit); it != time_at.end(); ++it)
                st.queue_full_ns += it->second;
        }
        return st;
    }
};

// A launch call's figures: the CPU's time in the call, the device's in
// its work, and the delay from the call's end to the work's start.
void add_launch(DeviceLaunchStat& ls, const StreamPoint& p) {
    ++ls.launches;
    int64_t cpu = p.launch_end - p.launch_ts, gpu = p.end - p.ts, delay = p.ts - p.launch_end;
    ls.cpu_sum_ns += cpu;
    ls.cpu_max_ns = std::max(ls.cpu_max_ns, cpu);
    ls.gpu_sum_ns += gpu;
    ls.gpu_max_ns = std::max(ls.gpu_max_ns, gpu);
    ls.delay_sum_ns += delay;
    ls.delay_max_ns = std::max(ls.delay_max_ns, delay);
    if (cpu > kRuntimeOutlierNs) ++ls.cpu_outliers;
    if (delay > kLaunchDelayOutlierNs) ++ls.delay_outliers;
}

// Per stream: busy time, idle gaps by cause, the launch queue; per
// launch: CPU time, device time, delay.
void tally_streams(RecordSorter<StreamPoint>& points, DeviceSummary& out) {
    std::map<int64_t, StreamTally> streams;
    points.drain([&](const StreamPoint& p) {
        StreamTally& s = streams[p.stream];
        s.stat.stream = p.stream;
        if (p.role == 1) {
            s.add_work(p);
            if (p.queued) add_launch(out.launches, p);
        }
        if (p.role == 0 || p.queued) s.add_queue_point(p);
    });
    for (auto& [id, s] : streams) out.streams.push_back(s.finish());
}

// Where a sweep's stretches go: each adds to its set of kinds' time, to
// the steps' windows it overlaps, and (with a timeline) to the buckets.
class SweepTally {
public:
    SweepTally(std::vector<StepWindow>& windows, const TimeBuckets& tb, bool timeline)
        : compute_b(static_cast<size_t>(tb.count()), 0), comm_b(compute_b), windows_(windows), forward_(tb),
          buckets_(tb.count()), timeline_(timeline) {
        for (size_t k = 0; k < windows_.size(); ++k)
            if (windows_[k].start < windows_[k].end) order_.push_back(k);
        std::stable_sort(order_.begin(), order_.end(),
                         [&](size_t a, size_t b) { return windows_[a].start < windows_[b].start; });
    }

    // The stretch [lo, hi), over which the kinds of `set` run.
    void add(int set, int64_t lo, int64_t hi) {
        by_set[static_cast<size_t>(set)] += hi - lo;
        add_to_steps(set, lo, hi);
        if (timeline_ && (set & (kComp | kComm))) add_to_buckets(set, lo, hi);
    }

    // The steps with work, by window start.
    const std::vector<size_t>& steps_with_work() const { return order_; }

    SetTimes by_set{};
    // Per timeline bucket: the time computation, communication ran.
    std::vector<int64_t> compute_b, comm_b;

private:
    void add_to_steps(int set, int64_t lo, int64_t hi) {
        while (first_ < order_.size() && windows_[order_[first_]].end <= lo) ++first_;
        for (size_t w = first_; w < order_.size() && windows_[order_[w]].start < hi; ++w) {
            StepWindow& sw = windows_[order_[w]];
            int64_t from = std::max(lo, sw.start), to = std::min(hi, sw.end);
            if (to > from) sw.by_set[static_cast<size_t>(set)] += to - from;
        }
    }

    void add_to_buckets(int set, int64_t lo, int64_t hi) {
        for (int64_t from = lo, to; from < hi; from = to) {
            int64_t b = forward_.of(from);
            to = b + 1 < buckets_ ? std::min(hi, forward_.edge(b + 1)) : hi;
            if (set & kComp) compute_b[static_cast<size_t>(b)] += to - from;
            if (set & kComm) comm_b[static_cast<size_t>(b)] += to - from;
        }
    }

    std::vector<StepWindow>& windows_;
    std::vector<size_t> order_;
    size_t first_ = 0;  // order_'s first step not ended before the stretch
    TimeBuckets::Forward forward_;
    int64_t buckets_;
    bool timeline_;
};

// One sweep over the kinds' merged intervals: between two boundaries
// the set of kinds running is fixed, and each such stretch goes to `tally`.
void sweep_kinds(KindUnions& unions, SweepTally& tally) {
    // Each row's tag is its kind's bit in the set.
    std::vector<SweepRow<int>> rows;
    for (int k = 0; k < kKinds; ++k) rows.emplace_back(*unions[static_cast<size_t>(k)], 1 << k);
    int set = 0;
    sweep_rows(
        rows, [&](int bit) { set |= bit; }, [&](int bit) { set &= ~bit; },
        [&](int64_t pos, int64_t next) {
            if (set != 0) tally.add(set, pos, next);
        });
}

// The figures of a set of stretches: the time each kind ran, and nx's
// breakdown (compute, collectives, their overlap, the rest exposed).
void split_times(const SetTimes& sets, int64_t window, DeviceTimes& t) {
    t.span_ns = window;
    int64_t busy = 0;
    for (int s = 1; s < (1 << kKinds); ++s) {
        int64_t v = sets[static_cast<size_t>(s)];
        busy += v;
        if (s & kComp) t.computation_ns += v;
        if (s & kComm) t.communication_ns += v;
        if ((s & kComp) && (s & kComm)) t.overlap_ns += v;
        if (s & (1 << static_cast<int>(DeviceWork::memory))) t.memory_ns += v;
        if (s & (1 << static_cast<int>(DeviceWork::other))) t.other_ns += v;
        if (!(s & (kComp | kComm))) t.exposed_ns += v;
    }
    t.busy_ns = busy;
    t.idle_ns = std::max<int64_t>(window - busy, 0);
}

// HTA's kernel type breakdown: time by the set of computation,
// communication and memory running (other kernels are not among them),
// longest first.
std::vector<DeviceKernelType> kernel_types(const SetTimes& by_set) {
    std::vector<DeviceKernelType> types;
    std::array<int64_t, 8> typed{};
    for (int s = 1; s < (1 << kKinds); ++s) typed[static_cast<size_t>(s & 7)] += by_set[static_cast<size_t>(s)];
    for (int s = 1; s < 8; ++s) {
        if (typed[static_cast<size_t>(s)] == 0) continue;
        std::string label;
        for (DeviceWork w : {DeviceWork::computation, DeviceWork::communication, DeviceWork::memory})
            if (s & (1 << static_cast<int>(w))) label += (label.empty() ? "" : " overlapping ") + std::string(to_string(w));
        types.push_back({label, typed[static_cast<size_t>(s)]});
    }
    std::stable_sort(types.begin(), types.end(),
                     [](const DeviceKernelType& a, const DeviceKernelType& b) { return a.ns > b.ns; });
    return types;
}

// Each step with work: its device window and where its time went, in
// start order.
std::vector<DeviceStep> device_steps(const std::vector<StepWindow>& windows, const std::vector<size_t>& order) {
    std::vector<DeviceStep> steps;
    for (size_t k : order) {
        DeviceStep st;
        st.step = windows[k].step;
        st.start_ns = windows[k].start;
        st.end_ns = windows[k].end;
        split_times(windows[k].by_set, windows[k].end - windows[k].start, st.times);
        steps.push_back(st);
    }
    std::stable_sort(steps.begin(), steps.end(), [](const DeviceStep& a, const DeviceStep& b) { return a.start_ns < b.start_ns; });
    return steps;
}

// The timeline: per bucket, the percent of its width computation and
// communication ran.
void timeline_percent(const SweepTally& tally, const TimeBuckets& tb, DeviceSummary& out) {
    for (int64_t b = 0; b < tb.count(); ++b) {
        double width = static_cast<double>(tb.edge(b + 1) - tb.edge(b));
        out.compute_percent.push_back(width > 0 ? 100.0 * static_cast<double>(tally.compute_b[static_cast<size_t>(b)]) / width : 0);
        out.collective_percent.push_back(width > 0 ? 100.0 * static_cast<double>(tally.comm_b[static_cast<size_t>(b)]) / width : 0);
    }
}

}  // namespace

std::string_view to_string(DeviceWork w) {
    switch (w) {
        case DeviceWork::computation: return "computation";
        case DeviceWork::communication: return "communication";
        case DeviceWork::memory: return "memory";
        case DeviceWork::other: return "other";
    }
    return "other";
}

DeviceWork classify_device_work(std::string_view n) {
    if (communication_name(n)) return DeviceWork::communication;
    if (starts_with(n, "Memcpy") || starts_with(n, "Memset") || starts_with(n, "dma") || starts_with(n, "hipMemcpy") ||
        starts_with(n, "hipMemset"))
        return DeviceWork::memory;
    // HTA's non-compute names past those: Memcpy anywhere, Sync anywhere.
    if (n.find("Memcpy") != std::string_view::npos || n.find("Sync") != std::string_view::npos) return DeviceWork::other;
    return DeviceWork::computation;
}

bool json_int_member(std::string_view json, std::string_view key, int64_t& out) {
    // "key" then optional spaces, a colon, optional spaces, an integer.
    size_t from = 0;
    while (true) {
        size_t at = json.find(key, from);
        if (at == std::string_view::npos) return false;
        from = at + key.size();
        if (at == 0 || json[at - 1] != '"' || from >= json.size() || json[from] != '"') continue;
        size_t i = from + 1;
        while (i < json.size() && (json[i] == ' ' || json[i] == '\t')) ++i;
        if (i >= json.size() || json[i] != ':') continue;
        ++i;
        while (i < json.size() && (json[i] == ' ' || json[i] == '\t')) ++i;
        bool negative = i < json.size() && json[i] == '-';
        if (negative) ++i;
        if (i >= json.size() || json[i] < '0' || json[i] > '9') return false;
        int64_t v = 0;
        for (; i < json.size() && json[i] >= '0' && json[i] <= '9'; ++i) {
            if (v > (INT64_MAX - 9) / 10) return false;
            v = v * 10 + (json[i] - '0');
        }
        if (i < json.size() && (json[i] == '.' || json[i] == 'e' || json[i] == 'E')) return false;
        out = negative ? -v : v;
        return true;
    }
}

DeviceStreams::DeviceStreams() : items_(kRunBytes, "device streams") {}

void DeviceStreams::add(const Event& e) {
    Item it{};
    if (is_device_event(e.type)) {
        if (!json_int_member(e.args_json, "correlation", it.correlation) || it.correlation < 0) it.correlation = -1;
        // Kineto says the stream in args; MTIA's memory transfers may not
        // (HTA takes their thread then).
        bool has_stream = json_int_member(e.args_json, "stream", it.stream);
        // A synchronisation on no stream (stream -1: the host waiting for
        // an event or the context) is the CPU's, as HTA takes it.
        if (e.type == EventType::device_sync && has_stream && it.stream < 0) return;
        if (!has_stream || it.stream < 0) it.stream = e.tid != kNoId ? e.tid : -1;
        it.ts = e.ts_ns;
        it.end = event_end(e.ts_ns, e.dur_ns);
        DeviceWork by_name = classify_device_work(e.name);
        // By name for every device event, as HTA: "Event Sync" and "Context
        // Sync" are other work, "Stream Wait Event" computation.
        it.kind = static_cast<uint8_t>(by_name);
        it.role = 1;
        it.flag = by_name == DeviceWork::memory;
        it.sort_key = it.correlation < 0 ? -1 : it.correlation * 2 + 1;
        it.op = -1;
        if (by_name == DeviceWork::communication && ops_.size() < kMaxOps) {
            if (std::optional<CollectiveOp> op = collective_of_kernel(e)) {
                it.op = static_cast<int32_t>(ops_.size());
                ops_.push_back(std::move(*op));
                op_counted_.push_back(false);
            }
        }
        items_.add(it);
        ++device_events_;
        if (!mtia_ && e.args_json.find("\"cat\":\"mtia_") != std::string_view::npos) mtia_ = true;
    } else if (e.type == EventType::runtime) {
        // Ids past 2^62 do not fit the sort key; no trace has them.
        if (!json_int_member(e.args_json, "correlation", it.correlation) || it.correlation < 0 ||
            it.correlation > (INT64_MAX >> 2))
            return;
        it.ts = e.ts_ns;
        it.end = event_end(e.ts_ns, e.dur_ns);
        it.role = 0;
        it.flag = launch_call(e.name);
        it.sort_key = it.correlation * 2;
        items_.add(it);
        ++launches_;
        if (!mtia_ && (starts_with(e.name, "runFunction") || e.args_json.find("\"cat\":\"mtia_") != std::string_view::npos))
            mtia_ = true;
    }
}

// finish's steps: the rule of what counts, the join of work and launches,
// the streams' figures, and one sweep over the kinds' merged intervals.

// HTA's rule for which device work counts, over the CPU's steps.
struct DeviceStreams::CountRule {
    CountRule(const std::vector<Iteration>& steps, bool mtia, bool need_launch, bool keep_last_step)
        : steps(steps), mtia(mtia), need_launch(need_launch),
          late_cut(!keep_last_step && steps.size() >= 2 && !mtia),
          first_start(steps.empty() ? INT64_MIN : steps.front().start_ns),
          last_start(steps.empty() ? INT64_MAX : steps.back().start_ns) {
        for (const Iteration& s : steps) last_end = std::max(last_end, event_end(s.start_ns, s.dur_ns));
        if (steps.empty()) last_end = INT64_MAX;
    }

    // Whether `work` counts, given its launch (nullptr: none in the trace).
    bool keeps(const Item& work, const Item* launch) const {
        const bool any_step = !steps.empty();
        if (mtia) {
            bool launched_within = launch && any_step && launch->ts >= first_start && launch->end <= last_end;
            bool transfer_within = work.flag && any_step && step_at(steps, work.ts) >= 0;
            return !any_step ? (launch || !need_launch) : (launched_within || transfer_within);
        }
        if (!launch) return !need_launch;
        return late_cut ? launch->ts < last_start : launch->ts <= last_end;
    }

    const std::vector<Iteration>& steps;
    const bool mtia, need_launch;
    // Whether the last, incomplete step's work is left out.
    const bool late_cut;
    const int64_t first_start, last_start;
    int64_t last_end = INT64_MIN;
};

// The work counted, joined with its launch: each kind's union, each step's
// window, the device window, and each stream's points.
struct DeviceStreams::CountedWork {
    explicit CountedWork(const std::vector<Iteration>& steps) : windows(steps.size()) {
        for (auto& u : unions) u = std::make_unique<IntervalUnion>();
        for (size_t k = 0; k < steps.size(); ++k) windows[k].step = steps[k].step;
    }

    // Counts `work`, launched by `launch` (or nullptr) within step `step` (or -1).
    void add(const Item& work, const Item* launch, int64_t step) {
        unions[work.kind]->add(work.ts, work.end);
        window_start = std::min(window_start, work.ts);
        window_end = std::max(window_end, work.end);
        if (step >= 0) {
            StepWindow& sw = windows[static_cast<size_t>(step)];
            sw.start = std::min(sw.start, work.ts);
            sw.end = std::max(sw.end, work.end);
        }
        StreamPoint p{};
        p.stream = work.stream;
        p.kind = work.kind;
        p.launch_ts = launch ? launch->ts : INT64_MIN;
        p.launch_end = launch ? launch->end : INT64_MIN;
        p.queued = launch && launch->flag ? 1 : 0;
        if (p.queued) {
            StreamPoint q = p;
            q.ts = launch->ts;
            q.role = 0;
            points.add(q);
        }
        p.ts = work.ts;
        p.end = work.end;
        p.role = 1;
        points.add(p);
    }

    RecordSorter<StreamPoint> points{kRunBytes, "device streams"};
    KindUnions unions;
    std::vector<StepWindow> windows;
    int64_t window_start = INT64_MAX, window_end = INT64_MIN;
};

// One pass in correlation order: each launch comes just before the
// work of its id (a graph launch's id is its kernels' too).
void DeviceStreams::count_work(const CountRule& rule, CountedWork& counted, DeviceSummary& out) {
    Item launch{};
    bool have_launch = false;
    items_.drain([&](const Item& it) {
        if (it.role == 0) {
            if (!have_launch || launch.correlation != it.correlation) launch = it;  // the first of an id wins
            have_launch = true;
            return;
        }
        const Item* l = have_launch && it.correlation >= 0 && launch.correlation == it.correlation ? &launch : nullptr;
        if (!rule.keeps(it, l)) {
            if (l || !rule.need_launch) ++out.left_late;
            else ++out.left_unlaunched;
            return;
        }
        ++out.counted;
        if (it.op >= 0) op_counted_[static_cast<size_t>(it.op)] = true;
        counted.add(it, l, step_at(rule.steps, l ? l->ts : it.ts));
    });
}

DeviceSummary DeviceStreams::finish(const std::vector<Iteration>& steps, bool keep_last_step, int buckets) {
    DeviceSummary out;
    out.family = mtia_ ? "mtia" : "gpu";
    out.events = device_events_;
    const CountRule rule(steps, mtia_, launches_ > 0, keep_last_step);
    if (rule.late_cut) out.left_step = steps.back().step;
    CountedWork counted(steps);
    count_work(rule, counted, out);
    tally_streams(counted.points, out);
    if (out.counted == 0) return out;
    out.window_start_ns = counted.window_start;
    out.window_end_ns = counted.window_end;

    const int64_t span = counted.window_end - counted.window_start;
    TimeBuckets tb(counted.window_start, counted.window_end, std::max(buckets, 1));
    SweepTally tally(counted.windows, tb, span > 0);
    sweep_kinds(counted.unions, tally);
    split_times(tally.by_set, span, out.times);
    out.kernel_types = kernel_types(tally.by_set);
    out.steps = device_steps(counted.windows, tally.steps_with_work());
    if (span > 0) timeline_percent(tally, tb, out);
    return out;
}

std::vector<CollectiveOp> DeviceStreams::take_collectives() {
    std::vector<CollectiveOp> kept;
    for (size_t k = 0; k < ops_.size(); ++k)
        if (op_counted_[k]) kept.push_back(std::move(ops_[k]));
    ops_.clear();
    op_counted_.clear();
    std::stable_sort(kept.begin(), kept.end(),
                     [](const CollectiveOp& a, const CollectiveOp& b) { return a.start_ns < b.start_ns; });
    return kept;
}

std::vector<std::pair<std::string, double>> device_metrics(const DeviceSummary& d) {
    std::vector<std::pair<std::string, double>> m;
    const DeviceTimes& t = d.times;
    if (d.counted == 0 || t.span_ns <= 0) return m;
    auto s = [](int64_t ns) { return static_cast<double>(ns) / 1e9; };
    auto pct = [&](int64_t ns) { return 100.0 * static_cast<double>(ns) / static_cast<double>(t.span_ns); };
    m = {{"device_window_time", s(t.span_ns)},
         {"device_busy_time", s(t.busy_ns)},
         {"device_compute_time", s(t.computation_ns)},
         {"device_communication_time", s(t.communication_ns)},
         {"device_memory_time", s(t.memory_ns)},
         {"device_idle_time", s(t.idle_ns)},
         {"device_idle_time_percent", pct(t.idle_ns)},
         {"device_compute_time_percent", pct(t.computation_ns)},
         {"device_non_compute_time_percent", pct(t.span_ns - t.computation_ns - t.idle_ns)}};
    if (t.communication_ns > 0)
        m.emplace_back("comm_comp_overlap_percent",
                       100.0 * static_cast<double>(t.overlap_ns) / static_cast<double>(t.communication_ns));
    return m;
}

TimeBreakdown device_breakdown(const DeviceSummary& d) {
    TimeBreakdown b;
    b.span_ns = d.times.span_ns;
    b.compute_ns = d.times.computation_ns;
    b.collective_ns = d.times.communication_ns;
    b.overlap_ns = d.times.overlap_ns;
    b.dma_exposed_ns = d.times.exposed_ns;
    b.idle_ns = d.times.idle_ns;
    b.compute_percent = d.compute_percent;
    b.collective_percent = d.collective_percent;
    return b;
}

std::vector<std::string> device_notes(const DeviceSummary& d) {
    std::vector<std::string> notes;
    auto events = [](int64_t n) { return std::to_string(n) + (n == 1 ? " device event" : " device events"); };
    if (d.left_step >= 0)
        notes.push_back("the last profiler step (ProfilerStep#" + std::to_string(d.left_step) + ") is left out of the " +
                        "device figures, as HTA leaves it out: the trace ends before its work does (" +
                        events(d.left_late) + " launched in it or later; nx-convert " +
                        "--keep-last-step keeps it)");
    else if (d.left_late > 0)
        notes.push_back(events(d.left_late) + " launched outside the profiler's steps " +
                        (d.left_late == 1 ? "is" : "are") + " left out of the device figures, as HTA leaves them out");
    if (d.left_unlaunched > 0)
        notes.push_back(events(d.left_unlaunched) + " whose launch is not in the trace " +
                        (d.left_unlaunched == 1 ? "is" : "are") + " left " +
                        "out of the device figures, as HTA leaves them out");
    return notes;
}

}  // namespace nx
