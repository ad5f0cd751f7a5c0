// Regions of a profile: time ranges every metric and finding is computed for,
// as Neuron Explorer's region highlighter does one method at a time, all at
// once here.  Kinds:
//   layer      a framework layer / hierarchy node (neuron-profile's
//              layer_summary, Explorer's FrameworkNode, else the span of the
//              instructions naming each layer)
//   iteration  one occurrence of a layer name that recurs (a loop body
//              repeated in the layer summary: "NAME #2"), or one iteration
//              of an NKI kernel's loop nest ("i=1/j=0", kernel_regions.h)
//   collective one collective operation (Explorer's CcOp), "NAME #k" when
//              the operation recurs
//   collective_phase  the compute between two consecutive collectives
//              ("phase k")
//   kernel     an NKI kernel stack frame, named by its function
//              (kernel_regions.h)
//   window     a range given with --window FROM:TO (ns from the profile's
//              start, or N%)
// An event counts in every region its start lies in, its time clipped at the
// region's end; the profiler's busy intervals (`active` events) are clipped
// to each region they overlap.  Each region gets a ProfileSummary made by
// ProfileMetrics from its events alone (the source's whole-profile figures do
// not apply to a part of it), and the rules evaluated on it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/event.h"
#include "common/profile/profile.h"
#include "common/profile/rules.h"

namespace nx {

struct Region {
    std::string kind;    // layer, iteration, collective, collective_phase, kernel, window
    std::string name;
    std::string parent;  // the enclosing region's name, or empty
    int64_t start_ns = 0;
    int64_t end_ns = 0;
};

// --window FROM:TO or NAME=FROM:TO; FROM and TO are ns from the profile's
// start or N% of its span.
struct WindowSpec {
    std::string name;
    double from = 0, to = 0;
    bool from_percent = false, to_percent = false;
};
// The error text on a bad spec.
std::optional<std::string> parse_window(std::string_view text, WindowSpec& out);
Region resolve_window(const WindowSpec& w, int64_t profile_start, int64_t profile_end);

// Layers (and their iterations) from the profile record's carried "layers"
// array (neuron-profile's layer_summary: name, start_ns, end_ns).
std::vector<Region> carried_layer_regions(std::string_view carried_json);
// Parents by path: a layer "/a/b" nests in "/a" when that region encloses it.
void assign_parents(std::vector<Region>& regions);

// One collective operation of the profile: its name and time range.
struct TimedOp {
    std::string name;
    int64_t start_ns = 0, end_ns = 0;
};
// Each collective as a region (kind collective, "NAME #k" in start order
// when the operation recurs) and the gaps between consecutive collectives
// (kind collective_phase, "phase k": from the end of every collective so far
// to the next one's start; none where collectives overlap).
std::vector<Region> collective_regions(std::vector<TimedOp> ops);

struct RegionResult {
    Region region;
    ProfileSummary summary;
    std::vector<Finding> findings;  // ranked, each with the region's name and range
};

// Feeds each event to the regions it belongs to; finish() summarises them.
class RegionMetrics {
public:
    // At most kMaxRegions regions are kept (the longest); `info` gives the
    // target and dtype for MFU and the peaks.
    RegionMetrics(std::vector<Region> regions, const ProfileInfo& info);
    ~RegionMetrics();
    RegionMetrics(const RegionMetrics&) = delete;
    RegionMetrics& operator=(const RegionMetrics&) = delete;

    void add(const Event& e);
    std::vector<RegionResult> finish(const RuleThresholds* thresholds);
    // Regions dropped past the cap.
    size_t dropped() const { return dropped_; }

    static constexpr size_t kMaxRegions = 512;

private:
    struct State;
    std::unique_ptr<State> s_;
    size_t dropped_ = 0;
};

}  // namespace nx
