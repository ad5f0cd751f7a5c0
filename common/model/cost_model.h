// The NeuronCore cost model: what one instruction or one DMA transfer costs
// on a target.  The constants come from AWS's public NKI documentation
// (neuron-facts.md section 6) and name their source; the one fitted constant
// and the few assumptions say so, and all of them are listed in nx-sim(7).
//
// Sources (aws-neuron-sdk repository):
//   [nki-arch]  NKI "Trainium/Inferentia2 Architecture Guide" (TensorE, PSUM)
//   [nki-perf]  NKI performance guide (engine cost model, DMA sizing)
//   [dma-intro] NKI "Introduction to DMA with NKI" (16 engines, 8 partitions
//               each, a 32 KiB single-engine transfer lasting 1416 ns)
//   [nki-mm]    NKI matrix multiplication tutorial (trn1 measurements)
//   [arch-v4]   Trainium3 / NeuronCore-v4 architecture page (mxfp8 peak)
#pragma once

#include <cstdint>

#include "common/profile/targets.h"

namespace nx::model {

// Time in the model: nanoseconds from the start of the execution, as a double
// so that cycle counts at GHz clocks do not accumulate rounding; events round
// to integer ns when they are written.
using Time = double;

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
// GpSimdE has no published per-instruction figure: assumed to cost like
// VectorE at its own clock (an assumption listed in nx-sim(7)).
inline constexpr int64_t kGpSimdStaticCycles = kVectorStaticCycles;

// --- Sync engine ------------------------------------------------------------
// Issuing a DMA (a trigger instruction on the Sync engine's queue) and a device
// loop's back-edge.  No published figure: assumed one static access overhead.
inline constexpr int64_t kSyncInstructionCycles = kAccessStaticCycles;

// --- DMA ---------------------------------------------------------------------
// Each of the 16 DMA engines serves 8 SBUF partitions; a transfer touching P
// partitions is spread over the engines of those partitions [dma-intro].
inline constexpr int64_t kPartitionsPerDmaEngine = 8;
// DMA sizing [nki-perf]: below 256 B per partition a transfer is
// overhead-bound, >= 2 KiB is the minimum for efficiency, >= 4 KiB saturates.
// Modelled as a per-descriptor (per partition row) cost equal to moving
// 256 B: 50% efficiency at 256 B, 89% at 2 KiB, 94% at 4 KiB.
inline constexpr double kDmaDescriptorOverheadBytes = 256;
// The ~1300 ns fixed cross-engine overhead per transfer (Target::
// dma_fixed_overhead_ns, [nki-perf]) is latency between the trigger and the
// first byte, not engine occupancy: a 32 KiB single-engine transfer itself
// lasts 1416 ns on trn2 [dma-intro], which is its bytes over 23 B/ns.
//
// FITTED: the HBM throughput that tile DMA traffic sustains, as a fraction of
// the per-core HBM peak.  The three memory-bound kernels of the NKI matmul
// tutorial [nki-mm] all move HBM bytes at 103-105 GB/s on trn1 whatever their
// tile shapes (256 B to 1 KiB per partition), i.e. ~25% of the 410 GB/s
// per-core peak; no documented engine or HBM figure explains that rate.
// Fitted once on those three kernels (make calibrate shows the residuals);
// other targets assume the same fraction of their own per-core HBM peak.
inline constexpr double kHbmTileDmaEfficiency = 0.2535;

// --- Host ----------------------------------------------------------------------
// One graph launch through the Neuron runtime (nrt_execute) as seen by the
// device: host dispatch plus input/output bookkeeping.  No public figure;
// assumed 20 us (the order of a synchronous runtime round trip).  Only the
// per-iteration-launch pattern pays it.
inline constexpr double kHostDispatchNs = 20000;

// Per-instruction costs on one target, in ns.
class CostModel {
public:
    explicit CostModel(const Target& target);

    const Target& target() const { return target_; }

    // How many K rows one pass contracts per partition: 2 for fp8 on NC-v3
    // ("FP8 presents K=256" [nki-perf]), 4 for mxfp8 on NC-v4 (its peak is 4x
    // bf16 [arch-v4]), 1 otherwise.  Derived from the peak FLOP/s ratio.
    int k_pack(DType d) const;
    // K rows per matmul tile: kPartitions * k_pack.
    int64_t k_tile(DType d) const { return kPartitions * k_pack(d); }

    Time multiply_moving_ns(int64_t moving_cols, DType d) const;
    Time load_stationary_ns(int64_t stationary_cols, DType d) const;
    // VectorE instruction over `free_elems` per partition reading `inputs`
    // tiles (0 for memset/iota: one pass writing).
    Time vector_ns(int64_t free_elems, int inputs) const;
    // ScalarE instruction (activation, copy, scale) over `free_elems`.
    Time scalar_ns(int64_t free_elems) const;
    Time gpsimd_ns(int64_t free_elems, int inputs) const;
    Time sync_ns() const;

    // One DMA engine's share of a transfer: `rows` partition rows of
    // `row_bytes` each, at the engine's rated bandwidth.
    Time dma_engine_ns(int64_t rows, int64_t row_bytes) const;
    // Sustained HBM bytes per ns for tile DMA traffic (shared by the queues).
    double hbm_bytes_per_ns() const { return hbm_bytes_per_ns_; }
    Time dma_fixed_latency_ns() const { return target_.dma_fixed_overhead_ns; }

private:
    const Target& target_;
    double hbm_bytes_per_ns_;
};

}  // namespace nx::model
