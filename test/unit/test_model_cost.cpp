// The cost model's hand-computed expectations: tile counts, one matmul pass,
// one DMA transfer, SBUF planning.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/model/cost_model.h"
#include "common/model/fitted.h"
#include "common/model/matmul.h"
#include "common/model/sbuf_plan.h"
#include "common/model/scheduler.h"
#include "test/unit/test_model_support.h"

namespace nx::model {
namespace {

using testing::Recorder;

const Target& trn1() { return *find_target("trn1"); }
const Target& trn2() { return *find_target("trn2"); }

TEST(ModelCost, TileCountsAreTheCeilingOfEachDimensionOverItsTileSize) {
    TileCounts t = matmul_tiles(129, 257, 513);
    EXPECT_EQ(t.M, 2);
    EXPECT_EQ(t.K, 3);
    EXPECT_EQ(t.N, 2);
    EXPECT_EQ(t.total, 12);
    TileCounts tutorial = matmul_tiles(4096, 8192, 8192);
    EXPECT_EQ(tutorial.M, 32);
    EXPECT_EQ(tutorial.K, 64);
    EXPECT_EQ(tutorial.N, 16);
    EXPECT_EQ(tutorial.total, 32768);
}

TEST(ModelCost, SingleTileMatmulTakesOneMovingColumnPerTensorCycle) {
    CostModel cost(trn1());
    // 512 moving columns at 2.8 GHz; short moving sides pay the 64-cycle minimum.
    EXPECT_DOUBLE_EQ(cost.multiply_moving_ns(512, DType::bf16), 512 / 2.8);
    EXPECT_DOUBLE_EQ(cost.multiply_moving_ns(10, DType::bf16), 64 / 2.8);
    EXPECT_DOUBLE_EQ(cost.multiply_moving_ns(512, DType::fp32), 4 * 512 / 2.8);
    // 2 x 128 x 128 x 512 FLOPs in 512 cycles is the documented 91.75 TFLOPS peak.
    EXPECT_NEAR(2.0 * 128 * 128 * 512 / (cost.multiply_moving_ns(512, DType::bf16) * 1e-9), trn1().peak_flops_bf16, 1e6);
}

TEST(ModelCost, LoadStationaryOf128ColumnsTakes32Cycles) {
    CostModel cost(trn1());
    EXPECT_DOUBLE_EQ(cost.load_stationary_ns(128, DType::bf16), 32 / 2.8);
}

TEST(ModelCost, VectorInstructionCostsOneCyclePerElementPerInputPlusStaticOverhead) {
    CostModel cost(trn1());
    EXPECT_DOUBLE_EQ(cost.vector_ns(512, 1), (512 + 100) / 1.12);
    EXPECT_DOUBLE_EQ(cost.vector_ns(512, 2), (1024 + 100) / 1.12);
}

TEST(ModelCost, TensorTensorReadsAPsumInputBesideItsSbufInput) {
    // The Trn1 tensor_tensor cost table: N cycles with one input in PSUM, 2N
    // with both in SBUF (plus VectorE's static overhead either way).
    CostModel cost(trn1());
    EXPECT_DOUBLE_EQ(cost.tensor_tensor_ns(384, TensorTensorInputs::one_in_psum), (384 + 100) / 1.12);
    EXPECT_DOUBLE_EQ(cost.tensor_tensor_ns(384, TensorTensorInputs::both_sbuf), (768 + 100) / 1.12);
}

TEST(ModelCost, SmallScalarInstructionsTakeTheMeasuredIssueInterval) {
    CostModel cost(trn1());
    EXPECT_DOUBLE_EQ(cost.scalar_ns(1), 189);
    EXPECT_DOUBLE_EQ(cost.scalar_ns(2048), (2048 + 60) / 1.4);
}

TEST(ModelCost, Fp8PacksTwoKRowsPerPartitionOnTrn2AndNoneOnTrn1) {
    EXPECT_EQ(CostModel(trn1()).k_pack(DType::fp8), 1);
    EXPECT_EQ(CostModel(trn2()).k_pack(DType::fp8), 2);
    EXPECT_EQ(CostModel(trn2()).k_pack(DType::bf16), 1);
    EXPECT_EQ(CostModel(trn2()).k_tile(DType::fp8), 256);
}

TEST(ModelCost, DmaOfOneTransferIsTriggerAndIssuePlusFixedLatencyPlusBytesOverSustainedBandwidth) {
    CostModel cost(trn1());
    Recorder rec;
    Scheduler s(cost, &rec);
    Transfer t;
    t.partitions = 128;
    t.row_bytes = 2048;  // 256 KiB over all 16 engines, a strided tile
    Time done = s.dma(t);
    s.finish();
    // One static access at the Sync clock plus the fitted descriptor issue.
    const double trigger = 60 / 1.4 + fitted_params().dma_issue_ns;
    const double hbm_bytes_per_ns = 820e9 / 2 * fitted_params().hbm_strided / 1e9;  // per-core HBM peak x fitted fraction
    EXPECT_NEAR(done, trigger + 1300 + 262144 / hbm_bytes_per_ns, 1e-6);
    int pieces = 0;
    for (const auto& e : rec.events)
        if (e.type == EventType::dma) {
            ++pieces;
            EXPECT_EQ(e.bytes, 8 * 2048);
            EXPECT_EQ(e.kind, DmaKind::hbm_read);
            EXPECT_EQ(e.track.rfind("qSyncIO", 0), 0u);
        }
    EXPECT_EQ(pieces, 16);
}

TEST(ModelCost, AContiguousTransferMovesAtTheContiguousRate) {
    CostModel cost(trn1());
    Scheduler strided(cost, nullptr), contiguous(cost, nullptr);
    Transfer t;
    t.partitions = 128;
    t.row_bytes = 8192;  // 1 MiB: HBM-bound
    const Time a = strided.dma(t);
    t.strided = false;
    const Time b = contiguous.dma(t);
    const double fixed = 60 / 1.4 + fitted_params().dma_issue_ns + 1300;
    EXPECT_NEAR(a - fixed, 1048576 / cost.hbm_bytes_per_ns(true), 1e-6);
    EXPECT_NEAR(b - fixed, 1048576 / cost.hbm_bytes_per_ns(false), 1e-6);
    EXPECT_NE(a, b);
}

TEST(ModelCost, Trn2IsALogicalCoreOfTwoPhysicalCoresEachWithItsOwnDmaEngines) {
    // LNC=2: twice a physical core's share of HBM for the logical core; each
    // physical core keeps its 16 DMA engines of 8 partitions (the real trn2
    // capture: the kernel's packets on engines 64-79 only), and a transfer's
    // descriptors come from NC-v3's descriptor generation engine, ~600 ns.
    EXPECT_EQ(trn2().lnc, 2);
    EXPECT_EQ(trn1().lnc, 1);
    EXPECT_EQ(trn1().max_lnc, 1);
    EXPECT_DOUBLE_EQ(trn2().hbm_bytes_per_s_core(), 2.9e12 / 8 * 2);
    EXPECT_DOUBLE_EQ(trn2().hbm_bytes_per_s_core(1), 2.9e12 / 8);
    EXPECT_DOUBLE_EQ(trn1().hbm_bytes_per_s_core(), 820e9 / 2);
    const CostModel one_lane(trn2()), two_lanes(trn2(), fitted_params(), Placement{2, 2}), lnc1(trn2(), fitted_params(), Placement{1, 1});
    EXPECT_EQ(one_lane.dma_engines(), 16);
    EXPECT_EQ(one_lane.partitions_per_dma_engine(), 8);
    EXPECT_DOUBLE_EQ(one_lane.dma_issue_ns(), kDgeIssueNs);
    EXPECT_DOUBLE_EQ(CostModel(trn1()).dma_issue_ns(), fitted_params().dma_issue_ns);
    // One lane has the logical core's HBM; two lanes half each; LNC=1 half the chip's share of two.
    EXPECT_DOUBLE_EQ(two_lanes.hbm_bytes_per_ns(), one_lane.hbm_bytes_per_ns() / 2);
    EXPECT_DOUBLE_EQ(lnc1.hbm_bytes_per_ns(), one_lane.hbm_bytes_per_ns() / 2);
    EXPECT_THROW(CostModel(trn2(), fitted_params(), Placement{1, 2}), std::logic_error);
    // A transfer of physical core 1 goes to its own queues, which say so.
    Recorder rec;
    Scheduler s(two_lanes, &rec);
    Transfer t;
    t.partitions = 128;
    t.row_bytes = 1024;
    s.select_core(1);
    s.dma(t);
    s.finish();
    int pieces = 0;
    for (const auto& e : rec.events) {
        if (e.type != EventType::dma) continue;
        ++pieces;
        EXPECT_EQ(e.pcore, 1);
        EXPECT_EQ(e.track.rfind("pcore1/qSyncIO", 0), 0u) << e.track;
    }
    EXPECT_EQ(pieces, 16);
}

TEST(ModelCost, SmallTransferUsesOnlyTheEnginesOfItsPartitionsAndIsEngineBound) {
    CostModel cost(trn1());
    Recorder rec;
    Scheduler s(cost, &rec);
    Transfer t;
    t.partitions = 4;
    t.row_bytes = 4096;
    Time done = s.dma(t);
    s.finish();
    // One engine moves 4 rows at 17 B/ns, each with a 256-byte descriptor cost.
    EXPECT_NEAR(done, 60 / 1.4 + fitted_params().dma_issue_ns + 1300 + 4 * (4096 + 256) / 17.0, 1e-6);
    int pieces = 0;
    for (const auto& e : rec.events)
        if (e.type == EventType::dma) {
            ++pieces;
            EXPECT_EQ(e.track, "qSyncIO0");
        }
    EXPECT_EQ(pieces, 1);
}

TEST(ModelCost, AKernelPaysItsFittedFixedCostAsPreambleAndDrainEvents) {
    for (const char* name : {"trn1", "trn2"}) {
        CostModel cost(*find_target(name));
        const int cores = cost.placement().lnc;
        Recorder rec;
        Scheduler s(cost, &rec);
        const Time start = s.begin_kernel(0);
        EXPECT_DOUBLE_EQ(start, cost.kernel_preamble_ns()) << name;
        const Time end = s.end_kernel();
        s.finish();
        EXPECT_NEAR(end, cost.kernel_fixed_ns(), 1e-6) << name;
        EXPECT_DOUBLE_EQ(cost.kernel_fixed_ns(), std::string(name) == "trn1" ? fitted_params().fixed_ns_v2 : fitted_params().fixed_ns_v3);
        std::map<std::string, int> opcodes;
        std::map<int, int> per_core;
        for (const auto& e : rec.events) {
            ++opcodes[e.opcode];
            ++per_core[e.pcore];
        }
        // The frame of the real-samples capture (a 128x128x136 dot on inf2),
        // whose counts are in the comments: five engines (Scalar, Vector,
        // GpSimd, PE, Sync) in two barrier rounds before the kernel and one
        // after (DRAIN 39 there, 7 per engine here: one fewer DRAIN per
        // round), three ordering-mode sets each (15), one semaphore range
        // clear, NOTIFY and COMPARE_BRANCH each plus GpSimdE's run-state
        // check (COMPARE_BRANCH 6), four of its five 4-byte WRITEs (the
        // fifth is the trigger of the dot's static DMA, which a kernel
        // without one has not), two NOPs, GpSimdE's TENSOR_LOADs (2) and
        // TENSOR_STORE (1); ScalarE's table load.  Under LNC=2 every physical
        // core runs it, and their PE rows meet once: one more WRITE each.
        EXPECT_EQ(opcodes["DRAIN"], 35 * cores) << name;
        EXPECT_EQ(opcodes["SET_ORDERING_MODE"], 15 * cores) << name;
        EXPECT_EQ(opcodes["ACT_TABLE_LOAD"], 1 * cores) << name;
        EXPECT_EQ(opcodes["EVENT_SEMAPHORE_RANGE_CLEAR"], 5 * cores) << name;
        EXPECT_EQ(opcodes["NOTIFY"], 5 * cores) << name;
        EXPECT_EQ(opcodes["COMPARE_BRANCH"], 6 * cores) << name;
        EXPECT_EQ(opcodes["WRITE"], cores == 1 ? 4 : 5 * cores) << name;
        EXPECT_EQ(opcodes["NOP"], 2 * cores) << name;
        EXPECT_EQ(opcodes["TENSOR_LOAD"], 2 * cores) << name;
        EXPECT_EQ(opcodes["TENSOR_STORE"], 1 * cores) << name;
        EXPECT_GE(opcodes["EVENT_SEMAPHORE"], 5 * cores) << name;
        // pcore is said only when there are two.
        if (cores == 1) EXPECT_EQ(per_core.begin()->first, -1) << name;
        else EXPECT_EQ(per_core[0], per_core[1]) << name;
    }
}

TEST(ModelCost, SbufPlanDoubleBuffersWhatFitsAndRefusesWhatDoesNot) {
    SbufPlan plan(192.0 * 1024);
    int a = plan.add("a", 64 * 1024, 1, 2);
    int b = plan.add("b", 64 * 1024, 1, 2);
    ASSERT_TRUE(plan.settle());
    EXPECT_EQ(plan.generations(a), 2);
    EXPECT_EQ(plan.generations(b), 1);
    EXPECT_EQ(plan.maximal_assignments().size(), 2u);  // a doubled, or b doubled

    SbufPlan tight(192.0 * 1024);
    tight.add("huge", 200 * 1024, 1, 1);
    EXPECT_FALSE(tight.settle());
    EXPECT_NE(tight.shortfall().find("needs 200.0 KiB"), std::string::npos);
}

}  // namespace
}  // namespace nx::model
