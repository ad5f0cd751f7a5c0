#include "common/report/trace_stats.h"

#include <algorithm>
#include <limits>
#include <map>

#include "common/io/error.h"
#include "common/profile/interval_union.h"

namespace nx {

namespace {

// The `keep` largest gaps between consecutive merged intervals, largest
// first (the earlier on ties).
std::vector<TraceGap> largest_gaps(IntervalUnion& busy, size_t keep) {
    std::vector<TraceGap> gaps;
    if (keep == 0) return gaps;
    auto larger = [](const TraceGap& a, const TraceGap& b) {
        return a.length_ns != b.length_ns ? a.length_ns > b.length_ns : a.start_ns < b.start_ns;
    };
    IntervalUnion::Reader reader(busy);
    Interval iv;
    bool have = false;
    int64_t prev_end = 0;
    while (reader.next(iv)) {
        if (have) {
            TraceGap g{prev_end, iv.begin - prev_end};
            if (gaps.size() < keep || larger(g, gaps.back())) {
                gaps.insert(std::upper_bound(gaps.begin(), gaps.end(), g, larger), g);
                if (gaps.size() > keep) gaps.pop_back();
            }
        }
        prev_end = iv.end;
        have = true;
    }
    return gaps;
}

GpuOpStat op_stat(std::string name, std::vector<int64_t>& durs) {
    std::sort(durs.begin(), durs.end());
    GpuOpStat s;
    s.name = std::move(name);
    s.count = static_cast<int64_t>(durs.size());
    for (int64_t d : durs) s.total_ns += d;
    s.min_ns = durs.front();
    s.max_ns = durs.back();
    s.mean_ns = static_cast<double>(s.total_ns) / static_cast<double>(s.count);
    size_t mid = durs.size() / 2;
    s.median_ns = durs.size() % 2 ? static_cast<double>(durs[mid])
                                  : (static_cast<double>(durs[mid - 1]) + static_cast<double>(durs[mid])) / 2;
    return s;
}

// An open slice while a track is walked in start order.
struct Frame {
    int64_t end;
    int64_t dur;
    size_t stat;              // index into the name statistics
    IntervalUnion children;   // its direct children, in start order
};

}  // namespace

uint32_t TraceSlices::intern(std::string_view s) {
    auto it = ids_.find(s);
    if (it != ids_.end()) return it->second;
    uint32_t id = static_cast<uint32_t>(strings_.size());
    strings_.emplace_back(s);
    ids_.emplace(std::string_view(strings_.back()), id);
    return id;
}

void TraceSlices::add(std::string_view track, std::string_view category, std::string_view name, int64_t ts,
                      int64_t dur) {
    if (dur <= 0) {
        ++instants_;
        return;
    }
    uint32_t t = intern(track);
    auto it = track_index_.find(t);
    if (it == track_index_.end()) {
        it = track_index_.emplace(t, tracks_.size()).first;
        tracks_.push_back({t, {}});
    }
    tracks_[it->second].slices.push_back({ts, dur, intern(category), intern(name)});
    ++slice_count_;
}

GpuOp gpu_op_of(std::string_view c) {
    if (c == "kernel" || c == "Kernel") return GpuOp::kernel;
    if (c == "gpu_memcpy" || c == "Memcpy") return GpuOp::memcpy;
    if (c == "gpu_memset" || c == "Memset") return GpuOp::memset;
    return GpuOp::none;
}

TraceStats compute_trace_stats(const TraceSlices& in, int64_t start_ns, int64_t end_ns, const TraceStatsOptions& o) {
    TraceStats out;
    out.slices = in.slice_count();
    out.instants = in.instants();
    // The span: the profile's, widened to every slice.
    for (const TraceSlices::Track& t : in.tracks())
        for (const TraceSlices::Slice& s : t.slices) {
            start_ns = std::min(start_ns, s.ts);
            end_ns = std::max(end_ns, s.ts + s.dur);
        }
    // Offsets from the start must fit: a span beyond 2^63 ns (292 years) is
    // not a trace but bad times.
    if (static_cast<__int128>(end_ns) - start_ns > std::numeric_limits<int64_t>::max())
        throw Error("the trace's slices span more than 2^63 ns: their times are wrong");
    out.start_ns = start_ns;
    out.end_ns = end_ns;
    TimeBuckets buckets(start_ns, end_ns, static_cast<int64_t>(o.timeline_buckets));

    std::map<std::pair<uint32_t, uint32_t>, size_t> stat_of;  // (category, name) -> names index
    std::map<uint32_t, std::vector<int64_t>> op_durations[3];  // kernel, memcpy, memset: name -> durations
    IntervalUnion gpu_all;
    bool any_gpu = false;

    for (const TraceSlices::Track& track : in.tracks()) {
        std::vector<TraceSlices::Slice> slices = track.slices;
        // Start order, longer first on ties: a parent precedes its children.
        std::stable_sort(slices.begin(), slices.end(), [](const TraceSlices::Slice& a, const TraceSlices::Slice& b) {
            return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
        });
        TrackActivity tt;
        tt.name = in.text(track.name);
        tt.slices = static_cast<int64_t>(slices.size());
        IntervalUnion busy, gpu;
        GpuStream stream;
        std::map<uint32_t, int64_t> per_category;
        std::vector<Frame> open;
        auto close = [&](Frame& f) { out.names[f.stat].self_ns += f.dur - f.children.total(); };
        for (const TraceSlices::Slice& s : slices) {
            int64_t end = s.ts + s.dur;
            busy.add(s.ts, end);
            ++per_category[s.category];
            // Close what ended before this slice and what it overlaps without
            // fitting inside; the innermost slice left holds it.
            while (!open.empty() && open.back().end < end) {
                if (open.back().end > s.ts) ++out.improperly_nested;
                close(open.back());
                open.pop_back();
            }
            if (!open.empty()) open.back().children.add(s.ts, end);
            auto key = std::make_pair(s.category, s.name);
            auto it = stat_of.find(key);
            if (it == stat_of.end()) {
                it = stat_of.emplace(key, out.names.size()).first;
                out.names.push_back({in.text(s.category), in.text(s.name), 0, 0, 0});
            }
            NameStat& ns = out.names[it->second];
            ++ns.count;
            ns.total_ns += s.dur;
            open.push_back({end, s.dur, it->second, IntervalUnion()});

            GpuOp op = gpu_op_of(in.text(s.category));
            if (op == GpuOp::none) continue;
            gpu.add(s.ts, end);
            gpu_all.add(s.ts, end);
            out.gpu_first_ns = any_gpu ? std::min(out.gpu_first_ns, s.ts) : s.ts;
            out.gpu_last_ns = any_gpu ? std::max(out.gpu_last_ns, end) : end;
            any_gpu = true;
            (op == GpuOp::kernel ? stream.kernels : op == GpuOp::memcpy ? stream.memcpys : stream.memsets)++;
            op_durations[static_cast<int>(op) - 1][s.name].push_back(s.dur);
        }
        while (!open.empty()) {
            close(open.back());
            open.pop_back();
        }
        std::vector<std::pair<uint32_t, int64_t>> cats(per_category.begin(), per_category.end());
        std::stable_sort(cats.begin(), cats.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        for (const auto& [c, n] : cats) tt.categories.push_back(in.text(c));
        tt.busy_ns = busy.total();
        tt.gaps = largest_gaps(busy, o.gaps_per_track);
        tt.timeline = buckets.percent(busy);
        out.tracks.push_back(std::move(tt));
        if (stream.kernels + stream.memcpys + stream.memsets > 0) {
            stream.track = in.text(track.name);
            stream.busy_ns = gpu.total();
            stream.gaps = largest_gaps(gpu, o.gaps_per_track);
            stream.timeline = buckets.percent(gpu);
            out.gpu_streams.push_back(std::move(stream));
        }
    }
    out.gpu_busy_ns = gpu_all.total();

    // Busiest first; equal ones by name, so the order never depends on the input's.
    std::stable_sort(out.tracks.begin(), out.tracks.end(), [](const TrackActivity& a, const TrackActivity& b) {
        return a.busy_ns != b.busy_ns ? a.busy_ns > b.busy_ns : a.name < b.name;
    });
    std::stable_sort(out.gpu_streams.begin(), out.gpu_streams.end(), [](const GpuStream& a, const GpuStream& b) {
        return a.busy_ns != b.busy_ns ? a.busy_ns > b.busy_ns : a.track < b.track;
    });
    std::stable_sort(out.names.begin(), out.names.end(), [](const NameStat& a, const NameStat& b) {
        if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
        return a.name != b.name ? a.name < b.name : a.category < b.category;
    });
    std::vector<GpuOpStat>* lists[3] = {&out.kernels, &out.memcpys, &out.memsets};
    for (int k = 0; k < 3; ++k) {
        for (auto& [name, durs] : op_durations[k]) lists[k]->push_back(op_stat(in.text(name), durs));
        std::stable_sort(lists[k]->begin(), lists[k]->end(), [](const GpuOpStat& a, const GpuOpStat& b) {
            return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
        });
    }
    return out;
}

}  // namespace nx
