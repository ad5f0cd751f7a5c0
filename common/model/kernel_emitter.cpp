#include "common/model/kernel_emitter.h"

namespace nx::model {

Time KernelEmitter::instr(int unit, Op op, Time dur, Time ready, int64_t rows, int64_t elems, EventType type) {
    Instr in;
    in.unit = unit;
    in.op = op;
    in.dur = dur;
    in.ready = ready;
    in.layer = layer;
    in.hlo = hlo;
    in.type = type;
    in.sbuf_read = rows * elems * b;
    in.sbuf_write = rows * elems * b;
    return s.run(in);
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
