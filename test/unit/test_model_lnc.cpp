// The model on a logical core of two physical cores (LNC=2) and with the MX
// formats of NeuronCore-v4: how work splits, what the cores duplicate, where
// they meet, what runs on the second core when a kernel does not shard, and
// what an MX matmul loads beside its data.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/model/core_balance.h"
#include "common/model/cost_model.h"
#include "common/model/sharding.h"
#include "common/model/sim.h"
#include "test/unit/test_model_support.h"

namespace nx::model {
namespace {

using testing::matmul_workload;
using testing::RecordedEvent;
using testing::Recorder;
using testing::run;

Recorder record(const Workload& w, SimResult* result = nullptr) {
    Recorder rec;
    SimResult r = simulate(w, workload_target(w), &rec);
    if (result) *result = r;
    return rec;
}

CoreBalance balance(const Workload& w, SimResult* result = nullptr) {
    CoreBalance b;
    SimResult r = simulate(w, workload_target(w), &b);
    b.end_profile();
    if (result) *result = r;
    return b;
}

using testing::elementwise_workload;

Workload on(Workload w, const char* target, int64_t lnc, const char* shard = "") {
    w.target = target;
    w.lnc = lnc;
    w.shard = shard;
    return w;
}

TEST(SimLnc, AShardedMatmulSplitsItsOutputOverBothPhysicalCores) {
    const Workload w = matmul_workload(4096, 4096, 4096, "", "bf16", "trn2");
    SimResult one, two;
    const CoreBalance b1 = balance(on(w, "trn2", 1), &one);
    const CoreBalance b2 = balance(on(w, "trn2", 2), &two);
    EXPECT_EQ(one.lanes, 1);
    EXPECT_EQ(two.lnc, 2);
    EXPECT_EQ(two.lanes, 2);
    EXPECT_EQ(two.floor_clamps, 0);
    // The same work, half on each core.
    EXPECT_DOUBLE_EQ(two.model_flops, one.model_flops);
    EXPECT_EQ(b2.core(0).matmuls + b2.core(1).matmuls, b1.core(0).matmuls);
    EXPECT_EQ(b2.core(0).matmuls, b2.core(1).matmuls);
    EXPECT_NEAR(b2.core(0).busy_ns[0], b2.core(1).busy_ns[0], 0.01 * b2.core(0).busy_ns[0]);
    // Two TensorEs make a compute-bound shape faster, but not twice: each
    // core has half the logical core's HBM and reads all of the operand the
    // split leaves whole.
    EXPECT_LT(two.latency_ns, 0.65 * one.latency_ns);
    EXPECT_GT(two.latency_ns, 0.5 * one.latency_ns);
}

TEST(SimLnc, EveryVariantShardsWithoutRaisingItsStartsPastTheFloor) {
    for (const char* v : {"naive", "hoisted", "blocked_free", "blocked_mnk"}) {
        SimResult r;
        Recorder rec = record(on(matmul_workload(1024, 1024, 2048, v, "bf16", "trn2"), "trn2", 2), &r);
        EXPECT_EQ(r.lanes, 2) << v;
        EXPECT_EQ(r.floor_clamps, 0) << v;
        std::map<int, int> per_core;
        for (const auto& e : rec.events)
            if (e.opcode == "MATMUL") ++per_core[e.pcore];
        EXPECT_EQ(per_core[0], per_core[1]) << v;
        // Events come out in time order, as a profile's do.
        for (size_t i = 1; i < rec.events.size(); ++i) ASSERT_LE(rec.events[i - 1].ts, rec.events[i].ts) << v;
    }
}

TEST(SimLnc, TheSplitReadsTheSmallerOperandTwiceAndCoversTheOutputOnce) {
    MatmulProblem p;
    p.M = 512;
    p.K = 1024;
    p.N = 3 * 512 + 100;  // four N tiles, the last partial
    std::vector<MatmulProblem> parts = shard_matmul(p, 2);
    ASSERT_EQ(parts.size(), 2u);  // M <= N: N splits, lhsT (M x K) is read by both
    EXPECT_EQ(parts[0].M, 512);
    EXPECT_EQ(parts[0].N, 1024);
    EXPECT_EQ(parts[1].N, 612);
    EXPECT_EQ(parts[1].n_tile0, 2);
    EXPECT_EQ(parts[1].whole_N, p.N);
    p.M = 8192;
    p.N = 512;
    parts = shard_matmul(p, 2);  // M > N: M splits
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(parts[0].M + parts[1].M, 8192);
    EXPECT_EQ(parts[1].m_tile0, 32);
    EXPECT_EQ(parts[1].layer_prefix, "matmul/pcore1");
    p.M = 128;
    p.N = 512;
    EXPECT_EQ(shard_matmul(p, 2).size(), 1u);  // one output tile: not split
    // And the workload of one output tile runs on one core of the two.
    SimResult r = run(on(matmul_workload(128, 4096, 512, "", "bf16", "trn2"), "trn2", 2));
    EXPECT_EQ(r.lanes, 1);
}

TEST(SimLnc, AKernelLaunchedWithoutAGridLeavesTheSecondCoreItsFrameOnly) {
    // As the real trn2 LNC=2 capture shows an NKI kernel that takes no grid:
    // all its instructions on sg00; sg01 runs its launch frame and ends long
    // before.
    SimResult r;
    const CoreBalance b = balance(on(matmul_workload(1024, 2048, 2048, "", "bf16", "trn2"), "trn2", 2, "none"), &r);
    EXPECT_EQ(r.lanes, 1);
    ASSERT_EQ(b.cores(), 2);
    EXPECT_GT(b.core(0).matmuls, 0);
    EXPECT_EQ(b.core(1).matmuls, 0);
    EXPECT_LT(b.core(1).last_ns, b.core(0).last_ns / 2);
    for (int e = 0; e < kBalanceEngines; ++e) EXPECT_LT(b.core(1).busy_ns[e], 2000) << balance_engine_name(e);
}

TEST(SimLnc, ThePhysicalCoresMeetInTheLaunchPreamble) {
    Recorder rec = record(on(matmul_workload(256, 256, 1024, "", "bf16", "trn2"), "trn2", 2));
    std::map<int, int> meetings;
    const RecordedEvent* prev[2] = {nullptr, nullptr};
    for (const auto& e : rec.events) {
        if (e.engine != Engine::tensor) continue;
        const RecordedEvent* p = prev[e.pcore];
        if (p && p->opcode == "WRITE" && p->dur == static_cast<int64_t>(kCrossCoreWriteNs) && e.opcode == "EVENT_SEMAPHORE") {
            EXPECT_NEAR(static_cast<double>(e.dur), kCrossCoreSignalNs, 1.0);
            ++meetings[e.pcore];
        }
        prev[e.pcore] = &e;
    }
    EXPECT_EQ(meetings[0], 1);
    EXPECT_EQ(meetings[1], 1);
    // At LNC=1 there is no other core to meet, and no event says a core.
    for (const auto& e : record(on(matmul_workload(256, 256, 1024, "", "bf16", "trn2"), "trn2", 1)).events) {
        EXPECT_EQ(e.pcore, -1);
        EXPECT_NE(e.dur, static_cast<int64_t>(kCrossCoreWriteNs)) << e.opcode;
    }
}

TEST(SimLnc, TheMlpsCoresMeetBeforeTheDownProjectionReadsBothHalvesOfH) {
    Workload w;
    w.name = "mlp";
    w.op = "mlp";
    w.batch = 1;
    w.seq = 512;
    w.hidden = 1024;
    w.intermediate = 2816;
    SimResult r;
    Recorder rec = record(on(w, "trn2", 2), &r);
    EXPECT_EQ(r.lanes, 2);
    EXPECT_EQ(r.floor_clamps, 0);
    // Each core's GpSimdE writes the other's semaphore, then waits.
    std::map<int, int64_t> barrier_end;
    for (const auto& e : rec.events)
        if (e.engine == Engine::gpsimd && e.opcode == "WRITE" && e.dur == static_cast<int64_t>(kCrossCoreWriteNs))
            barrier_end[e.pcore] = e.ts + e.dur;
    ASSERT_EQ(barrier_end.size(), 2u);
    // No core reads h before both halves are in HBM.
    const int64_t both = std::max(barrier_end[0], barrier_end[1]);
    int reads = 0;
    for (const auto& e : rec.events)
        if (e.type == EventType::dma && e.tensor.rfind("hT[", 0) == 0 && e.kind == DmaKind::hbm_read) {
            EXPECT_GE(e.ts, both) << e.tensor;
            ++reads;
        }
    EXPECT_GT(reads, 0);
}

TEST(SimLnc, AReductionSplitByColumnsIsCombinedOnceAndStoredOnce) {
    SimResult r;
    Recorder rec = record(on(elementwise_workload("reduce_sum", 128, 16384), "trn2", 2), &r);
    EXPECT_EQ(r.lanes, 2);
    std::map<int, int> combines, stores;
    for (const auto& e : rec.events) {
        if (e.type != EventType::dma) continue;
        if (e.kind == DmaKind::on_chip) ++combines[e.pcore];
        if (e.kind == DmaKind::hbm_write) ++stores[e.pcore];
    }
    EXPECT_GT(combines[0], 0);
    EXPECT_GT(combines[1], 0);
    EXPECT_GT(stores[0], 0);
    EXPECT_EQ(stores[1], 0);
}

TEST(SimLnc, RowTilesSplitWithoutMeeting) {
    const Workload w = elementwise_workload("add", 4096, 2048);
    SimResult two;
    Recorder rec = record(on(w, "trn2", 2), &two);
    const SimResult one = run(on(w, "trn2", 2, "none"));
    EXPECT_EQ(two.lanes, 2);
    std::map<int, int> adds;
    for (const auto& e : rec.events)
        if (e.opcode == "TENSOR_TENSOR") ++adds[e.pcore];
    EXPECT_EQ(adds[0], adds[1]);
    EXPECT_EQ(adds[0], 16);  // 4096 rows / 128, half each
    // Unsharded, one core's 16 DMA engines move the loads and the stores on
    // one queue (hardware DGE through the Sync engine), slower than the
    // logical core's HBM; split, both cores' engines move it.
    EXPECT_LT(two.latency_ns, one.latency_ns);
    // No core barrier: rows are independent.
    for (const auto& e : rec.events)
        EXPECT_FALSE(e.engine == Engine::gpsimd && e.opcode == "WRITE" && e.dur == static_cast<int64_t>(kCrossCoreWriteNs));
}

TEST(SimLnc, TheSameInputsGiveTheSameTimeline) {
    const Workload w = on(matmul_workload(2048, 1024, 3072, "", "bf16", "trn2"), "trn2", 2);
    EXPECT_EQ(record(w).text(), record(w).text());
}

TEST(SimLnc, CoreBalanceTakesTheProfilersBusyIntervalsWhenThereAreAny) {
    auto ev = [](EventType type, Engine engine, int32_t pcore, int64_t ts, int64_t dur, const char* opcode) {
        Event e;
        e.type = type;
        e.engine = engine;
        e.pcore = pcore;
        e.ts_ns = ts;
        e.dur_ns = dur;
        e.opcode = opcode;
        return e;
    };
    CoreBalance b;
    // Out of time order, overlapping on TensorE's two rows; a wait apart.
    b.event(ev(EventType::instruction, Engine::tensor_matrix, 1, 100, 50, "MATMUL"));
    b.event(ev(EventType::instruction, Engine::tensor, 1, 0, 120, "LoadStationary"));
    b.event(ev(EventType::instruction, Engine::vector, 0, 10, 30, "EVENT_SEMAPHORE"));
    b.event(ev(EventType::instruction, Engine::vector, -1, 40, 20, "TENSOR_TENSOR"));
    b.end_profile();
    ASSERT_EQ(b.cores(), 2);
    EXPECT_FALSE(b.from_profiler());
    EXPECT_DOUBLE_EQ(b.core(1).busy_ns[0], 150);  // 0..150, not 170
    EXPECT_EQ(b.core(1).matmuls, 1);
    EXPECT_DOUBLE_EQ(b.core(0).busy_ns[1], 20);   // the wait is no busy time
    EXPECT_DOUBLE_EQ(b.core(0).wait_ns, 30);
    EXPECT_EQ(b.core(0).first_ns, 10);
    EXPECT_EQ(b.core(0).last_ns, 60);
    CoreBalance p;
    p.event(ev(EventType::instruction, Engine::vector, 0, 0, 500, "TENSOR_TENSOR"));
    p.event(ev(EventType::active, Engine::vector, 0, 0, 300, ""));
    p.end_profile();
    EXPECT_TRUE(p.from_profiler());
    EXPECT_DOUBLE_EQ(p.core(0).busy_ns[1], 300);
}

// MX: four K rows per partition and pass, and each operand tile's block
// scales - one byte per 32 K rows and column, on four partitions of each
// SBUF quadrant - loaded beside it.
TEST(SimMx, AnMxMatmulPacksFourKRowsAndLoadsItsScalesBesideItsData) {
    const CostModel trn3(*find_target("trn3"));
    EXPECT_EQ(trn3.k_pack(DType::mxfp8), 4);
    EXPECT_EQ(trn3.k_tile(DType::mxfp4), 512);
    EXPECT_DOUBLE_EQ(find_target("trn3")->peak_flops(DType::mxfp8), 4 * 79e12);
    for (const char* dtype : {"mxfp8", "mxfp4"}) {
        Recorder rec = record(on(matmul_workload(512, 2048, 1024, "hoisted", dtype, "trn3"), "trn3", 1));
        double data = 0, scales = 0;
        std::map<int64_t, int> scale_partitions;
        for (const auto& e : rec.events) {
            if (e.type != EventType::dma || e.kind == DmaKind::hbm_write) continue;
            if (e.tensor.find("_scale[") != std::string::npos) {
                scales += static_cast<double>(e.bytes);
                ++scale_partitions[std::stoll(e.tensor.substr(e.tensor.rfind('p') + 1)) / 32];
            } else {
                data += static_cast<double>(e.bytes);
            }
        }
        // mxfp8: a byte per 32 one-byte elements; mxfp4: per 32 half-byte ones.
        EXPECT_NEAR(scales / data, std::string(dtype) == "mxfp8" ? 1.0 / 32 : 1.0 / 16, 1e-9) << dtype;
        EXPECT_EQ(scale_partitions.size(), 4u) << dtype;  // every quadrant
    }
}

TEST(SimMx, AComputeBoundMxfp8MatmulIsFasterThanBf16AndCountsAQuarterOfItsFlops) {
    const Workload bf16 = on(matmul_workload(4096, 8192, 4096, "", "bf16", "trn3"), "trn3", 1);
    Workload mx = bf16;
    mx.dtype = "mxfp8";
    const SimResult a = run(bf16), b = run(mx);
    EXPECT_DOUBLE_EQ(a.model_flops, b.model_flops);
    EXPECT_LT(b.latency_ns, 0.6 * a.latency_ns);
    EXPECT_DOUBLE_EQ(find_target("trn3")->flop_weight(DType::mxfp8), 0.25);
}

TEST(SimMx, OnlyTrn3MultipliesMxAndOnlyAMatmulTakesIt) {
    testing::expect_refused({
        {on(matmul_workload(256, 256, 256, "", "mxfp8", "trn2"), "trn2", 0),
         "mm_256x256x256: dtype mxfp8: trn2 (NC-v3) has no MX matmul; trn3 (NC-v4) has"},
    });
    const Workload w = elementwise_workload("gelu", 128, 128, "mxfp4", "trn3");
    testing::expect_refused({{w, "gelu: dtype mxfp4 is a TensorE matmul input format; elementwise takes bf16, fp16, fp32 or fp8"}});
}

}  // namespace
}  // namespace nx::model
