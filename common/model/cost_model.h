// The NeuronCore cost model: what one instruction or one DMA transfer costs
// on a target.  The constants come from AWS's public NKI documentation
// (neuron-facts.md section 6) and name their source; the fitted parameters
// (ModelParams) and the few assumptions say so, and all of them are listed
// in nx-sim(7).
//
// Sources (aws-neuron-sdk repository):
//   [nki-arch]  NKI "Trainium/Inferentia2 Architecture Guide" (TensorE, PSUM)
//   [nki-perf]  NKI performance guide (engine cost model, DMA sizing)
//   [dma-intro] NKI "Introduction to DMA with NKI" (16 engines, 8 partitions
//               each, a 32 KiB single-engine transfer lasting 1416 ns)
//   [nki-mm]    NKI matrix multiplication tutorial (trn1 measurements)
//   [arch-v4]   Trainium3 / NeuronCore-v4 architecture page (mxfp8 peak)
//   [nki-tt]    nki.isa.tensor_tensor API page, Inf2/Trn1 edition,
//               "Estimated instruction cost"
//   [nki-v3]    NKI "Trainium2 Architecture Guide" (descriptor generation
//               engine)
//   [nki-v4]    NKI "Trainium3 Architecture Guide" (MX matmul: K = 512 per
//               pass, scale tensors, 4x BF16 throughput)
//   [nki-lnc]   NKI "Using Logical NeuronCores (LNC)"; nki.isa.core_barrier
//               (each core writes a semaphore of the other, then waits for
//               its own); nki.isa.sendrecv_compute (a cross-core exchange
//               reduced by the DMA engine)
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/target/targets.h"

