// Regions (common/profile/regions.h): windows as users write them, layers
// and iterations from a layer summary, and per-region metrics and findings
// from hand-made events; every expected figure is worked out beside it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/profile/kernel_regions.h"
#include "common/profile/regions.h"
#include "test/unit/test_support.h"

namespace {

using nx::Engine;
using nx::EventType;

nx::Region region(std::string name, int64_t start, int64_t end, std::string kind = "layer") {
    nx::Region r;
    r.kind = std::move(kind);
    r.name = std::move(name);
    r.start_ns = start;
    r.end_ns = end;
    return r;
}

const nx::RegionResult* find(const std::vector<nx::RegionResult>& rs, const std::string& name) {
    for (const nx::RegionResult& r : rs)
        if (r.region.name == name) return &r;
    return nullptr;
}

}  // namespace

TEST(Window, NanosecondsAndPercentOfTheProfile) {
    nx::WindowSpec w;
    ASSERT_FALSE(nx::parse_window("1000:2500", w));
    EXPECT_EQ(w.name, "window 1000:2500");
    nx::Region r = nx::resolve_window(w, 500, 10500);
    EXPECT_EQ(r.start_ns, 1500);  // offsets from the profile's start
    EXPECT_EQ(r.end_ns, 3000);
    ASSERT_FALSE(nx::parse_window("tail=90%:100%", w));
    EXPECT_EQ(w.name, "tail");
    r = nx::resolve_window(w, 500, 10500);
    EXPECT_EQ(r.start_ns, 9500);
    EXPECT_EQ(r.end_ns, 10500);
    EXPECT_EQ(r.kind, "window");
}

TEST(Window, BadSpecsSayWhy) {
    nx::WindowSpec w;
    EXPECT_EQ(nx::parse_window("1000", w).value_or(""), "expected FROM:TO or NAME=FROM:TO, got '1000'");
    EXPECT_EQ(nx::parse_window("a:b", w).value_or(""), "window 'a' is not a time (ns from the profile's start, or N%)");
    EXPECT_EQ(nx::parse_window("50%:120%", w).value_or(""), "window '120%' is past 100%");
    EXPECT_EQ(nx::parse_window("900:100", w).value_or(""), "window '900:100' ends before it starts");
    EXPECT_EQ(nx::parse_window("=1:2", w).value_or(""), "window '=1:2' has an empty name");
}

TEST(CarriedLayers, RecurringNamesAreIterationsAndPathsNest) {
    std::string carried = R"({"layers":[{"name":"/sg","start_ns":0,"end_ns":100},)"
                          R"({"name":"/sg/body","start_ns":10,"end_ns":40},)"
                          R"({"name":"/sg/body","start_ns":50,"end_ns":90},)"
                          R"({"name":"bad","start_ns":5}]})";
    auto rs = nx::carried_layer_regions(carried);
    nx::assign_parents(rs);
    ASSERT_EQ(rs.size(), 3u);
    EXPECT_EQ(rs[0].kind, "layer");
    EXPECT_EQ(rs[1].name, "/sg/body #1");
    EXPECT_EQ(rs[1].kind, "iteration");
    EXPECT_EQ(rs[2].name, "/sg/body #2");
    EXPECT_EQ(rs[2].parent, "/sg");
}

TEST(RegionMetrics, EventsCountWhereTheyStartClippedAtTheRegionEnd) {
    // Regions A [0, 100) and B [100, 200).  A vector instruction [80, 130)
    // starts in A: A gets 20 ns of it, B none.  A second one [150, 160) is B's.
    nx::ProfileInfo info;
    nx::RegionMetrics rm({region("A", 0, 100), region("B", 100, 200)}, info);
    rm.add(nx_test::make_event(EventType::instruction, Engine::vector, {}, 80, 50, "ADD"));
    rm.add(nx_test::make_event(EventType::instruction, Engine::vector, {}, 150, 10, "ADD"));
    auto rs = rm.finish(nullptr);
    const nx::RegionResult* a = find(rs, "A");
    const nx::RegionResult* b = find(rs, "B");
    ASSERT_TRUE(a && b);
    EXPECT_NEAR(a->summary.find("vector_engine_active_time")->value, 20e-9, 1e-15);
    EXPECT_NEAR(a->summary.find("vector_engine_active_time_percent")->value, 20, 1e-9);  // of A's 100 ns
    EXPECT_EQ(a->summary.find("vector_engine_instruction_count")->value, 1);
    EXPECT_NEAR(b->summary.find("vector_engine_active_time")->value, 10e-9, 1e-15);
    EXPECT_NEAR(b->summary.find("total_time")->value, 100e-9, 1e-15);
}

