#include "common/model/kernel_emitter.h"

namespace nx::model {

Time KernelEmitter::instr(int unit, Op op, Time dur, Time ready, int64_t rows, int64_t elems, EventType type) {
    const int64_t bytes = rows * elems * b;
    return s.run(Instr{.unit = unit, .op = op, .dur = dur, .ready = ready, .layer = layer, .hlo = hlo, .type = type,
                       .sbuf_read = bytes, .sbuf_write = bytes});
}

Time KernelEmitter::matmul(Op op, Time stationary_ready, Time moving_ready, Time psum_ready, int64_t k_rows,
                           int64_t m_cols, int64_t n_cols) {
    return s.matmul(MatmulInstr{.stationary_ready = stationary_ready, .moving_ready = moving_ready,
                                .psum_ready = psum_ready, .k_rows = k_rows, .m_cols = m_cols, .n_cols = n_cols,
                                .dtype = dtype, .op = op, .layer = layer, .hlo = hlo});
}

Transfer KernelEmitter::tile(DmaKind kind, uint16_t tensor, int64_t rows, int64_t cols, Time ready, int64_t r,
                             int64_t c) const {
    Transfer t;
    t.partitions = rows;
    t.row_bytes = cols * b;
    t.kind = kind;
    t.ready = ready;
    t.layer = layer;
    t.tensor = TensorRef{tensor, 0, static_cast<int32_t>(r), static_cast<int32_t>(c)};
    return t;
}

Transfer KernelEmitter::transfer(DmaKind kind, uint16_t tensor, int64_t rows, int64_t cols, Time ready, int64_t r,
                                 int64_t c, int trigger, bool strided) const {
    Transfer t = tile(kind, tensor, rows, cols, ready, r, c);
    t.trigger = trigger;
    t.strided = strided;
    return t;
}

Time KernelEmitter::dma(DmaKind kind, uint16_t tensor, int64_t rows, int64_t cols, Time ready, int64_t r, int64_t c,
                        int trigger, bool strided) {
    return s.dma(transfer(kind, tensor, rows, cols, ready, r, c, trigger, strided));
}

}  // namespace nx::model