namespace nx::model {

// Time in the model: nanoseconds from the start of the execution, as a double
// so that cycle counts at GHz clocks do not accumulate rounding; events round
// to integer ns when they are written.
using Time = double;

// Tiles of b covering a (the lowerings' tile counts).
inline constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// --- Tile limits [nki-arch] -------------------------------------------------
inline constexpr int64_t kPartitions = 128;      // SBUF/PSUM partitions; matmul contraction (K) per pass
inline constexpr int64_t kStationaryMax = 128;   // stationary free size (M per LoadStationary)
inline constexpr int64_t kMovingMax = 512;       // moving free size (N per MultiplyMoving): one 2 KiB PSUM bank of fp32

// --- TensorE [nki-perf] -----------------------------------------------------
// MultiplyMoving streams one moving column per cycle; its initiation interval
// is ~max(N, 64) cycles.
inline constexpr int64_t kMatmulMinCycles = 64;
// fp32 inputs take ~4x as long (four passes through the bf16 array).
inline constexpr int kFp32PassFactor = 4;
// LoadStationary is up to 4x faster than a MultiplyMoving of the same free
// size (~32 cycles for 128 columns) and runs in the background of the
// previous MultiplyMoving.
inline constexpr int64_t kLoadStationarySpeedup = 4;
inline constexpr int64_t kLoadStationaryMinCycles = 8;  // assumed floor for a 1..31-column stationary

// --- VectorE / ScalarE / GpSimdE [nki-perf] --------------------------------
// VectorE: ~N cycles per input tile of free size N, plus ~100 cycles of static
// overhead for small or back-to-back dependent instructions.
inline constexpr int64_t kVectorStaticCycles = 100;
// ScalarE: ~N cycles; each SBUF/PSUM access has ~60 cycles of static overhead;
// small dependent instructions were measured at ~189 ns issue interval.
inline constexpr int64_t kAccessStaticCycles = 60;
inline constexpr double kScalarMinIssueNs = 189;
// tensor_tensor [nki-tt]: N VectorE cycles when one input tile is in PSUM
// and the other in SBUF (the two are read side by side), 2N when both are in
// SBUF, but N again when both inputs and the output are bfloat16, the
// operator is add, multiply or subtract and the data is contiguous along the
// free dimension (bf16_arith).
enum class TensorTensorInputs { both_sbuf, one_in_psum, bf16_arith };
// GpSimdE has no published per-instruction figure: assumed to cost like
// VectorE at its own clock (an assumption listed in nx-sim(7)).
inline constexpr int64_t kGpSimdStaticCycles = kVectorStaticCycles;

// --- Sync engine ------------------------------------------------------------
// Issuing a DMA (a trigger instruction on the Sync engine's queue) and a device
// loop's back-edge.  No published figure: assumed one static access overhead.
inline constexpr int64_t kSyncInstructionCycles = kAccessStaticCycles;

// --- DMA ---------------------------------------------------------------------
// Each of a physical core's 16 DMA engines serves 8 SBUF partitions; a
// transfer touching P partitions is spread over the engines of those
// partitions [dma-intro].  A physical core's transfers use its own 16: in the
// real trn2 LNC=2 capture (real-samples, reading material) the kernel's
// packets on subgraph sg00 use engines 64-79 only, sg01's are 80-95.
// DMA sizing [nki-perf]: below 256 B per partition a transfer is
// overhead-bound, >= 2 KiB is the minimum for efficiency, >= 4 KiB saturates.
// Modelled as a per-descriptor (per partition row) cost equal to moving
// 256 B: 50% efficiency at 256 B, 89% at 2 KiB, 94% at 4 KiB.
inline constexpr double kDmaDescriptorOverheadBytes = 256;
// The ~1300 ns fixed cross-engine overhead per transfer (Target::
// dma_fixed_overhead_ns, [nki-perf]) is latency between the trigger and the
// first byte, not engine occupancy: a 32 KiB single-engine transfer itself
// lasts 1416 ns on trn2 [dma-intro], which is its bytes over 23 B/ns.  What
// does occupy the issuing engine is writing the transfer's descriptors: the
// fitted ModelParams::dma_issue_ns on NC-v2; on NC-v3 a descriptor
// generation engine (DGE) builds them, and "each DGE-based DMA instruction
// takes about 600 ns to execute on NeuronCore-v3" [nki-v3] (NC-v4 assumed
// alike: no figure of its own).
inline constexpr double kDgeIssueNs = 600;

// --- Kernel launch and drain ---------------------------------------------------
// Every measured kernel pays a fixed 13-30 us on top of its work (the vector
// add points: one 100 KB tile takes 15-19 us).  Modelled as a preamble (every
// engine drains, waits on the launch semaphore, sets its ordering mode;
// ScalarE loads its first activation table) and a drain (every engine waits
// for the last transfer, clears its semaphores and notifies), named as in a
// neuron-profile capture.  The total is fitted (ModelParams::fixed_ns_*); the
// drain's share and the small instructions' durations are as observed in a
// neuron-profile 2.27 capture of a small inf2 kernel (real-samples, reading
// material): DRAIN ~10 ns, SET_ORDERING_MODE ~8 ns, NOTIFY ~10 ns,
// ACT_TABLE_LOAD 368 ns, EVENT_SEMAPHORE_RANGE_CLEAR ~300 ns, and ~2.6 us from
// the last transfer to the end of the drain.
inline constexpr double kDrainInstrNs = 10;
inline constexpr double kSetOrderingModeNs = 8;
inline constexpr double kNotifyNs = 10;
inline constexpr double kActTableLoadNs = 368;
inline constexpr double kSemaphoreRangeClearNs = 300;
inline constexpr double kKernelDrainNs = 2600;
// The same capture's frame instruction by instruction (114 of its 127
// instructions; Scheduler::begin_kernel, end_kernel): every engine meets the
// others in barrier rounds (DRAIN, a wait on the barrier's semaphore, a
// second EVENT_SEMAPHORE of ~43 ns, DRAIN), two rounds before the kernel and
// one after it; the PE row first writes two 4-byte flags (WRITE, 64 ns) and
// idles one slot (NOP, 16 ns); GpSimdE loads a register from device memory in
// the preamble (TENSOR_LOAD, 689 ns) and after the kernel stores and reloads
// one, compares it and clears a flag (TENSOR_STORE 95 ns, TENSOR_LOAD 389 ns,
// COMPARE_BRANCH, WRITE); the Sync engine writes two flags before notifying;
// every engine ends with COMPARE_BRANCH and a second SET_ORDERING_MODE.  The
// capture's fifth WRITE, on the Sync engine right after the preamble, is the
// trigger of the graph's static DMA (bir name "I-56-0-trig", the dot's HLO;
// its packets follow 489 ns later, where the model keeps its 1300 ns
// trigger-to-first-byte latency): a compiler-lowered graph's static DMA is
// triggered by a WRITE (patterns.cpp, Transfer::TriggerCost::prebuilt).  WRITE is the mean of the capture's
// five (64, 37, 46, 36, 39 ns), COMPARE_BRANCH the mean of its five in the drain
// (42-53 ns).  All of it sits inside the fitted fixed cost: the barrier waits
// absorb what the instructions do not fill.
inline constexpr int kPreambleBarrierRounds = 2;
inline constexpr double kBarrierAckNs = 43;
inline constexpr double kWriteNs = 44;
inline constexpr double kNopNs = 16;
inline constexpr double kPreambleRegisterLoadNs = 689;
inline constexpr double kRegisterStoreNs = 95;
inline constexpr double kCompareBranchNs = 47;

// --- Compiler-lowered graphs (the pattern study's graphs, patterns.cpp) -----
// What a neuron-profile capture of an XLA graph compiled by neuronx-cc shows
// beside the kernel's own work (real-samples capture of a 128x128x136 dot on
// inf2, reading material): graph inputs and outputs move by DMA_DIRECT2D
// instructions on GpSimdE, whose descriptors are written at run time, one
// packet per partition row plus a 4-byte semaphore write per DMA engine (the
// instruction itself an instant: 0 ns in the capture, the engine's next
// instruction 649 ns later); constants come by a static DMA, triggered by a
// WRITE; GpSimdE loads registers from device memory
// with TENSOR_LOAD (389 ns and 689 ns in that capture: the shorter is taken
// for a dynamic slice's index); every engine runs its own stream and
// COMPARE_BRANCHes at a device loop's back-edge (42-91 ns there); register
// arithmetic is assumed one static access (~43 ns at 1.4 GHz, the order of
// the capture's WRITE and COMPARE_BRANCH).
inline constexpr double kRegisterLoadNs = 389;
inline constexpr int64_t kRegisterAluCycles = kAccessStaticCycles;

// --- Two physical cores to a logical core (LNC=2) [nki-lnc] ---------------------
// The cores meet by writing a semaphore of the other and waiting on their
// own.  The real trn2 LNC=2 capture (real-samples, reading material) shows
// it in the launch preamble on the PE row: a WRITE to the other core's
// semaphore (225 and 230 ns: the mean taken) and an EVENT_SEMAPHORE that
// ends 168 ns after the other core's WRITE ended, when that core arrived
// first.  core_barrier's default engine is GpSimdE.
inline constexpr double kCrossCoreWriteNs = 228;
inline constexpr double kCrossCoreSignalNs = 168;
// MX block scales [nki-v4]: 32 elements along the contraction share one
// 8-bit scale, so every K tile of 512 rows (128 partitions x 4) carries 16
// scale rows per column, laid out as 4 partitions in each of the four SBUF
// quadrants; stationary and moving operands each come with their own scale
// tensor, loaded beside the data.
inline constexpr int64_t kSbufQuadrants = 4;

// --- Fitted parameters ------------------------------------------------------------
// The free parameters `make calibrate` fits (least squares on log error) to
// the fit subset of common/model/calibration.jsonl.  Their values, with the
// fit's residuals, are compiled in from fitted_params.inc (fitted.h); the
// HBM fractions are fitted per access pattern: one efficiency fitted on the
// strided tiles of the NKI matmul tutorial alone misjudged the others.
struct ModelParams {
    double fixed_ns_v2 = 0;     // kernel preamble + drain on NC-v2 (trn1, inf2)
    double fixed_ns_v3 = 0;     // the same on NC-v3 (trn2; trn3 assumed alike)
    double dma_issue_ns = 0;    // descriptor issue per transfer on NC-v2, on the issuing engine
    double hbm_contiguous = 0;  // sustained fraction of the logical core's HBM peak, one contiguous range
    double hbm_strided = 0;     // ... a tile of rows strided across a larger tensor
};

// --- Host ----------------------------------------------------------------------
// One graph launch through the Neuron runtime (nrt_execute) as seen by the
// device: host dispatch plus input/output bookkeeping.  No public figure;
// assumed 20 us (the order of a synchronous runtime round trip).  Only the
// per-iteration-launch pattern pays it.
inline constexpr double kHostDispatchNs = 20000;

// Where a kernel runs on its logical core: the logical core's `lnc` physical
// cores each run the launch frame, and the kernel's work is spread over
// `lanes` of them (lnc when the lowering shards it, 1 when it all runs on the
// first physical core, as an NKI kernel launched without a launch grid does).
struct Placement {
    int lnc = 1;
    int lanes = 1;
};
// Physical cores a logical core groups at most (LNC=2 on trn2 and trn3).
inline constexpr int kMaxLnc = 2;

// Per-instruction costs on one target, in ns.
class CostModel {
public:
    // `params`: the fitted values (fitted.h) unless a fit is trying others;
    // `placement`: the target's default LNC, one lane, unless said.
    explicit CostModel(const Target& target);
    CostModel(const Target& target, const ModelParams& params);
    CostModel(const Target& target, const ModelParams& params, Placement placement);

