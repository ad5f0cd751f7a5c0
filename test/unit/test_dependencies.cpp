// The dependency graph and its critical path (common/profile/dependencies.h)
// and the bounds made from them (bounds.h), on the Flow rows of the deps
// fixture (test/fixtures/parquet/make.mjs) worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <map>
#include <random>
#include <tuple>
#include <vector>
#include <string>

#include "common/profile/bounds.h"
#include "common/profile/dependencies.h"
#include "common/store/dependency_graph.h"

namespace nx {
namespace {

Event instruction(int64_t id, Engine engine, const char* opcode, int64_t ts, int64_t dur, std::string& args) {
    args = "{\"pc\":16,\"id\":" + std::to_string(id) + ",\"bir_id\":\"99\"}";
    Event e;
    e.type = EventType::instruction;
    e.engine = engine;
    e.opcode = opcode;
    e.ts_ns = ts;
    e.dur_ns = dur;
    e.args_json = args;
    return e;
}

std::string flow(const char* in_table, int in_id, const char* out_table, int out_id, int gap) {
    return std::string("{\"in_id\":") + std::to_string(in_id) + ",\"out_id\":" + std::to_string(out_id) +
           ",\"in_table\":\"" + in_table + "\",\"out_table\":\"" + out_table +
           "\",\"dependency_type\":\"FLOW_DEPENDENCE\",\"gap_time\":" + std::to_string(gap) + "}";
}

DependencyGraph deps_graph() {
    DependencyCollector c;
    for (const std::string& row :
         {flow("instruction", 0, "dma_block", 0, 50), flow("dma_block", 0, "instruction", 2, 50),
          flow("instruction", 1, "instruction", 2, 800), flow("instruction", 2, "dma_block", 1, 100),
          flow("instruction", 2, "instruction", 3, 50), flow("semaphore", 7, "instruction", 3, 0),
          flow("instruction", 2, "instruction", 1, 0), flow("instruction", 0, "dma_block", 9, 10)})
        c.flow_row(row);
    EXPECT_TRUE(c.wants_instructions());
    std::string args;
    c.instruction(instruction(0, Engine::sync, "WRITE", 0, 100, args));
    c.instruction(instruction(1, Engine::vector, "TENSOR_TENSOR", 100, 300, args));
    c.instruction(instruction(2, Engine::tensor_matrix, "MATMUL", 1200, 500, args));
    c.instruction(instruction(3, Engine::scalar, "ACTIVATE", 1750, 200, args));
    c.instruction(instruction(4, Engine::gpsimd, "IOTA", 2300, 200, args));  // in no Flow row: not kept
    c.dma_block_row(R"({"start_ts":150,"end_ts":1150,"id":0,"queue_name":"qSyncIO0","variable":"input0"})");
    c.dma_block_row(R"({"start_ts":1800,"duration_ns":600,"id":1,"queue_name":"qSyncIO1","variable":"output0"})");
    c.dma_block_row(R"({"start_ts":5000,"end_ts":5100,"id":5,"queue_name":"qOther"})");  // in no Flow row
    return c.finish();
}

TEST(Dependencies, GraphKeepsTheNamedNodesAndCountsWhatItLeavesOut) {
    DependencyGraph g = deps_graph();
    EXPECT_EQ(g.flow_rows, 8);
    EXPECT_EQ(g.unresolved, 2);  // the semaphore row, dma_block 9
    EXPECT_EQ(g.backward, 1);    // 2 -> 1
    EXPECT_EQ(g.node_count(), 6);
    EXPECT_EQ(g.edge_count(), 5);
}

// An id given twice (a split table read twice, a repeated row) is one node:
// its last row, among the others in start order.
TEST(Dependencies, ARepeatedIdIsOneNodeItsLastRow) {
    DependencyCollector c;
    for (const std::string& row : {flow("instruction", 0, "instruction", 1, 5), flow("instruction", 1, "instruction", 2, 5)})
        c.flow_row(row);
    std::string a0, a1, a2, a3;
    c.instruction(instruction(1, Engine::vector, "OLD", 900, 10, a0));
    c.instruction(instruction(0, Engine::sync, "WRITE", 0, 100, a1));
    c.instruction(instruction(2, Engine::scalar, "ACTIVATE", 700, 50, a2));
    c.instruction(instruction(1, Engine::vector, "TENSOR_TENSOR", 300, 200, a3));
    DependencyGraph g = c.finish();
    ASSERT_EQ(g.node_count(), 3);
    EXPECT_EQ(g.node(0).id, 0);
    EXPECT_EQ(g.node(1).id, 1);
    EXPECT_EQ(g.node(1).name, "TENSOR_TENSOR");
    EXPECT_EQ(g.node(1).start_ns, 300);
    EXPECT_EQ(g.node(2).id, 2);
    EXPECT_EQ(g.edge_count(), 2);
}

TEST(Dependencies, CriticalPathOfTheWholeProfile) {
    DependencyGraph g = deps_graph();
    CriticalPath p = critical_path(g, INT64_MIN, INT64_MAX);
    ASSERT_EQ(p.steps.size(), 4u);
    const char* tables[] = {"instruction", "dma_block", "instruction", "dma_block"};
    int64_t ids[] = {0, 0, 2, 1}, gaps[] = {50, 50, 100, 0}, cum[] = {100, 1150, 1700, 2400};
    const char* where[] = {"sync", "qSyncIO0", "tensor_matrix", "qSyncIO1"};
    for (size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(p.steps[k].node.table, tables[k]) << k;
        EXPECT_EQ(p.steps[k].node.id, ids[k]) << k;
        EXPECT_EQ(p.steps[k].node.where, where[k]) << k;
        EXPECT_EQ(p.steps[k].gap_to_next_ns, gaps[k]) << k;
        EXPECT_EQ(p.steps[k].cumulative_ns, cum[k]) << k;
    }
    EXPECT_EQ(p.length_ns, 2400);
    EXPECT_EQ(p.work_ns, 2200);
    EXPECT_EQ(p.where, "qSyncIO0");
    EXPECT_EQ(p.where_ns, 1000);
}

TEST(Dependencies, CriticalPathOfARangeClipsAtItsEnd) {
    DependencyGraph g = deps_graph();
    CriticalPath load = critical_path(g, 0, 400);
    ASSERT_EQ(load.steps.size(), 2u);
    EXPECT_EQ(load.steps[1].dur_ns, 250);
    EXPECT_EQ(load.length_ns, 400);
    EXPECT_EQ(load.where, "qSyncIO0");
    CriticalPath compute = critical_path(g, 1200, 2500);
    ASSERT_EQ(compute.steps.size(), 2u);
    EXPECT_EQ(compute.length_ns, 1200);  // MATMUL, 100, qSyncIO1; the ACTIVATE branch is 750
    EXPECT_EQ(compute.where, "qSyncIO1");
    // A range with nodes but no edge between them has no chain.
    EXPECT_TRUE(critical_path(g, 1700, 2500).steps.empty());
}

TEST(Dependencies, AGapTheRowDoesNotGiveIsTheTimeBetweenTheSteps) {
    DependencyCollector c;
    c.flow_row(R"({"in_id":1,"out_id":2,"in_table":"Instruction","out_table":"instruction"})");
    std::string a1, a2;
    c.instruction(instruction(1, Engine::vector, "A", 0, 100, a1));
    c.instruction(instruction(2, Engine::scalar, "B", 130, 20, a2));
    CriticalPath p = critical_path(c.finish(), INT64_MIN, INT64_MAX);
    ASSERT_EQ(p.steps.size(), 2u);
    EXPECT_EQ(p.steps[0].gap_to_next_ns, 30);
    EXPECT_EQ(p.length_ns, 150);
}

// Two chains of one length into a step: the earlier source is its
// predecessor; two chains of one length overall: the one ending first.
TEST(Dependencies, TiesKeepTheEarliestSourceAndTheFirstEnd) {
    DependencyCollector c;
    for (const std::string& row :
         {flow("instruction", 1, "instruction", 3, 10), flow("instruction", 2, "instruction", 3, 10),
          flow("instruction", 4, "instruction", 5, 0), flow("instruction", 6, "instruction", 7, 0)})
        c.flow_row(row);
    std::string a[7];
    c.instruction(instruction(1, Engine::vector, "A", 0, 100, a[0]));
    c.instruction(instruction(2, Engine::scalar, "B", 10, 100, a[1]));
    c.instruction(instruction(3, Engine::gpsimd, "C", 200, 50, a[2]));
    c.instruction(instruction(4, Engine::vector, "D", 1000, 80, a[3]));
    c.instruction(instruction(5, Engine::vector, "E", 1100, 80, a[4]));  // 4 -> 5: 160, as 1 -> 3
    c.instruction(instruction(6, Engine::vector, "F", 2000, 100, a[5]));
    c.instruction(instruction(7, Engine::vector, "G", 2100, 60, a[6]));  // 6 -> 7: 160 too, ends later
    CriticalPath p = critical_path(c.finish(), INT64_MIN, INT64_MAX);
    ASSERT_EQ(p.steps.size(), 2u);
    EXPECT_EQ(p.steps[0].node.id, 1);
    EXPECT_EQ(p.steps[1].node.id, 3);
    EXPECT_EQ(p.length_ns, 160);
}

// The definition in memory, as nx computed it before the graph moved to
// disk: every node and edge in vectors, the longest chain by dynamic
// programming in start order.  The sweep must give the same chain.
struct RefNode {
    int kind;  // 1 dma_block, 2 instruction (the tables' names' order)
    int64_t id, start, dur;
};
struct RefFlow {
    int in_kind, out_kind;  // 0: a table with no nodes
    int64_t in_id, out_id, gap;  // gap -1: none given
};

std::vector<std::pair<int, int64_t>> reference_path(std::vector<RefNode> given, const std::vector<RefFlow>& flows,
                                                    int64_t from_ns, int64_t to_ns, int64_t& length) {
    std::map<std::pair<int, int64_t>, RefNode> last;  // the last row of a node wins
    for (const RefNode& n : given) last[{n.kind, n.id}] = n;
    std::vector<RefNode> nodes;
    for (auto& [key, n] : last) nodes.push_back(n);
    std::sort(nodes.begin(), nodes.end(), [](const RefNode& a, const RefNode& b) {
        return std::tie(a.start, a.kind, a.id) < std::tie(b.start, b.kind, b.id);
    });
    std::map<std::pair<int, int64_t>, size_t> at;
    for (size_t i = 0; i < nodes.size(); ++i) at[{nodes[i].kind, nodes[i].id}] = i;
    std::vector<std::vector<std::pair<size_t, int64_t>>> in(nodes.size());  // (from, gap) by target
    for (const RefFlow& f : flows) {
        auto a = at.find({f.in_kind, f.in_id}), b = at.find({f.out_kind, f.out_id});
        if (a == at.end() || b == at.end() || b->second <= a->second) continue;
        const RefNode &x = nodes[a->second], &y = nodes[b->second];
        in[b->second].push_back({a->second, f.gap >= 0 ? f.gap : std::max<int64_t>(0, y.start - (x.start + x.dur))});
    }
    std::vector<int64_t> best(nodes.size(), 0), pred(nodes.size(), -1), pred_gap(nodes.size(), 0);
    int64_t end = -1;
    for (size_t v = 0; v < nodes.size(); ++v) {
        if (nodes[v].start < from_ns || nodes[v].start >= to_ns) continue;
        std::sort(in[v].begin(), in[v].end());
        int64_t longest = -1;
        for (auto [u, gap] : in[v])
            if (nodes[u].start >= from_ns && best[u] + gap > longest) {
                longest = best[u] + gap;
                pred[v] = static_cast<int64_t>(u);
                pred_gap[v] = gap;
            }
        int64_t dur = nodes[v].start + nodes[v].dur > to_ns ? to_ns - nodes[v].start : nodes[v].dur;
        best[v] = std::max<int64_t>(longest, 0) + dur;
        if (pred[v] >= 0 && (end < 0 || best[v] > best[static_cast<size_t>(end)])) end = static_cast<int64_t>(v);
    }
    std::vector<std::pair<int, int64_t>> path;
    length = end < 0 ? 0 : best[static_cast<size_t>(end)];
    for (int64_t v = end; v >= 0; v = pred[static_cast<size_t>(v)])
        path.insert(path.begin(), {nodes[static_cast<size_t>(v)].kind, nodes[static_cast<size_t>(v)].id});
    return path;
}

// Random graphs with what real ones have and worse: repeated ids, ties in
// start and length, rows to unknown tables and ids, backward rows, rows
// with no gap, and nodes no row names; whole and in ranges.
TEST(Dependencies, TheSweepOnDiskGivesTheChainOfTheDefinition) {
    std::mt19937_64 rng(20261126);
    for (int round = 0; round < 40; ++round) {
        int n = 2 + static_cast<int>(rng() % 300);
        std::vector<RefNode> nodes;
        for (int k = 0; k < n; ++k)
            nodes.push_back({1 + static_cast<int>(rng() % 2), static_cast<int64_t>(rng() % (n / 2 + 1)),
                             static_cast<int64_t>(rng() % 200) * 10, static_cast<int64_t>(rng() % 3) * 10});
        std::vector<RefFlow> flows;
        int f = static_cast<int>(rng() % (3 * n));
        for (int k = 0; k < f; ++k)
            flows.push_back({static_cast<int>(rng() % 7 == 0 ? 0 : 1 + rng() % 2), 1 + static_cast<int>(rng() % 2),
                             static_cast<int64_t>(rng() % (n / 2 + 3)), static_cast<int64_t>(rng() % (n / 2 + 3)),
                             rng() % 3 == 0 ? -1 : static_cast<int64_t>(rng() % 2) * 10});
        auto table = [](int kind) { return kind == 0 ? "semaphore" : kind == 1 ? "dma_block" : "instruction"; };
        DependencyCollector c;
        for (const RefFlow& r : flows)
            c.flow_row("{\"in_id\":" + std::to_string(r.in_id) + ",\"out_id\":" + std::to_string(r.out_id) +
                       ",\"in_table\":\"" + table(r.in_kind) + "\",\"out_table\":\"" + table(r.out_kind) + "\"" +
                       (r.gap >= 0 ? ",\"gap_time\":" + std::to_string(r.gap) : std::string()) + "}");
        std::string args;
        for (const RefNode& x : nodes) {
            if (x.kind == 2) {
                c.instruction(instruction(x.id, Engine::vector, "OP", x.start, x.dur, args));
            } else {
                c.dma_block_row("{\"start_ts\":" + std::to_string(x.start) + ",\"duration_ns\":" + std::to_string(x.dur) +
                                ",\"id\":" + std::to_string(x.id) + ",\"queue_name\":\"q\"}");
            }
        }
        // Nodes no row names are not in the reference's graph either: they join no edge.
        DependencyGraph g = c.finish();
        for (auto [from, to] : {std::pair<int64_t, int64_t>{INT64_MIN, INT64_MAX}, {500, 1500}, {0, 700}}) {
            int64_t want_length = 0;
            auto want = reference_path(nodes, flows, from, to, want_length);
            CriticalPath got = critical_path(g, from, to);
            ASSERT_EQ(got.steps.size(), want.size()) << "round " << round << " range " << from << ".." << to;
            for (size_t k = 0; k < want.size(); ++k) {
                EXPECT_EQ(got.steps[k].node.table, table(want[k].first)) << round << " step " << k;
                EXPECT_EQ(got.steps[k].node.id, want[k].second) << round << " step " << k;
            }
            EXPECT_EQ(got.length_ns, want_length) << round;
        }
    }
}

TEST(Bounds, HighestBoundAndWhatIsMissing) {
    ProfileSummary s;
    s.metrics = {{"total_time", 3e-6, true},   {"hbm_read_bytes", 262144, false},
                 {"hbm_write_bytes", 131072, false}, {"hardware_flops", 8388608, false},
                 {"peak_flops", 79e12, false}};
    CriticalPath p = critical_path(deps_graph(), INT64_MIN, INT64_MAX);
    Bounds b = compute_bounds(s, "trn2", &p, "unused");
    ASSERT_EQ(b.bounds.size(), 3u);
    EXPECT_NEAR(*b.bounds[0].ns, 393216 / 725e9 * 1e9, 1e-6);
    EXPECT_NEAR(*b.bounds[1].ns, 8388608 / 79e12 * 1e9, 1e-6);
    EXPECT_EQ(*b.bounds[2].ns, 2400);
    ASSERT_NE(b.top(), nullptr);
    EXPECT_EQ(b.top()->name, "dependency");
    EXPECT_DOUBLE_EQ(b.over_highest(), 1.25);
    EXPECT_EQ(b.critical_where, "qSyncIO0");

    Bounds none = compute_bounds(ProfileSummary{}, "", nullptr, "not in this profile: no dependency data");
    EXPECT_EQ(none.top(), nullptr);
    EXPECT_EQ(none.bounds[0].basis, "not in this profile: HBM bytes");
    EXPECT_EQ(none.bounds[1].basis, "not in this profile: the tensor engine's FLOPs");
    EXPECT_EQ(none.bounds[2].basis, "not in this profile: no dependency data");
    EXPECT_EQ(none.over_highest(), 0);
}

}  // namespace
}  // namespace nx