TEST(RegionMetrics, ProfilerBusyIntervalsAreClippedToEveryRegionTheyOverlap) {
    // A profiler tensor interval [50, 250) against A [0, 100), B [100, 200):
    // A gets [50, 100) = 50 ns, B all 100 ns.
    nx::ProfileInfo info;
    nx::RegionMetrics rm({region("A", 0, 100), region("B", 100, 200)}, info);
    rm.add(nx_test::make_event(EventType::active, Engine::tensor, "tensor active", 50, 200));
    auto rs = rm.finish(nullptr);
    EXPECT_NEAR(find(rs, "A")->summary.find("tensor_engine_active_time_percent")->value, 50, 1e-9);
    EXPECT_NEAR(find(rs, "B")->summary.find("tensor_engine_active_time_percent")->value, 100, 1e-9);
}

TEST(RegionMetrics, NestedRegionsBothSeeAnEventAndFindingsNameTheirRegion) {
    // Outer [0, 1000) holds inner [0, 100); a 10 ns TensorMatrix instruction
    // at 0: 10% of inner (under 50: tensor_engine_idle), 1% of outer.
    nx::ProfileInfo info;
    nx::RegionMetrics rm({region("outer", 0, 1000), region("outer/inner", 0, 100)}, info);
    rm.add(nx_test::make_event(EventType::instruction, Engine::tensor_matrix, {}, 0, 10, "MATMUL"));
    nx::RuleThresholds t;
    ASSERT_FALSE(t.set("tensor_engine_idle.threshold=5"));
    auto rs = rm.finish(&t);
    const nx::RegionResult* inner = find(rs, "outer/inner");
    const nx::RegionResult* outer = find(rs, "outer");
    ASSERT_TRUE(inner && outer);
    EXPECT_NEAR(inner->summary.find("tensor_engine_active_time_percent")->value, 10, 1e-9);
    EXPECT_NEAR(outer->summary.find("tensor_engine_active_time_percent")->value, 1, 1e-9);
    // At threshold 5, only the outer region (1%) is idle.
    bool outer_idle = false, inner_idle = false;
    for (const nx::Finding& f : outer->findings)
        if (f.rule == "tensor_engine_idle") {
            outer_idle = true;
            EXPECT_EQ(f.region, "outer");
            EXPECT_EQ(f.start_ns, 0);
            EXPECT_EQ(f.end_ns, 1000);
            EXPECT_EQ(f.threshold, 5);
        }
    for (const nx::Finding& f : inner->findings) inner_idle |= f.rule == "tensor_engine_idle";
    EXPECT_TRUE(outer_idle);
    EXPECT_FALSE(inner_idle);
}

TEST(RegionMetrics, EventsOutsideEveryRegionAreIgnored) {
    nx::ProfileInfo info;
    nx::RegionMetrics rm({region("A", 100, 200)}, info);
    rm.add(nx_test::make_event(EventType::instruction, Engine::vector, {}, 10, 50, "ADD"));
    rm.add(nx_test::make_event(EventType::instruction, Engine::vector, {}, 300, 50, "ADD"));
    auto rs = rm.finish(nullptr);
    ASSERT_EQ(rs.size(), 1u);
    EXPECT_EQ(rs[0].summary.find("vector_engine_active_time"), nullptr);
}

TEST(CollectiveRegions, EachCollectiveAndTheComputeBetweenThem) {
    // Two AllReduces and an AllGather; the AllGather overlaps the first
    // AllReduce's end, so no phase between them.
    std::vector<nx::Region> rs = nx::collective_regions({{"AllReduce", 5000, 6000},
                                                         {"AllReduce", 1000, 2000},
                                                         {"AllGather", 1800, 2500},
                                                         {"Broken", 7000, 7000}});
    ASSERT_EQ(rs.size(), 4u);
    auto is = [](const nx::Region& r, const char* kind, const char* name, int64_t start, int64_t end) {
        return r.kind == kind && r.name == name && r.parent.empty() && r.start_ns == start && r.end_ns == end;
    };
    EXPECT_TRUE(is(rs[0], "collective", "AllReduce #1", 1000, 2000));
    EXPECT_TRUE(is(rs[1], "collective", "AllGather", 1800, 2500));
    // From the latest end so far (the AllGather's 2500) to the next start.
    EXPECT_TRUE(is(rs[2], "collective_phase", "phase 1", 2500, 5000));
    EXPECT_TRUE(is(rs[3], "collective", "AllReduce #2", 5000, 6000));
    EXPECT_TRUE(nx::collective_regions({}).empty());
}