    const ModelParams& params() const { return params_; }
    const Placement& placement() const { return placement_; }

    const Target& target() const { return target_; }

    // How many K rows one pass contracts per partition: 2 for fp8 on NC-v3
    // ("FP8 presents K=256" [nki-perf]), 4 for mxfp8 and mxfp4 on NC-v4
    // (K = 512 per pass [nki-v4]), 1 otherwise.  Derived from the peak FLOP/s
    // ratio (the flop weight).
    int k_pack(DType d) const;
    // K rows per matmul tile: kPartitions * k_pack.
    int64_t k_tile(DType d) const { return kPartitions * k_pack(d); }

    Time multiply_moving_ns(int64_t moving_cols, DType d) const;
    Time load_stationary_ns(int64_t stationary_cols, DType d) const;
    // VectorE instruction over `free_elems` per partition reading `inputs`
    // tiles (0 for memset/iota: one pass writing).
    Time vector_ns(int64_t free_elems, int inputs) const;
    // VectorE tensor_tensor over `free_elems` per partition, by where its
    // two inputs live (see TensorTensorInputs).
    Time tensor_tensor_ns(int64_t free_elems, TensorTensorInputs where) const {
        return vector_ns(free_elems, where == TensorTensorInputs::both_sbuf ? 2 : 1);
    }
    // ScalarE instruction (activation, copy, scale) over `free_elems`.
    Time scalar_ns(int64_t free_elems) const;
    Time gpsimd_ns(int64_t free_elems, int inputs) const;
    Time sync_ns() const;

