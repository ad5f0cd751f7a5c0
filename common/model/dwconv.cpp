#include "common/model/dwconv.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "common/model/kernel_emitter.h"
#include "common/model/scheduler.h"

namespace nx::model {

namespace {

constexpr int kGenerations = 2;

}  // namespace

DwConvCounts dwconv_counts(const DwConvSpec& spec) {
    DwConvCounts n;
    n.tiles = spec.batch * ceil_div(spec.channels, kPartitions);
    if (spec.variant == DwConvVariant::per_position) {
        n.tensor_tensor = n.tiles * spec.width;
        n.tensor_reduce = n.tiles * ceil_div(spec.width, kDwReducePositions);
    } else {
        n.tensor_tensor = n.tiles * ceil_div(spec.width, kDwWindow);
        n.tensor_reduce = n.tensor_tensor;
    }
    return n;
}

double dwconv_sbuf_required(const DwConvSpec& spec) {
    const double b = dtype_bytes(spec.dtype);
    const double padded = static_cast<double>(spec.width + spec.filter - 1);
    return (static_cast<double>(spec.filter) + kGenerations * (padded + static_cast<double>(spec.width))) * b;
}

DwConvOutcome lower_dwconv(Scheduler& s, const DwConvSpec& spec) {
    KernelEmitter e(s, spec.dtype);
    e.hlo = s.stream().name("%conv1d_depthwise");
    const uint16_t img_n = s.stream().name("img"), f_n = s.stream().name("filters"), out_n = s.stream().name("out");
    const int64_t tiles = ceil_div(spec.channels, kPartitions), F = spec.filter, W = spec.width;
    auto cp_of = [&](int64_t c) { return std::min(kPartitions, spec.channels - c * kPartitions); };
    if (s.tracing()) e.layer = s.stream().layer("conv1d_depthwise/filters");
    std::vector<Time> filt(static_cast<size_t>(tiles));
    for (int64_t c = 0; c < tiles; ++c) filt[static_cast<size_t>(c)] = e.dma(DmaKind::weight_load, f_n, cp_of(c), F, 0, c);

    std::array<Time, kGenerations> in_free{}, out_free{};
    int gen = 0;
    Time end = 0;
    for (int64_t n = 0; n < spec.batch; ++n)
        for (int64_t c = 0; c < tiles; ++c) {
            const int64_t cp = cp_of(c);
            if (s.tracing()) e.layer = s.stream().layer("conv1d_depthwise/n" + std::to_string(n) + "_c" + std::to_string(c));
            s.set_floor(Floor(s).hold_all(in_free, kTrackSync).hold(0, kTrackVector).hold_all(out_free, kTrackVector).value());
            // The padded row: the pads zeroed, the image row loaded between them.
            const Time pads = e.vec(Op::memset, cp, F - 1, 0, in_free[static_cast<size_t>(gen)]);
            const Time img = e.dma(DmaKind::hbm_read, img_n, cp, W, in_free[static_cast<size_t>(gen)], n, c);
            const Time ready = std::max({pads, img, filt[static_cast<size_t>(c)], out_free[static_cast<size_t>(gen)]});
            Time last = ready;
            if (spec.variant == DwConvVariant::per_position) {
                Time prod = ready;
                for (int64_t w = 0; w < W; ++w) {
                    prod = e.vec(Op::tensor_tensor, cp, F, 2, ready);
                    if ((w + 1) % kDwReducePositions == 0 || w + 1 == W) {
                        const int64_t k = (w % kDwReducePositions) + 1;
                        last = e.vec(Op::tensor_reduce, cp, k * F, 1, prod);
                    }
                }
            } else {
                for (int64_t w0 = 0; w0 < W; w0 += kDwWindow) {
                    const int64_t k = std::min(kDwWindow, W - w0);
                    const Time prod = e.vec(Op::tensor_tensor, cp, k * F, 2, ready);
                    last = e.vec(Op::tensor_reduce, cp, k * F, 1, prod);
                }
            }
            in_free[static_cast<size_t>(gen)] = last;
            const Time st = e.dma(DmaKind::hbm_write, out_n, cp, W, last, n, c, kTrackVector);
            out_free[static_cast<size_t>(gen)] = st;
            end = std::max(end, st);
            gen = (gen + 1) % kGenerations;
        }
    DwConvOutcome o;
    o.end = end;
    o.sbuf_bytes = dwconv_sbuf_required(spec);
    return o;
}

}  // namespace nx::model
