#include "common/trace/trace_layout.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>

#include "common/profile/engine_busy.h"
#include "common/trace/same_time_order.h"
#include "common/trace/trace_counters.h"

namespace nx {

namespace {

// Display groups, in the order of the profiler's own timeline: engine rows,
// DMA queues, other rows (host, runtime), then counters.
enum Group : int {
    kGroupTensorMatrix, kGroupTensor, kGroupVector, kGroupScalar, kGroupGpSimd, kGroupSync,
    kGroupDma, kGroupOther, kGroupDmaCounters, kGroupUtilisation, kGroupSourceCounters,
};
// Ranks leave room for each row's overflow lanes right after it.
constexpr int32_t kRankStride = kMaxLanes + 1;

int group_of(Engine e) {
    switch (e) {
        case Engine::tensor_matrix: return kGroupTensorMatrix;
        case Engine::tensor: return kGroupTensor;
        case Engine::vector: return kGroupVector;
        case Engine::scalar: return kGroupScalar;
        case Engine::gpsimd: return kGroupGpSimd;
        case Engine::sync: return kGroupSync;
        case Engine::dma: return kGroupDma;
        default: return kGroupOther;
    }
}

// The engine rows' names as the profiler shows them.
const char* engine_row_name(Engine e) {
    switch (e) {
        case Engine::tensor_matrix: return "TensorMatrix";
        case Engine::tensor: return "Tensor";
        case Engine::vector: return "Vector";
        case Engine::scalar: return "Scalar";
        case Engine::gpsimd: return "GpSimd";
        case Engine::sync: return "Sync";
        default: return "";
    }
}

// "qSyncIO2" before "qSyncIO10": digit runs compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
            size_t i2 = i, j2 = j;
            while (i2 < a.size() && a[i2] == '0') ++i2;
            while (j2 < b.size() && b[j2] == '0') ++j2;
            size_t ie = i2, je = j2;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
            if (ie - i2 != je - j2) return ie - i2 < je - j2;
            int c = a.compare(i2, ie - i2, b, j2, je - j2);
            if (c != 0) return c < 0;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

struct Lane {
    TraceTrack track;
    std::vector<int64_t> open;  // ends of the open slices, innermost last
};

struct SliceTrack {
    std::string name;
    uint32_t row = 0;  // spool track index
    int32_t position = 0;
    size_t process = 0;         // index into Layout::processes_
    int64_t tid = kNoId;        // the source thread's tid (its first lane is the thread's track)
    std::vector<size_t> lanes;  // indices into Layout::lanes
};

class Layout {
public:
    Layout(EventSpool& spool, const TraceProcess& own, TraceIds& ids, const std::vector<TraceFlow>& flows,
           TraceWriter& w)
        : spool_(spool), own_(own), ids_(ids), flows_(flows), w_(w) {}

    LayoutStats run();

private:
    static constexpr size_t kOwnProcess = 0;  // processes_[0]: the profile's own
    // `source_tid`: the source thread a first lane is the track of.
    TraceTrack make_track(std::string name, TrackKind kind, int32_t position, int lane = 0,
                          size_t process = kOwnProcess, int64_t source_tid = kNoId);
    void plan_processes();
    void plan_tracks();
    void index_flows();
    // Flow ids are the profile's sequence, then the flow's index + 1.
    uint64_t flow_id(size_t index) const { return (static_cast<uint64_t>(own_.sequence) << 32) + index + 1; }
    size_t flow_index(uint64_t id) const { return static_cast<size_t>((id & 0xffffffffu) - 1); }
    std::vector<std::pair<uint64_t, FlowEnd>>::const_iterator first_flow_end(uint64_t seq) const;
    void flow_sources(uint64_t seq, std::vector<uint64_t>& out) const;
    size_t new_lane(SliceTrack& t);
    void end_slices_until(int64_t ts);
    void slice(const SpooledEvent& e);

    EventSpool& spool_;
    TraceProcess own_;
    TraceIds& ids_;
    const std::vector<TraceFlow>& flows_;
    TraceWriter& w_;
    LayoutStats stats_;
    uint64_t next_uuid_ = 1;
    int32_t next_tid_ = 1;

