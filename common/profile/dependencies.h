// A profile's dependency graph and its critical path (issue 14, Bounds).
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
// dependency bound.  Nodes are ordered by start; an edge whose target starts
// before its source is not a dependency in time and is left out (counted).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/profile/event.h"

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
// few hundred distinct strings for millions of nodes), each stored once.
// Shared by copies of the graph, so a copied node's views stay valid.
class DepStrings {
public:
    std::string_view intern(std::string_view s) { return *strings_.emplace(s).first; }

private:
    std::unordered_set<std::string> strings_;  // node-based: views survive rehashing
};

struct DepEdge {
    uint32_t from = 0, to = 0;  // indices into DependencyGraph::nodes
    int64_t gap_ns = -1;        // the source's gap_time; -1: none given
};

struct DependencyGraph {
    std::shared_ptr<const DepStrings> strings;  // what the nodes' views point into
    std::vector<DepNode> nodes;  // by start, then table and id
    std::vector<DepEdge> edges;  // by target, then source
    int64_t flow_rows = 0;       // rows of the Flow table (0: no dependency data)
    int64_t unresolved = 0;      // rows naming a table or id nx has no node for
    int64_t backward = 0;        // rows whose target starts before the source
};

// Collects the graph from what a profile gives, in any order: Flow rows
// first lets it keep only the instructions they name (an instruction's
// Instruction.id is in its args); dma_block rows (DmaPacketAggregated) are
// kept when named.  Rows are JSON objects of the source's columns.
class DependencyCollector {
public:
    void flow_row(std::string_view json);
    // False until a Flow row names an instruction.
    bool wants_instructions() const { return !wanted_instructions_.ids.empty(); }
    void instruction(const Event& e);
    // The same with its Instruction.id given (read from the source itself).
    void instruction(const Event& e, int64_t id);
    void dma_block_row(std::string_view json);
    DependencyGraph finish();

private:
    enum class Kind : uint8_t { none, instruction, dma_block };
    // A Flow row, 32 bytes: a profile has millions of them.
    struct Row {
        int64_t in_id = 0, out_id = 0, gap = -1;
        Kind in = Kind::none, out = Kind::none;
    };
    // Ids the Flow rows name, sorted and unique when `sorted` (rows may
    // still come after the first lookup).
    struct IdSet {
        std::vector<int64_t> ids;
        bool sorted = true;
        void add(int64_t id);
        bool contains(int64_t id);
    };
    static Kind kind_of(std::string_view flow_table);
    std::vector<Row> rows_;
    std::vector<DepNode> nodes_;  // as they come; finish() drops repeats (the last one wins)
    IdSet wanted_instructions_, wanted_blocks_;
    std::shared_ptr<DepStrings> strings_ = std::make_shared<DepStrings>();
    int64_t bad_rows_ = 0;
};

// The table names Flow uses for the two kinds of node ("instruction",
// "dma_block"; any case).  Empty when it is neither.
std::string_view dependency_table(std::string_view flow_table);

struct CriticalStep {
    const DepNode* node = nullptr;
    int64_t dur_ns = 0;          // the node's, clipped at the range's end
    int64_t gap_to_next_ns = 0;  // 0 for the last step
    int64_t cumulative_ns = 0;   // from the chain's start to this step's end
};

struct CriticalPath {
    std::vector<CriticalStep> steps;
    int64_t length_ns = 0;  // durations and gaps: the dependency bound
    int64_t work_ns = 0;    // durations alone
    std::string where;      // the engine or queue with the most time on the path
    int64_t where_ns = 0;
};

// The longest chain among the nodes that start in [from_ns, to_ns) and the
// edges between them, each step's time clipped at to_ns (INT64_MIN,
// INT64_MAX: the whole profile).  Only nodes joined by an edge make a chain.
CriticalPath critical_path(const DependencyGraph& g, int64_t from_ns, int64_t to_ns);

}  // namespace nx
