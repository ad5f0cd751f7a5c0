// What the hand-lowered kernels (element-wise ops, the pattern graphs) share:
// issuing compute instructions and DMA transfers on a Scheduler under the
// kernel's current layer and HLO name, with SBUF traffic counted from the
// tile shape and the dtype.
#pragma once

#include <cstdint>

#include "common/model/scheduler.h"

namespace nx::model {

struct KernelEmitter {
    KernelEmitter(Scheduler& sched, DType type)
        : s(sched), cost(sched.cost()), dtype(type), b(dtype_bytes(type)) {}

    // One instruction on `unit` reading and writing rows x elems of SBUF.
    Time instr(int unit, Op op, Time dur, Time ready, int64_t rows, int64_t elems,
               EventType type = EventType::instruction);
    Time vec(Op op, int64_t rows, int64_t elems, int inputs, Time ready) {
        return instr(kTrackVector, op, cost.vector_ns(elems, inputs), ready, rows, elems);
    }
    // A VectorE tensor_tensor, priced by where its inputs live.
    Time tensor_tensor(int64_t rows, int64_t elems, TensorTensorInputs where, Time ready) {
        return instr(kTrackVector, Op::tensor_tensor, cost.tensor_tensor_ns(elems, where), ready, rows, elems);
    }
    Time act(Op op, int64_t rows, int64_t elems, Time ready) {
        return instr(kTrackScalar, op, cost.scalar_ns(elems), ready, rows, elems);
    }
    Time pool(Op op, int64_t rows, int64_t elems, int inputs, Time ready) {
        return instr(kTrackGpSimd, op, cost.gpsimd_ns(elems, inputs), ready, rows, elems);
    }
    // One TensorE pass (MatmulInstr) of k_rows x m_cols stationary against
    // n_cols moving columns into a PSUM bank free at psum_ready.
    Time matmul(Op op, Time stationary_ready, Time moving_ready, Time psum_ready, int64_t k_rows, int64_t m_cols,
                int64_t n_cols);
    // A rows x cols tile of `tensor` at tile coordinates (r, c); `strided`
    // when the tile's rows are parts of longer rows in HBM.
    Time dma(DmaKind kind, uint16_t tensor, int64_t rows, int64_t cols, Time ready, int64_t r = 0, int64_t c = 0,
             int trigger = kTrackSync, bool strided = false);
    // The transfer dma() issues.
    Transfer transfer(DmaKind kind, uint16_t tensor, int64_t rows, int64_t cols, Time ready, int64_t r = 0,
                      int64_t c = 0, int trigger = kTrackSync, bool strided = false) const;
    // The transfer dma() issues, before its trigger and access pattern are set.
    Transfer tile(DmaKind kind, uint16_t tensor, int64_t rows, int64_t cols, Time ready, int64_t r, int64_t c) const;

    Scheduler& s;
    const CostModel& cost;
    DType dtype;
    int b;
    uint32_t layer = kNoLayer;
    uint16_t hlo = 0;
};

}  // namespace nx::model
