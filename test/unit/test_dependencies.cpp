// The dependency graph and its critical path (common/profile/dependencies.h)
// and the bounds made from them (bounds.h), on the Flow rows of the deps
// fixture (test/fixtures/parquet/make.mjs) worked out by hand.
#include <gtest/gtest.h>

#include <climits>
#include <string>

#include "common/profile/bounds.h"
#include "common/profile/dependencies.h"

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
    EXPECT_EQ(g.nodes.size(), 6u);
    EXPECT_EQ(g.edges.size(), 5u);
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
    ASSERT_EQ(g.nodes.size(), 3u);
    EXPECT_EQ(g.nodes[0].id, 0);
    EXPECT_EQ(g.nodes[1].id, 1);
    EXPECT_EQ(g.nodes[1].name, "TENSOR_TENSOR");
    EXPECT_EQ(g.nodes[1].start_ns, 300);
    EXPECT_EQ(g.nodes[2].id, 2);
    EXPECT_EQ(g.edges.size(), 2u);
}

TEST(Dependencies, CriticalPathOfTheWholeProfile) {
    DependencyGraph g = deps_graph();
    CriticalPath p = critical_path(g, INT64_MIN, INT64_MAX);
    ASSERT_EQ(p.steps.size(), 4u);
    const char* tables[] = {"instruction", "dma_block", "instruction", "dma_block"};
    int64_t ids[] = {0, 0, 2, 1}, gaps[] = {50, 50, 100, 0}, cum[] = {100, 1150, 1700, 2400};
    const char* where[] = {"sync", "qSyncIO0", "tensor_matrix", "qSyncIO1"};
    for (size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(p.steps[k].node->table, tables[k]) << k;
        EXPECT_EQ(p.steps[k].node->id, ids[k]) << k;
        EXPECT_EQ(p.steps[k].node->where, where[k]) << k;
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
