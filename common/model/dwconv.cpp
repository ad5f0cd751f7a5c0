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

// One kernel's emitter, tensor names and the rotating input/output rows.
class DwConvLowering {
public:
    DwConvLowering(Scheduler& s, const DwConvSpec& spec) : s_(s), spec_(spec), e_(s, spec.dtype) {
        e_.hlo = s.stream().name("%conv1d_depthwise");
        img_ = s.stream().name("img");
        filters_ = s.stream().name("filters");
        out_ = s.stream().name("out");
    }

    int64_t channel_tiles() const { return ceil_div(spec_.channels, kPartitions); }
    int64_t partitions(int64_t c) const { return std::min(kPartitions, spec_.channels - c * kPartitions); }

    // The channel tile's filters, HBM -> SBUF, once `staging_free`.
    Time load_filters(int64_t c, Time staging_free) {
        set_layer("conv1d_depthwise/filters_c" + std::to_string(c));
        return e_.dma(DmaKind::weight_load, filters_, partitions(c), spec_.filter, staging_free, 0, c);
    }
    // VectorE copies the staged filters into PSUM (nisa.tensor_copy).
    Time copy_filters_to_psum(int64_t c, Time staged) {
        return e_.vec(Op::tensor_copy, partitions(c), spec_.filter, 1, staged);
    }

    // Before a row or a filter load: every dependency the rest of the kernel
    // still holds (the pads' memset reads in_free on VectorE: its free time).
    void hold(Time filters_ready, Time staging_free) {
        s_.set_floor(Floor(s_)
                         .hold_all(in_free_, kTrackSync)
                         .hold(staging_free, kTrackSync)
                         .hold(0, kTrackVector)
                         .hold(filters_ready, kTrackVector)
                         .hold_all(out_free_, kTrackVector)
                         .value());
    }

    // One (batch, channel tile) row: the padded row in, the convolution, the
    // output row out.  `filters` is when the filter operand is ready, in
    // SBUF or PSUM as `where` says.
    Time row(int64_t n, int64_t c, Time filters, TensorTensorInputs where) {
        const int64_t cp = partitions(c), F = spec_.filter, W = spec_.width;
        const size_t g = static_cast<size_t>(gen_);
        set_layer("conv1d_depthwise/n" + std::to_string(n) + "_c" + std::to_string(c));
        // The padded row: the pads zeroed, the image row loaded between them.
        const Time pads = e_.vec(Op::memset, cp, F - 1, 0, in_free_[g]);
        const Time img = e_.dma(DmaKind::hbm_read, img_, cp, W, in_free_[g], n, c);
        const Time ready = std::max({pads, img, filters, out_free_[g]});
        Time last = ready;
        if (spec_.variant == DwConvVariant::per_position) {
            Time prod = ready;
            for (int64_t w = 0; w < W; ++w) {
                prod = e_.tensor_tensor(cp, F, where, ready);
                if ((w + 1) % kDwReducePositions == 0 || w + 1 == W) {
                    const int64_t k = (w % kDwReducePositions) + 1;
                    last = e_.vec(Op::tensor_reduce, cp, k * F, 1, prod);
                }
            }
        } else {
            for (int64_t w0 = 0; w0 < W; w0 += kDwWindow) {
                const int64_t k = std::min(kDwWindow, W - w0);
                const Time prod = e_.tensor_tensor(cp, k * F, where, ready);
                last = e_.vec(Op::tensor_reduce, cp, k * F, 1, prod);
            }
        }
        in_free_[g] = last;
        const Time st = e_.dma(DmaKind::hbm_write, out_, cp, W, last, n, c, kTrackVector);
        out_free_[g] = st;
        gen_ = (gen_ + 1) % kGenerations;
        end_ = std::max(end_, st);
        return last;
    }

    Time end() const { return end_; }

private:
    void set_layer(const std::string& name) {
        if (s_.tracing()) e_.layer = s_.stream().layer(name);
    }

    Scheduler& s_;
    const DwConvSpec& spec_;
    KernelEmitter e_;
    uint16_t img_ = 0, filters_ = 0, out_ = 0;
    std::array<Time, kGenerations> in_free_{}, out_free_{};
    int gen_ = 0;
    Time end_ = 0;
};

// The AWS kernel: every filter tile into SBUF first, then batch -> channel
// tile, the multiplies reading the filters from SBUF.
void lower_per_position(DwConvLowering& k, int64_t batch) {
    std::vector<Time> filters(static_cast<size_t>(k.channel_tiles()));
    for (int64_t c = 0; c < k.channel_tiles(); ++c) filters[static_cast<size_t>(c)] = k.load_filters(c, 0);
    for (int64_t n = 0; n < batch; ++n)
        for (int64_t c = 0; c < k.channel_tiles(); ++c) {
            const Time f = filters[static_cast<size_t>(c)];
            k.hold(f, 0);
            k.row(n, c, f, TensorTensorInputs::both_sbuf);
        }
}

// Autocomp's kernel: channel tile -> batch; each channel tile's filters
// staged in SBUF, copied into PSUM and reused by the whole batch.  The
// staging tile is reused once its copy has read it; the PSUM copy of the
// next tile waits (VectorE runs in order) behind this tile's last multiply.
void lower_windowed(DwConvLowering& k, int64_t batch) {
    Time staging_free = 0;
    for (int64_t c = 0; c < k.channel_tiles(); ++c) {
        k.hold(0, staging_free);
        const Time staged = k.load_filters(c, staging_free);
        const Time in_psum = k.copy_filters_to_psum(c, staged);
        staging_free = in_psum;
        for (int64_t n = 0; n < batch; ++n) {
            k.hold(in_psum, staging_free);
            k.row(n, c, in_psum, TensorTensorInputs::one_in_psum);
        }
    }
}

}  // namespace

DwConvCounts dwconv_counts(const DwConvSpec& spec) {
    DwConvCounts n;
    const int64_t channel_tiles = ceil_div(spec.channels, kPartitions);
    n.tiles = spec.batch * channel_tiles;
    if (spec.variant == DwConvVariant::per_position) {
        n.tensor_tensor = n.tiles * spec.width;
        n.tensor_reduce = n.tiles * ceil_div(spec.width, kDwReducePositions);
    } else {
        n.tensor_tensor = n.tiles * ceil_div(spec.width, kDwWindow);
        n.tensor_reduce = n.tensor_tensor;
        n.psum_copies = channel_tiles;
    }
    return n;
}

double dwconv_sbuf_required(const DwConvSpec& spec) {
    const double b = dtype_bytes(spec.dtype);
    const double padded = static_cast<double>(spec.width + spec.filter - 1);
    return (static_cast<double>(spec.filter) + kGenerations * (padded + static_cast<double>(spec.width))) * b;
}

DwConvOutcome lower_dwconv(Scheduler& s, const DwConvSpec& spec) {
    DwConvLowering k(s, spec);
    if (spec.variant == DwConvVariant::per_position) lower_per_position(k, spec.batch);
    else lower_windowed(k, spec.batch);
    DwConvOutcome o;
    o.end = k.end();
    o.sbuf_bytes = dwconv_sbuf_required(spec);
    return o;
}

}  // namespace nx::model
