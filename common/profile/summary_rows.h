// The rows a profile's summary is made of (engines, where the time went,
// collective operations, opcodes, executions, ...), each with its fields
// described once, right below it (row_fields.h): the profile record's JSON
// keys (profile_record.cpp), the dataset's columns (dataset_layout.cpp) and
// the study database's (store_schema.cpp) all come from these tables, and
// nx(7) lists every field (test/40-man.bats checks it against
// `nx-query --list tables`).  A new figure is a member, its line in the
// table, the code that computes it, and its words in nx(7).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/event.h"
#include "common/profile/row_fields.h"

namespace nx {

template <>
struct TextCodec<Engine> {
    static std::string_view text(Engine e) { return to_string(e); }
    static std::optional<Engine> parse(std::string_view s) { return parse_engine(s); }
};

// How an engine row's busy time was made (engine_busy.h).
// summary: the DMA row, from the profiler's summary dma_active_time (it gives
// no DMA intervals); the intervals still draw the row's timeline.
enum class BusyOrigin : uint8_t { instructions, profiler, transfers, summary };
// "derived from instructions, waits excluded", "profiler active_time", ...
std::string_view to_string(BusyOrigin o);
std::optional<BusyOrigin> parse_busy_origin(std::string_view s);
template <>
struct TextCodec<BusyOrigin> {
    static std::string_view text(BusyOrigin o) { return to_string(o); }
    static std::optional<BusyOrigin> parse(std::string_view s) { return parse_busy_origin(s); }
};

// One engine row of the profile (the profiler's rows: engine_busy.h).
struct EngineStat {
    Engine engine = Engine::none;
    BusyOrigin origin = BusyOrigin::instructions;
    int64_t instructions = 0;
    int64_t busy_ns = 0;      // union of busy intervals
    int64_t busy_sum_ns = 0;  // plain sum of durations, semaphore waits included
    // The engine's work: its instructions but the semaphore waits, and their
    // summed durations (the mean a report shows).  -1: not known (a record
    // written before nx kept them).
    int64_t work_instructions = -1;
    int64_t work_sum_ns = -1;
    double active_percent = 0;
};

namespace engine_rows {
// A record without "origin": the DMA row's busy time was its transfers'.
inline bool read_origin(EngineStat& e, const FieldValue& v) {
    if (std::holds_alternative<std::monostate>(v)) {
        e.origin = e.engine == Engine::dma ? BusyOrigin::transfers : BusyOrigin::instructions;
        return true;
    }
    const auto* s = std::get_if<std::string_view>(&v);
    std::optional<BusyOrigin> o = s ? parse_busy_origin(*s) : std::nullopt;
    e.origin = o.value_or(e.engine == Engine::dma ? BusyOrigin::transfers : BusyOrigin::instructions);
    return true;
}
// The work figures come as a pair: one without the other is neither.
inline bool read_work_sum(EngineStat& e, const FieldValue& v) {
    if (const auto* i = std::get_if<int64_t>(&v)) e.work_sum_ns = *i;
    if (e.work_instructions < 0 || e.work_sum_ns < 0) e.work_instructions = e.work_sum_ns = -1;
    return true;
}
}  // namespace engine_rows

inline constexpr Field<EngineStat> kEngineFields[] = {
    field<&EngineStat::engine>("engine", "the engine row (tensor, vector, scalar, gpsimd, sync, dma, ...)"),
    read_with(field<&EngineStat::origin>("origin", "how its busy time was made: from instructions (waits excluded), "
                                                   "the profiler's own active time, DMA transfers, or the summary"),
              &engine_rows::read_origin),
    field<&EngineStat::instructions>("instructions", "the instructions it ran, semaphore waits included"),
    formerly(field<&EngineStat::busy_ns>("busy_ns", "busy time: the union of its busy intervals"), "active_ns"),
    field<&EngineStat::busy_sum_ns>("busy_sum_ns", "the plain sum of its instructions' durations, waits included"),
    field<&EngineStat::work_instructions, NullWhen::negative>("work_instructions",
                                                              "its instructions but the semaphore waits"),
    read_with(field<&EngineStat::work_sum_ns, NullWhen::negative>("work_sum_ns", "their summed durations"),
              &engine_rows::read_work_sum),
    field<&EngineStat::active_percent>("active_percent", "busy_ns as a percent of the profile's total time"),
};
// The study database's engine_stat keeps these (the sums over the events as
// stored; the profile's origin and percent are the record's).
inline constexpr std::string_view kStoredEngineFields[] = {"engine",       "instructions",      "busy_ns",
                                                           "busy_sum_ns", "work_instructions", "work_sum_ns"};

// A figure the source reported that nx, deriving it from the events,
// makes more than 10% different: reports show both.
struct MetricDisagreement {
    std::string metric;
    double source = 0;
    double derived = 0;
    std::string derived_from;  // how nx made its figure
};
inline constexpr Field<MetricDisagreement> kDisagreementFields[] = {
    required(field<&MetricDisagreement::metric>("metric", "the metric")),
    required(field<&MetricDisagreement::source>("source", "the profiler's figure")),
    required(field<&MetricDisagreement::derived>("derived", "nx's figure from the events")),
    field<&MetricDisagreement::derived_from>("derived_from", "how nx made its figure"),
};

// Instructions and their time under one key: an opcode (the instruction's
// name where the source gives none) or a layer.
struct KeyStat {
    std::string key;
    int64_t instructions = 0;
    int64_t time_ns = 0;
};
inline constexpr Field<KeyStat> kOpcodeFields[] = {
    field<&KeyStat::key>("opcode", "the opcode (the instruction's name where the source gives none)"),
    formerly(field<&KeyStat::instructions>("instructions", "its instructions"), "count"),
    field<&KeyStat::time_ns>("time_ns", "their summed durations"),
};
inline constexpr Field<KeyStat> kLayerFields[] = {
    field<&KeyStat::key>("layer", "the layer (the HLO name where the instruction has no layer)"),
    formerly(field<&KeyStat::instructions>("instructions", "its instructions"), "count"),
    field<&KeyStat::time_ns>("time_ns", "their summed durations"),
};

// A track's activity, for profiles without engine rows (Chrome traces,
// system profiles), where reports show tracks (threads, GPU streams) instead
// of engines: its slices and busy time (the union of their intervals).
struct TrackStat {
    std::string track;
    std::string process;  // the source's process name (Event::process), or empty
    int64_t events = 0;
    int64_t busy_ns = 0;
};
inline constexpr Field<TrackStat> kTrackStatFields[] = {
    field<&TrackStat::track>("track", "the track (thread, GPU stream, row)"),
    field<&TrackStat::process, NullWhen::empty>("process", "the source's process name"),
    field<&TrackStat::events>("events", "its slices"),
    field<&TrackStat::busy_ns>("busy_ns", "the union of their intervals"),
};

// DMA use per queue type as the source names it (instruction, input,
// output, data, weights, software_dynamic, hardware_dynamic, unknown):
// transfers, bytes, busy time (union of its transfers' intervals).
struct QueueTypeStat {
    std::string queue_type;
    int64_t transfers = 0;
    int64_t bytes = 0;
    int64_t busy_ns = 0;
};
inline constexpr Field<QueueTypeStat> kQueueTypeFields[] = {
    field<&QueueTypeStat::queue_type>("queue_type", "the queue type as the source names it"),
    field<&QueueTypeStat::transfers>("transfers", "its transfers"),
    field<&QueueTypeStat::bytes>("bytes", "the bytes they moved"),
    field<&QueueTypeStat::busy_ns>("busy_ns", "the union of their intervals"),
};

// One collective operation (an all-reduce, all-gather ...): its name as the
// profiler gave it, when it ran in the profile's clock, what it moved.
struct CollectiveOp {
    std::string name;
    int64_t start_ns = 0;
    int64_t dur_ns = 0;
    int64_t bytes = -1;  // -1: not said
    // The engine that triggered it (Explorer's CcOp trigger_engine, in nx's
    // engine names: "Pool" is gpsimd; a label nx does not know, as given;
    // empty: not said), and the profiler's own delay from that trigger to
    // the operation's start (cc_trigger_start_delay; -1: not said).
    std::string engine;
    int64_t trigger_delay_ns = -1;
    // A communication kernel's process group and its sequence number there
    // (kernel_collectives.h; empty and -1: not said): ranks match on them.
    std::string group;
    int64_t seq = -1;
};
inline constexpr Field<CollectiveOp> kCollectiveFields[] = {
    field<&CollectiveOp::name>("name", "the operation as the profiler names it"),
    field<&CollectiveOp::start_ns>("start_ns", "its start in the profile's clock"),
    field<&CollectiveOp::dur_ns>("dur_ns", "its duration"),
    field<&CollectiveOp::bytes, NullWhen::negative>("bytes", "the bytes it moved, where the profiler says"),
    field<&CollectiveOp::engine, NullWhen::empty>(
        "engine", "the engine that triggered it (Explorer's CcOp trigger_engine in nx's names, Pool being gpsimd; "
                  "a label nx does not know as given)"),
    field<&CollectiveOp::trigger_delay_ns, NullWhen::negative>(
        "trigger_delay_ns", "the profiler's delay from that trigger to the operation's start (cc_trigger_start_delay)"),
    field<&CollectiveOp::group, NullWhen::empty>(
        "group", "a GPU communication kernel's process group (its args' Process Group Name or ID)"),
    field<&CollectiveOp::seq, NullWhen::negative>("seq_in_group",
                                                  "its sequence number in that group, on which ranks are matched"),
};

// One iteration of a training loop the source marks: the PyTorch
// profiler's "ProfilerStep#<step>" slices.  A Neuron device profile is one
// execution and marks none.
struct Iteration {
    int64_t step = 0;
    int64_t start_ns = 0;
    int64_t dur_ns = 0;
};
inline constexpr Field<Iteration> kIterationFields[] = {
    field<&Iteration::step>("step", "the step number ProfilerStep#N gives"),
    field<&Iteration::start_ns>("start_ns", "its start"),
    field<&Iteration::dur_ns>("dur_ns", "its duration"),
};

// One execution of a NEFF in a profile that holds many (the runtime's
// session mode: Explorer's ExecutionInfo has a row each): its window.
struct ExecutionWindow {
    int64_t index = 0;
    std::string neff;
    int64_t start_ns = 0, end_ns = 0;
};

// What one execution did (time_breakdown.h over its window): the same
// split as the profile's breakdown, and each engine row's busy time.
struct ExecutionStat {
    ExecutionWindow window;
    int64_t compute_ns = 0, collective_ns = 0, overlap_ns = 0, dma_exposed_ns = 0, idle_ns = 0;
    // Busy time (union) of tensor, vector, scalar, gpsimd, sync, dma, in
    // that order (kExecutionEngines).
    std::array<int64_t, 6> busy_ns{};
    int64_t dur_ns() const { return window.end_ns - window.start_ns; }
};
inline constexpr Engine kExecutionEngines[6] = {Engine::tensor, Engine::vector, Engine::scalar,
                                                Engine::gpsimd, Engine::sync,   Engine::dma};
inline constexpr Field<ExecutionStat> kExecutionFields[] = {
    field_in<&ExecutionStat::window, &ExecutionWindow::index>("execution_index", "the source's index of the execution"),
    field_in<&ExecutionStat::window, &ExecutionWindow::neff, NullWhen::empty>("neff", "the NEFF it ran"),
    sequential(field_in<&ExecutionStat::window, &ExecutionWindow::start_ns>("start_ns", "its start")),
    field_in<&ExecutionStat::window, &ExecutionWindow::end_ns>("end_ns", "its end"),
    derived<ExecutionStat>("dur_ns", FieldType::int64, "end_ns - start_ns",
                           [](const ExecutionStat& e) -> FieldValue { return e.dur_ns(); }),
    field<&ExecutionStat::compute_ns>("compute_ns", "the union of the compute engines' busy time in it"),
    field<&ExecutionStat::collective_ns>("collective_ns", "the union of its collective operations"),
    field<&ExecutionStat::overlap_ns>("overlap_ns", "computing while a collective runs"),
    field<&ExecutionStat::dma_exposed_ns>("dma_exposed_ns", "DMA while neither computes nor communicates"),
    field<&ExecutionStat::idle_ns>("idle_ns", "none of the three"),
    field_at<&ExecutionStat::busy_ns, 0>("tensor_busy_ns", "TensorE's busy time in it"),
    field_at<&ExecutionStat::busy_ns, 1>("vector_busy_ns", "VectorE's busy time in it"),
    field_at<&ExecutionStat::busy_ns, 2>("scalar_busy_ns", "ScalarE's busy time in it"),
    field_at<&ExecutionStat::busy_ns, 3>("gpsimd_busy_ns", "GpSimdE's busy time in it"),
    field_at<&ExecutionStat::busy_ns, 4>("sync_busy_ns", "SyncE's busy time in it"),
    field_at<&ExecutionStat::busy_ns, 5>("dma_busy_ns", "DMA's busy time in it"),
};

// The executions in few words (executions.h), what the profile record
// carries: their number, each NEFF's spread of durations, and the slow
// ones with what grew in them against their NEFF's median execution.
struct NeffSpread {
    std::string neff;
    int64_t executions = 0;
    int64_t min_ns = 0, median_ns = 0, p90_ns = 0, max_ns = 0;
};
inline constexpr Field<NeffSpread> kNeffSpreadFields[] = {
    field<&NeffSpread::neff>("neff", "the NEFF"),
    field<&NeffSpread::executions>("executions", "its executions"),
    field<&NeffSpread::min_ns>("min_ns", "the shortest"),
    field<&NeffSpread::median_ns>("median_ns", "the median"),
    field<&NeffSpread::p90_ns>("p90_ns", "the 90th percentile"),
    field<&NeffSpread::max_ns>("max_ns", "the longest"),
};
struct SlowExecution {
    int64_t index = 0;
    std::string neff;
    int64_t start_ns = 0, dur_ns = 0, median_ns = 0;
    std::string what_changed;  // "compute +13.0 us (TensorE +12.1 us)"
};
inline constexpr Field<SlowExecution> kSlowExecutionFields[] = {
    field<&SlowExecution::index>("index", "the execution's index"),
    field<&SlowExecution::neff>("neff", "its NEFF"),
    field<&SlowExecution::start_ns>("start_ns", "its start"),
    field<&SlowExecution::dur_ns>("dur_ns", "its duration"),
    field<&SlowExecution::median_ns>("median_ns", "its NEFF's median execution"),
    field<&SlowExecution::what_changed>("what_changed", "what grew in it against that median"),
};
struct ExecutionDigest {
    int64_t count = 0;
    std::vector<NeffSpread> neffs;     // most executions first
    std::vector<SlowExecution> slow;   // slowest against its median first
};

// Where a device profile's time went (time_breakdown.h), over its span.
// compute + collective - overlap + dma_exposed + idle = span.
struct TimeBreakdown {
    int64_t span_ns = 0;
    int64_t compute_ns = 0;      // union of the compute engines' busy time
    int64_t collective_ns = 0;   // union of the collective operations
    int64_t overlap_ns = 0;      // computing while a collective runs
    int64_t dma_exposed_ns = 0;  // DMA while neither computes nor communicates
    int64_t idle_ns = 0;         // none of the three
    // Per timeline bucket (kTimelineBuckets over the span): percent of the
    // bucket computing, and in a collective.
    std::vector<double> compute_percent, collective_percent;
};
inline constexpr Field<TimeBreakdown> kBreakdownFields[] = {
    field<&TimeBreakdown::span_ns>("span_ns", "the profile's span"),
    field<&TimeBreakdown::compute_ns>("compute_ns", "the union of the compute engines' busy time"),
    field<&TimeBreakdown::collective_ns>("collective_ns", "the union of the collective operations"),
    field<&TimeBreakdown::overlap_ns>("overlap_ns", "both at once"),
    field<&TimeBreakdown::dma_exposed_ns>("dma_exposed_ns", "DMA while neither"),
    field<&TimeBreakdown::idle_ns>("idle_ns", "none of the three"),
};

}  // namespace nx
