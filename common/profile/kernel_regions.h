// NKI kernel regions from Neuron Explorer's kernel debug tables: a region
// per kernel stack frame (KernelStackFrames, kind "kernel") and per loop
// iteration (KernelIterationVariables, kind "iteration"), each spanning the
// instructions whose kernel_instruction_name KernelInstructions maps to it or
// to a frame or iteration below it.  Built from the rows as plain values so
// the store (region_store.cpp) feeds it and the unit tests can too.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/profile/regions.h"

namespace nx {

class KernelRegions {
public:
    // Each table's pcore_idx: a row without one applies to every core.
    static constexpr int64_t kAnyCore = -1;

    // KernelStackFrames: a frame, the function it runs and its caller's frame.
    void stack_frame(int64_t pcore, int64_t id, std::string function, std::optional<int64_t> parent);
    // KernelIterationVariables: one iteration (variable = value) and the
    // enclosing loop's iteration.
    void iteration_variable(int64_t pcore, int64_t id, std::string variable, std::optional<int64_t> value,
                            std::optional<int64_t> parent);
    // KernelInstructions: where an instruction name sits.
    void kernel_instruction(int64_t pcore, std::string name, std::optional<int64_t> frame,
                            std::optional<int64_t> iteration);
    // No KernelInstructions rows: no instruction can belong to a region.
    bool empty() const { return instructions_.empty(); }

    // One executed instruction (its physical core and kernel_instruction_name).
    void instruction(int64_t pcore, std::string_view name, int64_t start_ns, int64_t end_ns);

    // The frames and iterations instructions ran in.  Frames are named by
    // their function ("NAME #k" in start order when several frames run one
    // function), iterations by their loop nest ("i=1/j=0"); parents are the
    // caller's frame and the enclosing iteration.
    std::vector<Region> finish() const;

private:
    using Key = std::pair<int64_t, int64_t>;  // pcore, id
    struct Node {
        std::string label;
        std::optional<int64_t> parent;
        int64_t pcore = kAnyCore;
        mutable int64_t start = INT64_MAX, end = INT64_MIN;  // the instructions' span, below it included
    };
    struct Placement {
        std::optional<int64_t> frame, iteration;
    };

    using Nodes = std::map<Key, Node>;
    static const Node* find(const Nodes& nodes, int64_t pcore, std::optional<int64_t> id);
    static void extend(const Nodes& nodes, const Node* n, int64_t start, int64_t end);
    static std::vector<Region> regions(const Nodes& nodes, const char* kind, bool path_names);

    Nodes frames_, iterations_;
    std::map<int64_t, std::map<std::string, Placement, std::less<>>> instructions_;  // pcore -> name -> placement
};

}  // namespace nx
