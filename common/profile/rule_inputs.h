// The inputs of Neuron Explorer's 2.29+ rules and of nx's small-DMA,
// throttling and tensor-repeat rules (rules.h), gathered from the events and
// source tables of one profile beside ProfileMetrics' figures:
//
// - NKI coverage: instructions whose source names an NKI location
//   (nki_source_location, or Explorer's kernel_instruction_name) per engine;
// - throttling: the profiler's throttle intervals (neuron-profile's "ham"
//   rows, Explorer's Throttle table) with their allowed share k/n, against
//   the tensor engine's busy intervals (throttled FLOPs);
// - collectives: each operation's duration within its group (same operation
//   and size), against the group's median;
// - DMA by queue type, and hardware-DGE transfers under 4 KiB;
// - tensors' repeat factors (TensorInfo, neuron-profile's neff_node).
//
// What a profile lacks stays absent: a metric is only made when its data was
// seen, so the rules say "not in this profile" instead of a figure.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/event.h"
#include "common/profile/interval_union.h"
#include "common/profile/profile.h"
#include "common/profile/profile_sink.h"

namespace nx {

// A string or number field of a flat JSON object text, as text (strings
// unquoted, escapes left as written); empty when absent or null.  For the
// args of events, which nx writes compactly; nested objects are not searched.
std::string_view json_field(std::string_view object, std::string_view key);

// Hardware-DGE transfers under this size are "small" (Neuron Explorer
// 2.32's small-DMA warning: aim for 4 KiB or more per transfer).
constexpr int64_t kSmallDmaBytes = 4096;

// One throttle interval: [begin, end) at k/n of the full rate.
struct ThrottleSpan {
    int64_t begin = 0, end = 0;
    double allowed = 1;  // k / n
};

class RuleInputs {
public:
    void add(const Event& e);
    // Explorer's Throttle and TensorInfo tables (the rest are ignored).
    void add_source_rows(const SourceRows& rows);
    // The carried tables add_source_rows reads (Throttle, TensorInfo).
    static bool reads_table(std::string_view table) { return table == "Throttle" || table == "TensorInfo"; }
    // neuron-profile's neff_node array, carried in the profile record.
    void add_carried(std::string_view carried_json);

    // name -> value of every metric this could make.  `tensor_busy`: the
    // tensor engine's merged busy intervals (empty when it has none);
    // `peak_flops`: the core's peak FLOP/s (0: unknown); `total_ns`: the
    // profile's time.
    struct Output {
        std::vector<std::pair<std::string, double>> metrics;
        std::vector<std::string> notes;
        std::vector<QueueTypeStat> queue_types;
    };
    Output finish(IntervalUnion* tensor_busy, double peak_flops, double total_ns);

    static constexpr size_t kMaxThrottleSpans = 1 << 20;
    static constexpr size_t kMaxCollectives = 1 << 20;

private:
    // NKI attribution per engine row: instructions, those with NKI source.
    std::array<int64_t, kEngineCount> instructions_{};
    std::array<int64_t, kEngineCount> nki_{};
    bool nki_field_seen_ = false;

    std::vector<ThrottleSpan> throttle_;
    bool throttle_seen_ = false;

    // Collective durations by "operation|bytes".
    std::map<std::string, std::vector<int64_t>, std::less<>> collectives_;
    size_t collective_count_ = 0;

    struct QueueAcc {
        int64_t transfers = 0, bytes = 0;
        IntervalUnion busy{size_t{1} << 12};
    };
    std::map<std::string, QueueAcc, std::less<>> queues_;
    int64_t hw_dge_ = 0, hw_dge_small_ = 0;

    double max_repeat_ = -1;
    int64_t repeated_tensors_ = 0;
    void add_repeat_factor(double f);
};

}  // namespace nx
