// A profile's dependency graph (profile/dependencies.h says what it is) kept
// on disk, and its critical path found in one sweep in start order.
//
// Held in memory, the graph of a profile of 5M instructions took 440 MB
// (millions of Flow rows and nodes).  Here they go into a scratch SQLite
// database: a private temporary file SQLite deletes when it closes, with a
// bounded page cache, whose sorter spills to disk.  It keeps the nodes the
// Flow rows name, numbers them in start order and resolves each Flow row to
// the two numbers.  The sweep then reads the nodes in that order and holds
// only the edges still open (from a node passed to one not yet reached); it
// writes each node's best predecessor to a spill file, which the walk back
// from the path's end reads.  Memory: the open edges, the interned strings,
// SQLite's caches and a fixed 4 MiB filter: flat in the number of events.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "common/profile/dependencies.h"
#include "common/profile/event.h"
#include "common/store/sqlite_db.h"

namespace nx {

class DependencyGraph;

// Collects the graph from what a profile gives: Flow rows first (they say
// which instructions and transfers to keep), then instructions (an
// instruction's Instruction.id is in its args, or given) and dma_block rows
// (DmaPacketAggregated), in any order.  Rows are JSON objects of the
// source's columns.  A node given twice is one node: its last row.
class DependencyCollector {
public:
    DependencyCollector();
    DependencyCollector(const DependencyCollector&) = delete;
    DependencyCollector& operator=(const DependencyCollector&) = delete;
    ~DependencyCollector();

    void flow_row(std::string_view json);
    // The same row by its fields (a kept table read column by column); an
    // empty id is one the row does not give as an integer.
    void flow(std::string_view in_table, std::optional<int64_t> in_id, std::string_view out_table,
              std::optional<int64_t> out_id, std::optional<int64_t> gap);
    // False until a Flow row names an instruction.
    bool wants_instructions() const { return wants_instructions_; }
    void instruction(const Event& e);
    // The same with its Instruction.id given (read from the source itself).
    void instruction(const Event& e, int64_t id);
    void dma_block_row(std::string_view json);
    void dma_block(std::optional<int64_t> id, std::optional<int64_t> start, std::optional<int64_t> end,
                   std::optional<int64_t> duration, std::string_view queue, std::string_view variable);
    DependencyGraph finish();

private:
    enum Kind : int { no_node = 0, block_node = 1, instruction_node = 2 };  // ordered as the tables' names
    static Kind kind_of(std::string_view flow_table);
    void open();
    void name(Kind kind, int64_t id);
    bool may_be_named(Kind kind, int64_t id) const;
    void add_node(Kind kind, int64_t id, int64_t start, int64_t dur, std::string_view where, std::string_view name);

    std::unique_ptr<SqliteDb> db_;
    std::optional<SqliteStmt> add_flow_, add_node_;
    std::shared_ptr<DepStrings> strings_ = std::make_shared<DepStrings>();
    // A Bloom filter of the (kind, id) pairs the Flow rows name: nodes no
    // row names are not kept, but for the few it lets through (1 in 10,000
    // at 1M named ids), which no edge uses: they change no path.
    std::vector<uint64_t> named_bits_;
    bool wants_instructions_ = false;
    int64_t flow_rows_ = 0, bad_rows_ = 0;
};

class DependencyGraph {
public:
    DependencyGraph();
    DependencyGraph(DependencyGraph&&) noexcept;
    DependencyGraph& operator=(DependencyGraph&&) noexcept;
    ~DependencyGraph();

    int64_t flow_rows = 0;   // rows of the Flow table (0: no dependency data)
    int64_t unresolved = 0;  // rows naming a table or id nx has no node for
    int64_t backward = 0;    // rows whose target does not come after the source

    // The nodes kept: those the Flow rows name (and the filter's few others).
    int64_t node_count() const { return nodes_; }
    int64_t edge_count() const { return edges_; }
    // The node at `index` (0-based) in start order.
    DepNode node(int64_t index) const;

private:
    friend class DependencyCollector;
    friend CriticalPath critical_path(const DependencyGraph& g, int64_t from_ns, int64_t to_ns);
    int64_t first_at_least(const char* table, const char* column, int64_t rows, int64_t value) const;

    // Tables pos (the nodes; rowid = 1 + index) and edge (src, dst: pos
    // rowids; gap), numbered by source, then target.
    std::unique_ptr<SqliteDb> db_;
    mutable std::unique_ptr<SqliteStmt> read_node_;  // on db_, so declared after it
    std::shared_ptr<DepStrings> strings_;
    int64_t nodes_ = 0, edges_ = 0;
    int64_t edge_rows_ = 0;  // edge's rows: the edges and the backward rows
};

// The longest chain among the nodes that start in [from_ns, to_ns) and the
// edges between them, each step's time clipped at to_ns (INT64_MIN,
// INT64_MAX: the whole profile).  Only nodes joined by an edge make a chain;
// of equally long ones, the one ending first, and into each step the
// earliest source.
CriticalPath critical_path(const DependencyGraph& g, int64_t from_ns, int64_t to_ns);

}  // namespace nx
