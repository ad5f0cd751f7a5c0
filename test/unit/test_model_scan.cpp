// The Mamba selective scan (common/model/scan.*): its step and instruction
// counts per kernel version, the bytes each version moves (v1 reloads delta
// and u per state, v2 loads them once), the spill when the working set does
// not fit SBUF, the versions' order, and bad input.
#include <gtest/gtest.h>

#include <cmath>

#include "common/model/scan.h"
#include "test/unit/test_model_support.h"

namespace nx::model {
namespace {

using testing::Recorder;
using testing::run;

Workload mamba(int64_t channels, int64_t seq, const std::string& variant, int64_t state = 16) {
    Workload w;
    w.name = "mamba";
    w.op = "ssm_scan";
    w.channels = channels;
    w.seq = seq;
    w.state_size = state;
    w.variant = variant;
    w.dtype = "fp32";
    w.target = "trn1";
    return w;
}

ScanSpec spec(int64_t channels, int64_t seq, int version, int64_t state = 16) {
    ScanSpec s;
    s.channels = channels;
    s.seq = seq;
    s.state = state;
    s.version = version;
    return s;
}

TEST(SimScan, GeometryPerVersion) {
    const CostModel cost(*find_target("trn1"));
    // v1 and v2 at 256 x 512: 2 tiles x 16 states, one sequence tile; v1
    // computes delta*u every step, v2 once per tile (hoisted).
    ScanGeometry g1 = scan_geometry(spec(256, 512, 1), cost), g2 = scan_geometry(spec(256, 512, 2), cost);
    EXPECT_EQ(g1.steps, 32);
    EXPECT_EQ(g1.vector_instructions, 32 * 5);
    EXPECT_EQ(g2.vector_instructions, 32 * 4 + 2);
    EXPECT_EQ(g1.spilled, 0);
    // v3 at 8192: 16 sequence tiles of 512, nothing spills; v2 keeps four
    // 32 KiB rows resident and four 32 KiB intermediates: 256 KiB of 192.
    ScanGeometry g3 = scan_geometry(spec(128, 8192, 3, 1), cost), g2l = scan_geometry(spec(128, 8192, 2, 1), cost);
    EXPECT_EQ(g3.seq_tile, 512);
    EXPECT_EQ(g3.seq_tiles, 16);
    EXPECT_EQ(g3.spilled, 0);
    EXPECT_EQ(g2l.spilled, 2);
}

TEST(SimScan, EventsAndBytesAreTheKernels) {
    const double row = 512.0 * 4;  // one channel's sequence, fp32
    Recorder rec;
    Workload w = mamba(256, 512, "v2");
    SimResult r2 = simulate(w, workload_target(w), &rec);
    int vec = 0, scans = 0, broadcasts = 0, exps = 0;
    for (const auto& e : rec.events) {
        if (e.track == "Vector" && (e.name == "TensorTensor" || e.name == "TensorTensorScan")) ++vec;
        if (e.name == "TensorTensorScan") ++scans;
        if (e.name == "PartitionBroadcast") ++broadcasts;
        if (e.track == "Scalar" && e.name == "Activation") ++exps;
    }
    EXPECT_EQ(vec, 32 * 4 + 2);
    EXPECT_EQ(scans, 32);
    EXPECT_EQ(broadcasts, 32 * 2);  // B and C per step, one PSUM bank each
    EXPECT_EQ(exps, 32);
    // v2: delta and u once, A's column, B's and C's rows per step.
    const double small = 32 * (128.0 * 4 + 2 * row);
    EXPECT_DOUBLE_EQ(r2.hbm_read_bytes, 2 * 256 * row + small);
    EXPECT_DOUBLE_EQ(r2.hbm_write_bytes, 256 * row);
    for (size_t i = 1; i < rec.events.size(); ++i) ASSERT_LE(rec.events[i - 1].ts, rec.events[i].ts);
    // v1: delta and u reloaded for every state.
    SimResult r1 = run(mamba(256, 512, "v1"));
    EXPECT_DOUBLE_EQ(r1.hbm_read_bytes, 16 * 2 * 256 * row + small);
    EXPECT_GT(r1.latency_ns, r2.latency_ns);
}

// *B and *C read the broadcast rows from PSUM beside an SBUF tile: N VectorE
// cycles (nki.isa.tensor_tensor's Trn1 cost table); delta*u and the sum over
// states read two SBUF tiles: 2N.  Per step that is 3.1 us at 512 fp32, the
// tutorial's v2 profile's 3.1 us of VectorE per step.
TEST(SimScan, TheBroadcastsAreReadFromPsumAtNCycles) {
    Recorder rec;
    Workload w = mamba(256, 512, "v2");
    simulate(w, workload_target(w), &rec);
    const CostModel cost(*find_target("trn1"));
    const double from_psum = cost.tensor_tensor_ns(512, TensorTensorInputs::one_in_psum),
                 from_sbuf = cost.tensor_tensor_ns(512, TensorTensorInputs::both_sbuf);
    int psum = 0, sbuf = 0;
    double step_ns = 0;
    for (const auto& e : rec.events) {
        if (e.track != "Vector" || (e.name != "TensorTensor" && e.name != "TensorTensorScan")) continue;
        if (std::abs(static_cast<double>(e.dur) - from_psum) <= 1) ++psum;
        else if (std::abs(static_cast<double>(e.dur) - from_sbuf) <= 1) ++sbuf;
        else ADD_FAILURE() << e.name << ' ' << e.dur;
        step_ns += static_cast<double>(e.dur);
    }
    EXPECT_EQ(psum, 32 * 2);            // *B and *C per step
    EXPECT_EQ(sbuf, 32 * 2 + 2);        // the scan and the sum per step, delta*u per tile
    EXPECT_NEAR(step_ns / 32 / 1000, 3.1, 0.1);
}

TEST(SimScan, SpillsWhatDoesNotFit) {
    // One tile, one state, 8192 long: v2 spills two intermediates (each
    // written and read back), v3 none, and v3 is faster.
    SimResult v2 = run(mamba(128, 8192, "v2", 1)), v3 = run(mamba(128, 8192, "v3", 1));
    const double row = 8192.0 * 4;
    EXPECT_DOUBLE_EQ(v2.hbm_write_bytes - v3.hbm_write_bytes, 2 * 128 * row);
    EXPECT_DOUBLE_EQ(v2.hbm_read_bytes - v3.hbm_read_bytes, 2 * 128 * row);
    EXPECT_GT(v2.latency_ns, v3.latency_ns);
}

TEST(SimScan, BadInputIsRefusedWithTheWorkloadsName) {
    Workload no_seq = mamba(128, 0, "v2"), variant = mamba(128, 512, "v4"), huge = mamba(128, 65536, "v2");
    testing::expect_refused({
        {no_seq, "mamba: seq must be positive, got 0"},
        {variant, "mamba: unknown variant 'v4' for ssm_scan (known: auto, v1, v2, v3)"},
        {huge, "mamba: ssm_scan does not fit: the resident delta, u and accumulator need 2048 KiB of SBUF per "
               "partition, 192 KiB available (variant v3 tiles the sequence)"}});
}

}  // namespace
}  // namespace nx::model
