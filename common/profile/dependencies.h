// A profile's dependencies and its critical path (a bound on its time): what
// they are, and the path's result.  The graph itself is built and walked in
// the study database's layer (store/dependency_graph.h), which keeps it on
// disk so that its memory does not grow with the profile.
//
// Neuron Explorer's Flow table links an instruction to the DMA transfer it
// starts or waits for, and back (in_table/in_id -> out_table/out_id, with the
// gap the profiler measured between them).  Its nodes are Instruction rows
// (table "instruction", by Instruction.id) and aggregated DMA transfers
// (table "dma_block", by DmaPacketAggregated.id); edges to any other table,
// or to an id the profile does not have, are counted, not guessed.
//
// The critical path is the chain of dependent steps that takes longest: each
// step's duration plus the gap before the next one (the Flow's gap_time, or
// the time between the two when the row gives none; never below 0).  The
// profile, as it ran, could not be shorter than that chain: it is the
// dependency bound.  Nodes are ordered by start (then table, then id); an
// edge whose target does not come after its source in that order is not a
// dependency in time and is left out (counted).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nx {

struct DepNode {
    std::string_view table;  // instruction, dma_block (static strings)
    int64_t id = 0;          // the source table's id
    int64_t start_ns = 0;
    int64_t dur_ns = 0;
    std::string_view where;  // the engine (tensor, sync ...) or the DMA queue
    std::string_view name;   // opcode, or the tensor a transfer moves
};

// The text a graph's nodes view (engines, queues, opcodes, tensor names: a
// few hundred distinct strings for millions of nodes), each stored once and
// numbered, so a node on disk holds two numbers.  A path's steps view it, so
// a path keeps it alive (CriticalPath::strings).
class DepStrings {
public:
    uint32_t intern(std::string_view s);
    std::string_view at(uint32_t n) const { return by_number_[n]; }

private:
    std::deque<std::string> text_;  // stable: the map's keys and by_number_ view it
    std::unordered_map<std::string_view, uint32_t> numbers_;
    std::vector<std::string_view> by_number_;
};

// The table names Flow uses for the two kinds of node ("instruction",
// "dma_block"; any case; "DmaPacketAggregated" too).  Empty when neither.
std::string_view dependency_table(std::string_view flow_table);

struct CriticalStep {
    DepNode node;                // its views point into CriticalPath::strings
    int64_t dur_ns = 0;          // the node's, clipped at the range's end
    int64_t gap_to_next_ns = 0;  // 0 for the last step
    int64_t cumulative_ns = 0;   // from the chain's start to this step's end
};

struct CriticalPath {
    std::shared_ptr<const DepStrings> strings;  // what the steps' views point into
    std::vector<CriticalStep> steps;
    int64_t length_ns = 0;  // durations and gaps: the dependency bound
    int64_t work_ns = 0;    // durations alone
    std::string where;      // the engine or queue with the most time on the path
    int64_t where_ns = 0;
};

}  // namespace nx