    std::vector<TraceProcess> processes_;  // [kOwnProcess], then one per source pid
    std::vector<size_t> process_of_;       // by spool track
    // Flow ends by the seq of their slice, and the ones of the slice at hand.
    std::vector<std::pair<uint64_t, FlowEnd>> flow_ends_;
    std::vector<FlowEnd> slice_flows_;
    std::unordered_set<uint64_t> started_, left_out_;  // flow ids

    std::vector<std::optional<SliceTrack>> slice_tracks_;  // by spool track index
    std::vector<std::optional<TraceTrack>> counter_tracks_;
    std::vector<Lane> lanes_;
    struct OpenEnd {
        int64_t end;
        size_t lane;
        bool operator>(const OpenEnd& o) const { return end > o.end; }
    };
    std::priority_queue<OpenEnd, std::vector<OpenEnd>, std::greater<>> open_ends_;

    // Engine busy time as engine_busy.h defines it: the profiler's intervals
    // where it gave them (its tensor ones cover the TensorMatrix row too),
    // else instructions without their waits.
    void utilise(const SpooledEvent& e) {
        size_t i = static_cast<size_t>(e.engine);
        bool folded = e.engine == Engine::tensor_matrix && profiler_busy_[static_cast<size_t>(Engine::tensor)];
        if (e.type == EventType::active) {
            utilisation_->add(e.engine, e.ts, e.end);
        } else if (e.type == EventType::instruction && !profiler_busy_[i] && !folded) {
            Interval w = work_interval(e.type, e.opcode, e.ts, e.dur());
            utilisation_->add(e.engine, w.begin, w.end);
        }
    }

    std::array<bool, kEngineCount> profiler_busy_{};
    std::unique_ptr<DmaCounters> dma_;
    std::unique_ptr<UtilisationBins> utilisation_;
    int32_t dma_position_ = 0, utilisation_position_ = 0;
};

TraceTrack Layout::make_track(std::string name, TrackKind kind, int32_t position, int lane, size_t process,
                              int64_t source_tid) {
    TraceTrack t;
    t.uuid = own_.uuid + next_uuid_++;
    t.parent = processes_[process].uuid;
    t.pid = processes_[process].pid;
    if (process == kOwnProcess) {
        t.tid = next_tid_++;
    } else if (lane == 0 && source_tid != kNoId) {
        t.thread = true;
        t.tid = ids_.thread(source_tid);
    } else {
        t.tid = ids_.thread(kNoId);  // overflow lanes and counters of a source process
    }
    t.name = std::move(name);
    t.kind = kind;
    t.rank = position * kRankStride + lane;
    return t;
}

void Layout::plan_processes() {
    const auto& tracks = spool_.tracks();
    processes_.assign(1, own_);
    process_of_.assign(tracks.size(), kOwnProcess);
    // One process per source pid, in pid order, named by the first of its
    // tracks that names it.
    std::map<int64_t, std::vector<size_t>> by_pid;
    for (size_t i = 0; i < tracks.size(); ++i)
        if (tracks[i].pid != kNoId) by_pid[tracks[i].pid].push_back(i);
    for (const auto& [pid, members] : by_pid) {
        TraceProcess p;
        p.uuid = own_.uuid + next_uuid_++;
        p.pid = ids_.process(pid);
        p.sequence = own_.sequence;
        for (size_t i : members) {
            process_of_[i] = processes_.size();
            if (p.name.empty()) p.name = tracks[i].process;
        }
        processes_.push_back(std::move(p));
    }
    // The profile's own process: the rows without a pid and nx's counters.
    processes_[kOwnProcess].pid = ids_.process(own_.pid);
}

void Layout::index_flows() {
    for (size_t i = 0; i < flows_.size(); ++i) {
        uint64_t id = flow_id(i);
        const TraceFlow& f = flows_[i];
        flow_ends_.push_back({f.from, {id, true, f.category, f.name}});
        flow_ends_.push_back({f.to, {id, false, f.category, f.name}});
    }
    std::stable_sort(flow_ends_.begin(), flow_ends_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
}

std::vector<std::pair<uint64_t, FlowEnd>>::const_iterator Layout::first_flow_end(uint64_t seq) const {
    return std::lower_bound(flow_ends_.begin(), flow_ends_.end(), seq,
                            [](const auto& f, uint64_t s) { return f.first < s; });
}

void Layout::flow_sources(uint64_t seq, std::vector<uint64_t>& out) const {
    for (auto at = first_flow_end(seq); at != flow_ends_.end() && at->first == seq; ++at)
        if (!at->second.out) out.push_back(flows_[flow_index(at->second.id)].from);
}

void Layout::plan_tracks() {
    const auto& tracks = spool_.tracks();
    // Order every row by (group, natural name); positions follow that order.
    struct Row {
        int group;
        std::string name;
        size_t index;  // spool track, or npos for nx's counters
    };
    constexpr size_t kDerived = std::numeric_limits<size_t>::max();
    std::vector<Row> rows;
    bool any_dma = false, any_compute = false;
    for (size_t i = 0; i < tracks.size(); ++i) {
        const EventSpool::Track& t = tracks[i];
        rows.push_back({t.counter ? kGroupSourceCounters : group_of(t.engine), t.name, i});
        if (!t.counter && t.engine == Engine::dma) any_dma = true;
        if (!t.counter && is_compute_engine(t.engine)) any_compute = true;
        if (t.active && t.engine != Engine::none) profiler_busy_[static_cast<size_t>(t.engine)] = true;
    }
    if (any_dma) rows.push_back({kGroupDmaCounters, "", kDerived});
    if (any_compute && spool_.end_ns() > spool_.start_ns()) rows.push_back({kGroupUtilisation, "", kDerived});
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.group != b.group) return a.group < b.group;
        return natural_less(a.name, b.name);
    });

