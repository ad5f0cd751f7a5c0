// The figures of a trace that has no Neuron engine rows (a Chrome or
// PyTorch/Kineto trace): each track's busy time (the union of its slices, so
// nested slices count once), total and self time per slice name, the largest
// idle gaps per track and per GPU stream, and GPU kernel, memcpy and memset
// statistics like `nsys stats`' cuda_gpu_kern_sum.  trace_report.h shows them.
//
// Self time: a slice's duration minus the union of its direct children, the
// slices nested inside it on its track.  A track's slices are taken in start
// order, longer first on ties, so an enclosing slice comes before what it
// holds.  A slice that starts inside another but ends after it is not its
// child: the open slice is closed there (counted in `improperly_nested`).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nx {

// The slices of one trace, grouped by track, strings stored once (a trace
// repeats a few thousand names over millions of slices).
class TraceSlices {
public:
    struct Slice {
        int64_t ts = 0;
        int64_t dur = 0;
        uint32_t category = 0;  // string ids (text())
        uint32_t name = 0;
    };
    struct Track {
        uint32_t name = 0;
        std::vector<Slice> slices;
    };

    // A slice; zero-length ones (instant events) are only counted.
    void add(std::string_view track, std::string_view category, std::string_view name, int64_t ts, int64_t dur);

    const std::vector<Track>& tracks() const { return tracks_; }  // in order of first appearance
    const std::string& text(uint32_t id) const { return strings_[id]; }
    int64_t instants() const { return instants_; }
    int64_t slice_count() const { return slice_count_; }

private:
    uint32_t intern(std::string_view s);

    std::deque<std::string> strings_;  // a deque: the views in ids_ stay valid as it grows
    std::unordered_map<std::string_view, uint32_t> ids_;
    std::unordered_map<uint32_t, size_t> track_index_;
    std::vector<Track> tracks_;
    int64_t instants_ = 0;
    int64_t slice_count_ = 0;
};

// What counts as GPU work, by the slice's category: Kineto writes "kernel",
// "gpu_memcpy" and "gpu_memset" (PyTorch before 1.9: "Kernel", "Memcpy",
// "Memset").  Anything else on a GPU stream (cuda_sync ...) is a host-side
// wait drawn on the stream, not work.
enum class GpuOp { none, kernel, memcpy, memset };
GpuOp gpu_op_of(std::string_view category);

struct TraceGap {
    int64_t start_ns = 0;   // where the idle time begins
    int64_t length_ns = 0;
};

struct TrackActivity {
    std::string name;
    std::vector<std::string> categories;  // most slices first
    int64_t slices = 0;
    int64_t busy_ns = 0;                  // union of the slices
    std::vector<TraceGap> gaps;           // the largest first
    std::vector<double> timeline;         // busy percent per time bucket of the span
};

struct GpuStream {
    std::string track;
    int64_t kernels = 0, memcpys = 0, memsets = 0;
    int64_t busy_ns = 0;                  // union of its GPU work
    std::vector<TraceGap> gaps;           // between GPU work, the largest first
    std::vector<double> timeline;
};

struct NameStat {
    std::string category;
    std::string name;
    int64_t count = 0;
    int64_t total_ns = 0;  // summed durations
    int64_t self_ns = 0;   // summed self times
};

// Durations of one GPU operation name (a kernel, "Memcpy HtoD ...").
struct GpuOpStat {
    std::string name;
    int64_t count = 0;
    int64_t total_ns = 0;
    int64_t min_ns = 0, max_ns = 0;
    double mean_ns = 0;
    double median_ns = 0;  // the mean of the middle two for an even count
};

struct TraceStats {
    int64_t start_ns = 0, end_ns = 0;     // the span busy shares are of
    int64_t slices = 0;
    int64_t instants = 0;
    int64_t improperly_nested = 0;
    std::vector<TrackActivity> tracks;       // busiest first
    std::vector<GpuStream> gpu_streams;   // busiest first
    int64_t gpu_busy_ns = 0;              // union of GPU work on every stream
    int64_t gpu_first_ns = 0, gpu_last_ns = 0;  // the first GPU work's start, the last one's end
    std::vector<NameStat> names;          // by total time, longest first
    std::vector<GpuOpStat> kernels, memcpys, memsets;  // by total time, longest first

    int64_t span_ns() const { return end_ns - start_ns; }
};

struct TraceStatsOptions {
    size_t gaps_per_track = 3;
    size_t timeline_buckets = 50;
};

// The figures over [start_ns, end_ns) (the profile's span; widened to the
// slices' own extent when they reach outside it).
TraceStats compute_trace_stats(const TraceSlices& slices, int64_t start_ns, int64_t end_ns,
                               const TraceStatsOptions& options = {});

}  // namespace nx
