// The Mamba selective-scan layer (state-space model), lowered as the NKI
// Fused Mamba tutorial's three kernels write it (aws-neuron-sdk
// nki/tutorials/fused_mamba.rst): channels on the partitions, the sequence on
// the free axis; per batch, 128-channel tile and state: exp(delta * A) on
// ScalarE (one activation with a scale), B and C broadcast across the
// partitions by TensorE, and on VectorE delta*u, *B, the tensor_tensor_scan
// recurrence, *C and the accumulation over states; the sum stored per tile.
//   v1  state loop outside the channel loop: delta and u reloaded per state
//   v2  loop reordered: delta and u loaded once per channel tile
//   v3  v2 with the sequence tiled by 512 (the scan carries its last column)
// In v2 and v3 delta*u no longer depends on the state: it is computed once
// per tile, as neuronx-cc hoists a loop-invariant instruction.  When the
// working set does not fit SBUF (v1/v2 at long sequences), the intermediates
// that do not fit are spilled to HBM after they are made and reloaded before
// they are used (the qSyncSpillReload traffic of the tutorial's profile).
#pragma once

#include <cstdint>
#include <string>

#include "common/model/cost_model.h"

namespace nx::model {

class Scheduler;

struct ScanSpec {
    int64_t batch = 1, channels = 0, seq = 0, state = 16;
    int version = 3;  // the tutorial's kernel: 1, 2 or 3
    DType dtype = DType::fp32;
};

struct ScanGeometry {
    int64_t channel_tiles = 0;
    int64_t seq_tile = 0;   // free size of one step's tiles
    int64_t seq_tiles = 0;  // steps per state
    int64_t steps = 0;      // (batch, channel tile, state, sequence tile) iterations
    int64_t vector_instructions = 0;
    int64_t spilled = 0;    // intermediates per step that do not fit SBUF
    double sbuf_bytes = 0;  // per partition: resident tiles and one step's intermediates
};
ScanGeometry scan_geometry(const ScanSpec& spec, const CostModel& cost);

struct ScanOutcome {
    Time end = 0;
    double sbuf_bytes = 0;
};

ScanOutcome lower_scan(Scheduler& s, const ScanSpec& spec);

}  // namespace nx::model
