// Summary metrics of one profile, computed incrementally from its events with
// the formulas of neuron-facts.md section 3, merged with the metrics the source
// itself reported.  nx-convert (real profiles) and the sim backend (predicted
// ones) both use this, so every query and rule means the same on both.
//
// Engine active time follows engine_busy.h: the profiler's own busy intervals
// when the profile has them, else instructions without their waits.
//
// Memory stays bounded: per-engine active time uses IntervalUnion (which spills
// to disk for unordered input); opcode/layer/tensor tables are capped.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "common/io/string_hash.h"
#include "common/profile/device_streams.h"
#include "common/profile/engine_busy.h"
#include "common/profile/event.h"
#include "common/profile/interval_union.h"
#include "common/profile/profile.h"
#include "common/profile/profile_sink.h"
#include "common/profile/rule_inputs.h"
#include "common/profile/time_breakdown.h"
#include "common/target/targets.h"

namespace nx {

// Instruction-mix class of an opcode: the pattern study's heuristic.
enum class OpClass { memory, compute, other };
OpClass classify_opcode(std::string_view opcode);

class ProfileMetrics {
public:
    // Iterations kept per profile (a training loop profiled for longer keeps
    // the first this many to arrive).
    static constexpr size_t kMaxIterations = 100000;

    ProfileMetrics();
    ProfileMetrics(const ProfileMetrics&) = delete;
    ProfileMetrics& operator=(const ProfileMetrics&) = delete;

    void add(const Event& e);
    // A metric the source reported (e.g. the neuron-profile summary).  Later
    // values for the same name replace earlier ones.
    void add_source_metric(std::string_view name, double value);
    // One execution of a profile of many (a session): its window.  Each is
    // also an iteration (step = its index).
    void add_execution(const ExecutionWindow& w);
    static constexpr size_t kMaxExecutions = 1000000;
    // Source tables the rules read (Explorer's Throttle, TensorInfo).
    void add_source_rows(const SourceRows& rows) { rule_inputs_.add_source_rows(rows); }
    // Count the last profiler step's device work too (device_streams.h;
    // HTA leaves it out, and so does nx by default).
    void keep_last_step(bool keep) { keep_last_step_ = keep; }
    // Computes everything.  `info` supplies the target and dtype for MFU, MBU
    // and the ridge point.  Call once.
    ProfileSummary finish(const ProfileInfo& info);

    // How many distinct opcodes/layers/tensors are tracked at most; the rest
    // are counted under "(other)".
    static constexpr size_t kMaxKeys = 50000;

    struct KeyAcc {
        int64_t count = 0;
        int64_t time_ns = 0;
        int op_class = 0;  // OpClass of an opcode, computed once per distinct opcode
    };
    // Heterogeneous lookup: no std::string is built to find a key.
    using KeyTable = std::unordered_map<std::string, KeyAcc, StringHash, std::equal_to<>>;

private:
    struct Derivation;  // finish(), one section at a time (profile_metrics.cpp)
    KeyAcc& bump(KeyTable& table, std::string_view key, int64_t dur, bool classify);

    EngineBusy busy_;              // per-engine busy time (engine_busy.h)
    CollectiveOps collectives_;    // the collective operations (time_breakdown.h)
    DeviceStreams device_;         // GPU and MTIA streams (device_streams.h)
    bool keep_last_step_ = false;
    std::vector<Iteration> iterations_;  // ProfilerStep#N slices
    RuleInputs rule_inputs_;       // the inputs of the 2.29+ and nx rules (rule_inputs.h)
    bool any_compute_ = false;     // a compute engine's instruction or profiler interval

    int64_t events_ = 0;
    int64_t start_ns_ = INT64_MAX;
    int64_t end_ns_ = INT64_MIN;

    int64_t dma_count_ = 0;
    int64_t dma_sized_count_ = 0;  // transfers whose size is known
    int64_t dma_bytes_ = 0;
    bool dma_bytes_known_ = false;
    bool dma_kind_known_ = false;
    // DMA packets that moved bytes without saying between which memories:
    // while there are any, nx's HBM and spill sums would be partial.
    int64_t dma_unclassified_ = 0;
    int64_t dma_unclassified_bytes_ = 0;
    int64_t hbm_read_ = 0, hbm_write_ = 0, spill_save_ = 0, spill_reload_ = 0, weight_queue_ = 0;

    double hardware_flops_ = 0, model_flops_ = 0, transpose_flops_ = 0;
    bool flops_known_ = false, model_flops_known_ = false;
    int64_t matmul_count_ = 0;
    // The pattern study's engine times: instruction durations summed by
    // opcode (see pattern_study_tensormatrix_time in metric_defs.cpp).
    int64_t study_tensormatrix_ns_ = 0, study_other_ns_ = 0;
    int64_t memory_ops_ = 0, compute_ops_ = 0, classified_total_ = 0;
    // NeuronCore instructions, and those the source could not name (opcode
    // "unknown", or none): their time is in no opcode's figures.
    int64_t core_instructions_ = 0, unnamed_instructions_ = 0;

    // Each physical core's first instruction start and last end (LNC=2
    // profiles): how much of the execution its instructions cover.
    std::map<int32_t, std::pair<int64_t, int64_t>> core_spans_;

    KeyTable opcodes_;
    KeyTable layers_;
    KeyTable tensor_loads_;  // count = loads per tensor
    int64_t hbm_reload_ = 0;
    bool tensors_known_ = false;
    bool tensors_untracked_ = false;

    std::map<std::string, double, std::less<>> source_;
    std::vector<ExecutionStat> executions_;
    int64_t executions_dropped_ = 0;

    // Per-track slices and busy time while the profile has no engine event
    // (then reports show engines and this is dropped); at most kMaxTracks
    // tracks, the rest counted as "(other tracks)".
    static constexpr size_t kMaxTracks = 256;
    struct TrackAcc {
        std::string process;
        int64_t events = 0;
        std::unique_ptr<IntervalUnion> busy;
    };
    void add_to_track(const Event& e);
    std::unordered_map<std::string, TrackAcc, StringHash, std::equal_to<>> tracks_;
    bool engine_seen_ = false;
    std::string last_track_;
    TrackAcc* last_acc_ = nullptr;
};


}  // namespace nx