    slice_tracks_.assign(tracks.size(), std::nullopt);
    counter_tracks_.assign(tracks.size(), std::nullopt);
    // Processes that have tracks, before their tracks.
    // (A profile without source processes always has its own, even empty.)
    std::vector<bool> used(processes_.size(), false);
    used[kOwnProcess] = processes_.size() == 1;
    for (const Row& r : rows) used[r.index == kDerived ? kOwnProcess : process_of_[r.index]] = true;
    for (size_t i = 0; i < processes_.size(); ++i)
        if (used[i]) w_.begin_process(processes_[i]);
    int32_t position = 0;
    for (const Row& r : rows) {
        int32_t pos = position++;
        if (r.index == kDerived) {
            if (r.group == kGroupDmaCounters) dma_position_ = pos;
            else utilisation_position_ = pos;
            continue;
        }
        size_t process = process_of_[r.index];
        if (tracks[r.index].counter) {
            counter_tracks_[r.index] = make_track(r.name, TrackKind::counter, pos, 0, process);
            counter_tracks_[r.index]->row = static_cast<int64_t>(r.index);
            w_.track(*counter_tracks_[r.index]);
        } else {
            SliceTrack st;
            st.name = r.name;
            st.row = static_cast<uint32_t>(r.index);
            st.position = pos;
            st.process = process;
            if (process != kOwnProcess) st.tid = tracks[r.index].tid;
            slice_tracks_[r.index] = std::move(st);
            new_lane(*slice_tracks_[r.index]);
        }
    }
    if (any_dma) {
        TraceTrack tp = make_track(std::string(kDmaThroughputTrack), TrackKind::counter, dma_position_, 0);
        tp.unit_name = "B/s";
        TraceTrack pending = make_track(std::string(kDmaPendingTrack), TrackKind::counter, dma_position_, 1);
        pending.unit = ValueUnit::count;
        pending.unit_name = "transfers";
        w_.track(tp);
        w_.track(pending);
        dma_ = std::make_unique<DmaCounters>(w_, tp, pending);
    }
    if (any_compute && spool_.end_ns() > spool_.start_ns())
        utilisation_ = std::make_unique<UtilisationBins>(spool_.start_ns(), spool_.end_ns());
}

size_t Layout::new_lane(SliceTrack& t) {
    int lane = static_cast<int>(t.lanes.size());
    lanes_.push_back({make_track(lane_name(t.name, lane), TrackKind::slices, t.position, lane, t.process, t.tid), {}});
    lanes_.back().track.row = t.row;
    lanes_.back().track.lane = lane;
    t.lanes.push_back(lanes_.size() - 1);
    if (lane > 0) ++stats_.overflow_tracks;
    w_.track(lanes_.back().track);
    return lanes_.size() - 1;
}