TEST(KernelRegions, FramesAndIterationsSpanTheirInstructionsAndThoseBelow) {
    nx::KernelRegions k;
    const int64_t any = nx::KernelRegions::kAnyCore;
    k.stack_frame(any, 1, "kern", std::nullopt);
    k.stack_frame(any, 2, "tile", 1);
    k.stack_frame(any, 3, "tile", 1);  // a second call site of one function
    k.stack_frame(any, 4, "", 1);      // no function name: named by its frame
    k.iteration_variable(any, 10, "i", 0, std::nullopt);
    k.iteration_variable(any, 11, "j", 1, 10);
    k.kernel_instruction(any, "a", 2, 11);
    k.kernel_instruction(any, "b", 3, std::nullopt);
    k.kernel_instruction(any, "c", 4, 10);
    k.kernel_instruction(any, "none", std::nullopt, std::nullopt);  // placed nowhere: ignored
    ASSERT_FALSE(k.empty());
    k.instruction(0, "a", 100, 300);
    k.instruction(1, "b", 500, 700);  // rows without a core apply to every core
    k.instruction(0, "c", 800, 900);
    k.instruction(0, "unknown", 0, 5000);
    std::vector<nx::Region> rs = k.finish();
    ASSERT_EQ(rs.size(), 6u);
    auto is = [](const nx::Region& r, const char* kind, const char* name, const char* parent, int64_t start, int64_t end) {
        return r.kind == kind && r.name == name && r.parent == parent && r.start_ns == start && r.end_ns == end;
    };
    EXPECT_TRUE(is(rs[0], "kernel", "kern", "", 100, 900));
    EXPECT_TRUE(is(rs[1], "kernel", "tile #1", "kern", 100, 300));
    EXPECT_TRUE(is(rs[2], "kernel", "tile #2", "kern", 500, 700));
    EXPECT_TRUE(is(rs[3], "kernel", "frame 4", "kern", 800, 900));
    // i=0 holds its own instruction (c) and j=1's (a).
    EXPECT_TRUE(is(rs[4], "iteration", "i=0", "", 100, 900));
    EXPECT_TRUE(is(rs[5], "iteration", "i=0/j=1", "i=0", 100, 300));
}

TEST(KernelRegions, CoresKeepTheirOwnRowsAndParentCyclesEnd) {
    nx::KernelRegions k;
    // Frame 1 means another function on each core; 5 and 6 call each other.
    k.stack_frame(0, 1, "f0", std::nullopt);
    k.stack_frame(1, 1, "f1", std::nullopt);
    k.stack_frame(0, 5, "x", 6);
    k.stack_frame(0, 6, "y", 5);
    k.kernel_instruction(0, "a", 1, std::nullopt);
    k.kernel_instruction(1, "a", 1, std::nullopt);
    k.kernel_instruction(0, "loop", 5, std::nullopt);
    k.instruction(0, "a", 0, 10);
    k.instruction(1, "a", 20, 30);
    k.instruction(2, "a", 40, 50);  // no row for core 2
    k.instruction(0, "loop", 60, 70);
    std::vector<nx::Region> rs = k.finish();
    ASSERT_EQ(rs.size(), 4u);
    EXPECT_EQ(rs[0].name, "f0");
    EXPECT_EQ(rs[0].end_ns, 10);
    EXPECT_EQ(rs[1].name, "f1");
    EXPECT_EQ(rs[1].start_ns, 20);
    EXPECT_EQ(rs[2].name, "x");
    EXPECT_EQ(rs[2].parent, "y");
    EXPECT_EQ(rs[3].parent, "x");
    EXPECT_TRUE(nx::KernelRegions().empty());
    EXPECT_TRUE(nx::KernelRegions().finish().empty());
}
