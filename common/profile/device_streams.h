// What an accelerator's streams did in one profile, from the device events
// of a PyTorch profiler (Kineto) trace: GPU kernels, memory copies and sets,
// the profiler's synchronisation records (CUDA, ROCm/HIP) and MTIA's
// device events, each on its stream.  The figures are the ones Holistic
// Trace Analysis (HTA) computes, under its definitions (nx(7) DEVICE
// STREAMS says where nx's own differ, and why):
//
// - which device work counts: what the CPU launched (a runtime event of the
//   same correlation id) before the last profiler step began; the last,
//   incomplete step's work is left out unless asked (keep_last_step), and
//   so is work whose launch is not in the trace.  With fewer than two steps
//   nothing is left out for being late.  MTIA traces follow HTA's MTIA rule:
//   work launched within the steps (the last one too), and memory
//   transfers (dma...) that start within a step;
// - kernel types by name: communication (ncclKernel_*, ncclDevKernel_*, and
//   RCCL's, which keep NCCL's names; oneCCL's), memory (Memcpy, Memset, dma),
//   other (HTA's: a name holding Sync or Memcpy past its start, which is
//   what the profiler's synchronisation records are), computation (the
//   rest);
// - the device window (HTA's "kernel time"): from the first start to the last
//   end of the work counted; idle is the window less the union of all of
//   it; compute the union of computation; communication/computation overlap
//   the time both run over the communication time;
// - per stream, the idle gaps between consecutive work (the next start less
//   the previous end) as host wait (the next work was launched after the
//   previous ended), kernel wait (a gap under 30 us otherwise) or other;
//   the launch queue's length (one more at each launch, one less as its
//   work starts) and the time spent at its longest and at CUDA's limit of
//   1024;
// - per launch, the CPU's time in the launch call, the device's in the
//   work, and the launch delay (the work's start less the call's end).
//
// Memory stays bounded: launches and work are kept as fixed-size records in
// external sorters (io/record_sorter.h), joined by correlation at the end,
// and the unions are IntervalUnions; only per-stream and per-step figures
// are held.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/io/record_sorter.h"
#include "common/profile/event.h"
#include "common/profile/profile.h"

namespace nx {

// HTA's kernel types (its KernelType), by the work's name.
enum class DeviceWork : uint8_t { computation, communication, memory, other };
std::string_view to_string(DeviceWork w);
DeviceWork classify_device_work(std::string_view name);

// A device event of a Kineto trace: a kernel, memcpy, memset or the
// profiler's synchronisation record.
inline bool is_device_event(EventType t) {
    return t == EventType::kernel || t == EventType::memcpy || t == EventType::memset || t == EventType::device_sync;
}

// The value of an integer member of a flat JSON object's text (Kineto's
// args: "correlation", "stream"); false when absent or not an integer.
bool json_int_member(std::string_view json, std::string_view key, int64_t& out);

// The thresholds HTA uses: a gap under this is kernel wait (HTA's
// consecutive_kernel_delay, 30 in the trace's microseconds), and CUDA's
// launch queue holds this many launches per stream.
inline constexpr int64_t kKernelWaitNs = 30000;
inline constexpr int64_t kLaunchQueueLimit = 1024;
// HTA's outliers among launches: a launch call over 50 us, a launch delay
// over 100 us.
inline constexpr int64_t kRuntimeOutlierNs = 50000;
inline constexpr int64_t kLaunchDelayOutlierNs = 100000;

// The summary metrics of the device streams (metric_defs.cpp: device_*,
// comm_comp_overlap_percent), in seconds and percent.
std::vector<std::pair<std::string, double>> device_metrics(const DeviceSummary& d);
// nx's time breakdown of the device window (profile.h TimeBreakdown):
// compute, collectives (communication), their overlap, exposed (memory and
// other work nothing hides) and idle.
TimeBreakdown device_breakdown(const DeviceSummary& d);
// What the figures left out and why, for the profile's notes.
std::vector<std::string> device_notes(const DeviceSummary& d);

class DeviceStreams {
public:
    DeviceStreams();
    DeviceStreams(const DeviceStreams&) = delete;
    DeviceStreams& operator=(const DeviceStreams&) = delete;

    void add(const Event& e);
    bool any() const { return device_events_ > 0; }

    // The figures over the steps `steps` (the CPU's ProfilerStep slices, in
    // start order); buckets as the profile's timeline.  Call once.
    DeviceSummary finish(const std::vector<Iteration>& steps, bool keep_last_step, int buckets);
    // After finish: the collective operations of the communication kernels
    // counted (kernel_collectives.h), in start order, at most kMaxOps.
    std::vector<CollectiveOp> take_collectives();
    static constexpr size_t kMaxOps = 100000;

private:
    // A launch or a piece of device work, sorted by correlation id with the
    // launch first (key: id x 2, +1 for work), so one pass joins them.
    struct Item {
        int64_t sort_key;
        int64_t correlation;  // -1: none given
        int64_t ts, end;
        int64_t stream;       // work: its stream
        uint8_t kind;         // work: DeviceWork
        uint8_t role;         // 0: launch, 1: work
        uint8_t flag;         // launch: a call that queues work; work: named as memory (MTIA's rule keeps these by time)
        int32_t op;           // work: its index in ops_ (a communication kernel's operation), or -1
        int64_t key() const { return sort_key; }
    };
    RecordSorter<Item> items_;
    // Communication kernels' operations, and whether their work was counted.
    std::vector<CollectiveOp> ops_;
    std::vector<bool> op_counted_;
    int64_t device_events_ = 0;
    int64_t launches_ = 0;
    bool mtia_ = false;

    // finish's steps (device_streams.cpp): which work counts, the work
    // counted, and the pass that joins work to launches and counts it.
    struct CountRule;
    struct CountedWork;
    void count_work(const CountRule& rule, CountedWork& counted, DeviceSummary& out);
};

}  // namespace nx