void Layout::end_slices_until(int64_t ts) {
    while (!open_ends_.empty() && open_ends_.top().end <= ts) {
        OpenEnd o = open_ends_.top();
        open_ends_.pop();
        Lane& lane = lanes_[o.lane];
        lane.open.pop_back();
        w_.slice_end(lane.track, o.end);
    }
}

void Layout::slice(const SpooledEvent& e) {
    SliceTrack& t = *slice_tracks_[e.track];
    auto innermost = [&](size_t i) -> const int64_t* {
        const Lane& lane = lanes_[t.lanes[i]];
        return lane.open.empty() ? nullptr : &lane.open.back();
    };
    LaneChoice choice = choose_lane(t.lanes.size(), innermost, e.end, lanes_.size() < kMaxLaneTracks);
    size_t chosen = choice.lane == t.lanes.size() ? new_lane(t) : t.lanes[choice.lane];
    int64_t end = choice.end;
    int64_t clipped_from = -1;
    if (end != e.end) {
        clipped_from = e.dur();
        ++stats_.clipped;
    }
    Lane& lane = lanes_[chosen];
    // A flow is written when it starts before it ends (Perfetto drops the
    // others); one whose end comes first goes back in time and is left out.
    slice_flows_.clear();
    for (auto at = first_flow_end(e.seq); at != flow_ends_.end() && at->first == e.seq; ++at) {
        const FlowEnd& f = at->second;
        if (f.out) {
            if (left_out_.count(f.id)) continue;
            started_.insert(f.id);
        } else if (started_.erase(f.id) == 0) {
            left_out_.insert(f.id);
            ++stats_.flows_left_out;
            continue;
        }
        slice_flows_.push_back(f);
    }
    w_.slice_begin(lane.track, e, end, clipped_from, slice_flows_);
    lane.open.push_back(end);
    open_ends_.push({end, chosen});
    ++stats_.slices;
}

LayoutStats Layout::run() {
    plan_processes();
    index_flows();
    plan_tracks();
    auto write = [this](const SpooledEvent& e) {
        end_slices_until(e.ts);
        if (counter_tracks_[e.track]) {
            w_.counter(*counter_tracks_[e.track], e.ts, e.value);
            ++stats_.counter_samples;
            return;
        }
        if (dma_ && e.engine == Engine::dma) dma_->transfer(e.ts, e.end, e.bytes);
        if (utilisation_ && is_compute_engine(e.engine)) utilise(e);
        slice(e);
    };
    EventSpool::Reader reader(spool_);
    SpooledEvent e;
    if (flow_ends_.empty()) {
        while (reader.next(e)) write(e);
    } else {
        // Sources of flows first among slices of one start (same_time_order.h).
        SameTimeOrder order([this](uint64_t seq, std::vector<uint64_t>& out) { flow_sources(seq, out); });
        while (reader.next(e)) {
            if (!order.fits(e)) order.release(write);
            order.hold(e);
        }
        order.release(write);
    }
    end_slices_until(std::numeric_limits<int64_t>::max());
    if (dma_) dma_->finish();
    if (utilisation_) {
        int lane = 0;
        for (Engine eng : kUtilisationEngines) {
            if (!utilisation_->busy(eng)) continue;
            TraceTrack t = make_track(utilisation_track_name(eng), TrackKind::counter, utilisation_position_, lane++);
            t.unit_name = "%";
            w_.track(t);
            utilisation_->write(eng, w_, t);
        }
    }
    w_.end_process();
    return stats_;
}

}  // namespace

std::string utilisation_track_name(Engine e) { return std::string(engine_row_name(e)) + " utilisation (%)"; }

std::string lane_name(const std::string& track, int lane) {
    return lane == 0 ? track : track + " (" + std::to_string(lane + 1) + ")";
}

LayoutStats lay_out_profile(EventSpool& spool, const TraceProcess& own, TraceIds& ids,
                            const std::vector<TraceFlow>& flows, TraceWriter& w) {
    Layout layout(spool, own, ids, flows, w);
    return layout.run();
}

int32_t TraceIds::take(std::unordered_set<int64_t>& used, int32_t& next, int64_t wanted) {
    if (wanted != kNoId && wanted >= 0 && wanted <= INT32_MAX && used.insert(wanted).second)
        return static_cast<int32_t>(wanted);
    while (!used.insert(next).second) ++next;
    return next++;
}

}  // namespace nx