    // One DMA engine's share of a transfer: `rows` partition rows of
    // `row_bytes` each, at the engine's rated bandwidth.
    Time dma_engine_ns(int64_t rows, int64_t row_bytes) const;
    // Sustained HBM bytes per ns of one lane (its share of the logical
    // core's, shared by its queues) for contiguous or strided transfers.
    double hbm_bytes_per_ns(bool strided = true) const { return strided ? hbm_strided_ : hbm_contiguous_; }
    Time dma_fixed_latency_ns() const { return target_.dma_fixed_overhead_ns; }
    // Descriptor issue of one transfer on the issuing engine.
    Time dma_issue_ns() const;
    // NC-v3 and later build descriptors in the DGE, which only the Sync
    // engine's and ScalarE's sequencers command [nki-v3].
    bool hardware_dge() const;
    // DMA engines a physical core's transfer can use, and the SBUF
    // partitions each serves.
    int dma_engines() const { return dma_engines_; }
    int64_t partitions_per_dma_engine() const { return kPartitions / dma_engines_; }
    // Kernel preamble and drain (see above).
    Time kernel_fixed_ns() const;
    Time kernel_drain_ns() const { return std::min(kKernelDrainNs, kernel_fixed_ns() / 2); }
    Time kernel_preamble_ns() const { return kernel_fixed_ns() - kernel_drain_ns(); }

private:
    const Target& target_;
    ModelParams params_;
    Placement placement_;
    double hbm_contiguous_, hbm_strided_;
    int dma_engines_;
};

}  // namespace nx::model
