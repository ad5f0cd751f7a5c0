// A profile as nx describes it (nx(7) RECORDS, kind "profile"): where it came
// from, which backend made it, and its summary (metrics, engines, top opcodes
// and layers).  ProfileInfo is known when a profile starts; ProfileSummary when
// its events are all seen.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/event.h"
#include "common/profile/summary_rows.h"

namespace nx {

// How the source writes its `*_percent` metrics: a property of the format,
// never guessed from the values (a real fraction rounds above 1:
// dynamic_dma_active_time_percent = 1.0017).  neuron-profile JSON,
// summary-json and Explorer's Summary table all write fractions of 1
// (neuron-explorer-parquet.md section 12); nx's own records write 0..100.
enum class PercentScale : uint8_t { fraction, percent };

// The logical NeuronCore as the profile itself describes it (neuron-profile's
// "metadata", Explorer's Metadata and NeffHeader tables, or the profiler's own
// figures): what the profiler divides by for HFU, MFU and MBU.  0 where the
// profile does not say; the target's defaults fill the gaps (targets.h).
struct CoreFacts {
    int physical_cores = 0;       // per logical core: 2 under LNC=2 (trn2/trn3 default)
    int pe_rows = 0, pe_cols = 0; // TensorE array
    double pe_clock_ghz = 0;      // TensorE clock
    double hbm_bytes_per_s = 0;   // one HBM stack (hbm_ddr_bandwidth): MBU's denominator
    // Where each came from, for the report's target line ("profile metadata",
    // "Explorer Metadata", "NeffHeader", "the profiler's own HFU").
    std::string cores_from, peak_from, hbm_from;
    bool any() const { return physical_cores > 0 || pe_clock_ghz > 0 || hbm_bytes_per_s > 0; }
};
inline constexpr Field<CoreFacts> kCoreFields[] = {
    field<&CoreFacts::physical_cores, NullWhen::not_positive>("physical_cores", "physical cores per logical core"),
    field<&CoreFacts::pe_rows, NullWhen::not_positive>("pe_rows", "TensorE array rows"),
    field<&CoreFacts::pe_cols, NullWhen::not_positive>("pe_cols", "TensorE array columns"),
    field<&CoreFacts::pe_clock_ghz, NullWhen::not_positive>("pe_clock_ghz", "TensorE clock"),
    field<&CoreFacts::hbm_bytes_per_s, NullWhen::not_positive>("hbm_bytes_per_s", "one HBM stack's bandwidth"),
    field<&CoreFacts::cores_from, NullWhen::empty>("cores_from", "where physical_cores came from"),
    field<&CoreFacts::peak_from, NullWhen::empty>("peak_from", "where the peak came from"),
    field<&CoreFacts::hbm_from, NullWhen::empty>("hbm_from", "where the HBM bandwidth came from"),
};

struct ProfileInfo {
    std::string id;       // stable: "p_" + 16 hex digits of a hash of the source identity
    std::string name;     // for people: file stem, capture workload name, or graph id
    std::string source;   // the file it came from ("-" for stdin)
    std::string format;   // neuron-json, summary-json, system-json, chrome-json, nx-jsonl, sim
    std::string backend;  // neuron, sim, cpu; empty when unknown
    std::string target;   // trn1, inf2, trn2, trn3, cpu; empty when unknown
    std::string dtype;    // the workload's dtype when known (selects the peak FLOP/s)
    int rank = -1;        // worker rank for multi-worker captures
    PercentScale source_percents = PercentScale::percent;
    CoreFacts core;
    // Fields carried over from the capture/run/workload record (a JSON object
    // text, or empty), so tags users add with jq reach the report.
    std::string carried_json;
};

constexpr int kTimelineBuckets = 50;
// Top lists (opcodes, layers, tracks) keep this many, the busiest: a key
// missing from a full list may still have run.
constexpr size_t kTopKeys = 20;

// Stable profile id for a source identity (path + rank + graph ...).
std::string make_profile_id(std::string_view identity);

// A figure the profile does not have, though its source has a field for it:
// a negative sentinel, a 0 its own warnings call missing (availability.h).
struct UnavailableMetric {
    std::string name;
    std::string reason;
};

struct MetricValue {
    std::string name;
    double value;
    bool measured;  // true: the source reported it; false: nx derived it from events
};

// Active percent of each engine row in equal time buckets across the profile
// (the report's timeline strip).
struct EngineTimeline {
    Engine engine;
    std::vector<double> active_percent;
};

// Where a device's time went over a window (device_streams.h): the time
// each kind of work ran (unions: a stretch of two kinds counts for both),
// computation and communication at once, work that is neither of the two
// (exposed: memory transfers and other work nothing hides), and idle.
// computation + communication - overlap + exposed + idle = span.
struct DeviceTimes {
    int64_t span_ns = 0;
    int64_t busy_ns = 0;           // any work
    int64_t computation_ns = 0, communication_ns = 0, memory_ns = 0, other_ns = 0;
    int64_t overlap_ns = 0;        // computation and communication at once
    int64_t exposed_ns = 0;        // memory or other work while neither computes nor communicates
    int64_t idle_ns = 0;
};

// One stream of a device (HTA's idle time breakdown and queue length).
struct DeviceStreamStat {
    int64_t stream = 0;
    int64_t events = 0;   // work counted on it
    int64_t busy_ns = 0;  // the union of its work
    // Its idle gaps (a start less the previous end; summed as HTA sums
    // them) by cause: the CPU launched the work late (host wait), a gap
    // under 30 us (kernel wait), else other.
    int64_t host_wait_ns = 0, kernel_wait_ns = 0, other_wait_ns = 0;
    // Its launch queue: the length after each change (queue_points of
    // them), their statistics, the time spent at the longest and at CUDA's
    // limit of 1024 launches or more.
    int64_t queue_points = 0;
    double queue_mean = 0, queue_std = 0, queue_p25 = 0, queue_p50 = 0, queue_p75 = 0;
    int64_t queue_min = 0, queue_max = 0;
    int64_t queue_at_max_ns = 0, queue_full_ns = 0;
};

// The launches whose work was counted (HTA's kernel launch statistics):
// the CPU's time in the launch call, the device's in the work, the delay
// from the call's end to the work's start; and how many launch calls took
// over 50 us and waited over 100 us (HTA's outliers).
struct DeviceLaunchStat {
    int64_t launches = 0;
    int64_t cpu_sum_ns = 0, cpu_max_ns = 0, gpu_sum_ns = 0, gpu_max_ns = 0, delay_sum_ns = 0, delay_max_ns = 0;
    int64_t cpu_outliers = 0, delay_outliers = 0;
};

// One profiler step of the device's work: the work the CPU launched in the
// step, from its first start to its last end.
struct DeviceStep {
    int64_t step = 0;
    int64_t start_ns = 0, end_ns = 0;
    DeviceTimes times;
};

// HTA's kernel type breakdown: the time each set of computation,
// communication and memory ran ("computation overlapping communication").
struct DeviceKernelType {
    std::string type;
    int64_t ns = 0;
};

// A Kineto trace's device streams as HTA sees them (device_streams.h).
struct DeviceSummary {
    std::string family;  // gpu (CUDA, ROCm) or mtia: which of HTA's rules kept the work
    int64_t events = 0;  // device events in the trace
    int64_t counted = 0, left_late = 0, left_unlaunched = 0;
    int64_t left_step = -1;  // the step whose work was left out (the last, incomplete one); -1: none
    int64_t window_start_ns = 0, window_end_ns = 0;  // the device window: HTA's kernel time
    DeviceTimes times;
    std::vector<DeviceKernelType> kernel_types;  // longest first
    std::vector<DeviceStreamStat> streams;       // by stream
    DeviceLaunchStat launches;
    std::vector<DeviceStep> steps;               // in start order
    // Per timeline bucket (kTimelineBuckets over the window): percent of the
    // bucket computing, and communicating.
    std::vector<double> compute_percent, collective_percent;
};

struct ProfileSummary {
    std::vector<MetricValue> metrics;
    std::vector<EngineStat> engines;
    std::vector<KeyStat> top_opcodes;
    // Every opcode (an instruction's opcode, or its name where the source
    // gives none; past ProfileMetrics::kMaxKeys distinct, the rest as
    // "(other)"), busiest first: top_opcodes is its head.  The dataset's
    // opcodes table.
    std::vector<KeyStat> opcodes;
    // The busiest layers (an instruction's layer, or its HLO name where it
    // has none; past ProfileMetrics::kMaxKeys distinct, the rest as "(other)",
    // which the notes say, as for opcodes).
    std::vector<KeyStat> top_layers;
    std::vector<TrackStat> tracks;  // only without engine rows; busiest first, at most 20
    std::vector<QueueTypeStat> dma_queue_types;  // only when the source names queue types
    std::vector<EngineTimeline> timeline;  // kTimelineBuckets buckets from start_ns to end_ns
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    int64_t events = 0;
    std::vector<std::string> notes;  // what could not be derived and why
    std::vector<MetricDisagreement> disagreements;
    // Figures the source names but does not have (availability.h): never a
    // value, each with the reason ("the profiler says: ...").
    std::vector<UnavailableMetric> unavailable;
    // How the peak FLOP/s and HBM bandwidth were made (core_peaks.h), for
    // the report: "2 physical cores (profile metadata) x 78.64 TFLOP/s ...".
    std::string peak_basis;
    // Device profiles (with engine rows): where the time went, and the
    // collective operations in start order (at most CollectiveOps::kMaxOps).
    std::optional<TimeBreakdown> breakdown;
    std::vector<CollectiveOp> collectives;
    // The iterations the source marks, in start order (at most
    // ProfileMetrics::kMaxIterations): nx-report --ranks counts its
    // straggler over them.
    std::vector<Iteration> iterations;
    // Its executions, where the source lists them (sessions): every one
    // (for the study database's and the dataset's tables; not in the
    // profile record), and the digest the record carries.
    std::vector<ExecutionStat> executions;
    std::optional<ExecutionDigest> execution_digest;
    // A trace with device streams (GPU, MTIA): their figures as HTA
    // defines them.
    std::optional<DeviceSummary> device;

    // The steps its iterations mark, the first and the last (-1 when it marks
    // none): a PyTorch profiler schedule that repeats leaves one trace per
    // window of steps on each rank, and only one window's compare across ranks.
    int64_t first_step() const { return iterations.empty() ? -1 : iterations.front().step; }
    int64_t last_step() const { return iterations.empty() ? -1 : iterations.back().step; }

    const MetricValue* find(std::string_view name) const;
    // nullptr unless the source has the figure's field but not the figure.
    const UnavailableMetric* find_unavailable(std::string_view name) const;
    // Value or the fallback when absent.
    double value_or(std::string_view name, double fallback) const;
};

}  // namespace nx
