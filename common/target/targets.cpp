#include "common/target/targets.h"

#include <algorithm>

#include "common/io/named_rows.h"

namespace nx {

// Sources (AWS Neuron documentation, aws-neuron-sdk repository), abbreviated:
//   [arch-v2]  "Trainium/Inferentia2 architecture" and "NeuronCore-v2" pages
//   [arch-v3]  "Trainium2 architecture" and "NeuronCore-v3" pages
//   [arch-v4]  "Trainium3 architecture" and "NeuronCore-v4" pages
//   [nki-arch] NKI "Trainium/Inferentia2 Architecture Guide" (TensorE, SBUF/PSUM)
//   [nki-perf] NKI performance guide (engine cost model, DMA overheads)
//   [dma]      NKI DMA guide ("17 B/ns per DMA engine" on NC-v2)
//   [prof]     neuron-profile / Neuron Explorer summary metric reference
//   [lnc]      "Logical NeuronCore configuration" (default LNC=2 on Trn2,
//              1 on Trn1/Inf2, where it cannot be changed); compiler error
//              NCC_EVRF066: "neuronx-cc defaults to LNC=2 on Trn2 and later"
//   [adjusted] Neuron Explorer schema, adjusted_flops: BF16/FP16/TF32 x1,
//              FP32 x4, FP8 x1 on trn1/inf2 and x0.5 on trn2/trn3,
//              MXFP8/MXFP4 x0.25 on trn3 (neuron-explorer-parquet.md
//              section 12)
//   [nki-v4]   NKI "Trainium3 Architecture Guide": TensorE 315 MXFP8/MXFP4
//              TFLOPS per NeuronCore-v4, 4x BF16 (K = 512 per pass), scaling
//              groups of 32 elements along the contraction sharing one 8-bit
//              scale; NKI "Trainium2 Architecture Guide": no MX formats on
//              NeuronCore-v3
// Collected in shared/reference/neuron-facts.md sections 5-6.  Where sources
// disagree the choice is noted on the row.
namespace {

const std::vector<Target> kTargets = {
    {
        "trn1", "NC-v2", /*cores_per_chip*/ 2,                       // [arch-v2]
        128, 128, /*tensor GHz*/ 2.8,                                // [nki-arch] 128x128 at 2.8 GHz
        /*vector*/ 1.12, /*scalar*/ 1.4, /*gpsimd*/ 1.4,             // [nki-perf]
        /*profiler clock*/ 1.4,                                      // [prof]
        128, /*sbuf*/ 24.0 * 1024 * 1024, /*psum*/ 2.0 * 1024 * 1024, 8,  // [nki-arch] 128 x 192 KiB; 128 x 16 KiB
        /*hbm*/ 32.0 * 1024 * 1024 * 1024, /*B/s chip*/ 820e9,       // [arch-v2] 820 GB/s (one page says GiB/s; GB/s used)
        16, /*B/ns per engine*/ 17.0, /*fixed ns*/ 1300.0,           // [dma] 17 B/ns (arch guide: 27 GiB/s; DMA guide used)
        /*bf16*/ 128.0 * 128 * 2 * 2.8e9,                            // 91.75 TFLOPS [nki-arch]
        /*fp32 weight*/ 4, /*fp8 weight*/ 1, /*mx*/ 0,               // [adjusted] fp32 1/4 rate; no fp8 speed-up on NC-v2; no MX
        /*vector+gpsimd share SBUF*/ true,                           // [nki-perf] "NC-v2: VectorE and GpSimdE cannot access SBUF at the same time"
        /*lnc*/ 1, /*max*/ 1,                                        // [lnc] Trn1: one physical core per logical core (NCC_EARG001)
    },
    {
        "inf2", "NC-v2", 2,                                          // [arch-v2] Inferentia2 uses NeuronCore-v2
        128, 128, 2.8,
        1.12, 1.4, 1.4,
        1.4,
        128, 24.0 * 1024 * 1024, 2.0 * 1024 * 1024, 8,
        32.0 * 1024 * 1024 * 1024, 820e9,                            // [arch-v2] same HBM figures as trn1
        16, 17.0, 1300.0,
        128.0 * 128 * 2 * 2.8e9,
        4, 1, 0,                                                     // [adjusted] as trn1
        true,                                                        // [nki-perf] NC-v2, as trn1
        1, 1,                                                        // [lnc] Inf2: one physical core per logical core
    },
    {
        "trn2", "NC-v3", 8,                                          // [arch-v3]
        128, 128, 2.4,                                               // [arch-v3]
        0.96, 1.2, 1.2,                                              // [nki-perf]
        1.2,                                                         // [prof]
        128, 28.0 * 1024 * 1024, 2.0 * 1024 * 1024, 8,               // [arch-v3] 128 x 224 KiB
        96.0 * 1024 * 1024 * 1024, 2.9e12,                           // [arch-v3] 2.9-3 TB/s: the lower figure
        16, 23.0, 1300.0,                                            // [dma] 23 B/ns; fixed cost as NC-v2 (no v3 figure)
        79e12,                                                       // [arch-v3] 79 dense bf16/fp16 TFLOPS per core
        4, 0.5, 0,                                                   // [adjusted] fp32 x4 (arch-v3: 20 TFLOPS), fp8 x0.5 (158); [nki-v4] no MX on NC-v3
        false,                                                       // [nki-perf] the restriction is stated for NC-v2 only
        2, 2,                                                        // [lnc] Trn2 default LNC=2 (1 or 2)
    },
    {
        "trn3", "NC-v4", 8,                                          // [arch-v4]
        128, 128, 2.4,
        1.2, 1.2, 1.2,                                               // [arch-v4]
        1.2,                                                         // assumed as trn2 (no published figure)
        128, 32.0 * 1024 * 1024, 2.0 * 1024 * 1024, 8,               // [arch-v4] 32 MiB SBUF; PSUM as v2/v3
        144.0 * 1024 * 1024 * 1024, 4.7e12,                          // [arch-v4] 4.7-4.9 TB/s: the lower figure
        16, 33.0, 1300.0,                                            // [dma] 33 B/ns
        79e12,                                                       // [arch-v4] 79 dense bf16 TFLOPS per core
        4, 0.5, 0.25,                                                // [adjusted] fp32 x4, fp8 x0.5, mxfp8/mxfp4 x0.25 ([nki-v4]: 315 TFLOPS)
        false,                                                       // [nki-perf] the restriction is stated for NC-v2 only
        2, 2,                                                        // [lnc] NCC_EVRF066: LNC=2 by default on Trn2 and later; [arch-v4] "LNC is 1 or 2"
    },
};

}  // namespace

namespace {

// One row per dtype: its name, the other names it is known by (NKI's and
// PyTorch's), its element bits.  mxfp8 covers both OCP MXFP8 element
// formats (E4M3 and E5M2: NKI's float8_e4m3fn_x4 and float8_e5m2_x4), which
// TensorE multiplies at one rate.
struct DTypeRow {
    DType d;
    std::string_view name;
    std::string_view aliases[3];
    int bits;
};
constexpr DTypeRow kDTypes[] = {
    {DType::bf16, "bf16", {"bfloat16"}, 16},
    {DType::fp16, "fp16", {"float16", "half"}, 16},
    {DType::fp32, "fp32", {"float32", "float"}, 32},
    {DType::fp8, "fp8", {"float8", "fp8_e4m3", "fp8_e5m2"}, 8},
    {DType::mxfp8, "mxfp8", {"float8_e4m3fn_x4", "float8_e5m2_x4"}, 8},
    {DType::mxfp4, "mxfp4", {"float4_e2m1fn_x4"}, 4},
};

const DTypeRow& row_of(DType d) {
    for (const DTypeRow& r : kDTypes)
        if (r.d == d) return r;
    return kDTypes[0];
}

}  // namespace

std::optional<DType> parse_dtype(std::string_view s) {
    for (const DTypeRow& r : kDTypes) {
        if (s == r.name) return r.d;
        for (std::string_view a : r.aliases)
            if (!a.empty() && s == a) return r.d;
    }
    return std::nullopt;
}

std::string_view to_string(DType d) { return row_of(d).name; }

std::string_view dtype_names() {
    static const std::string names = [] {
        std::string s;
        for (const DTypeRow& r : kDTypes) s += (s.empty() ? "" : ", ") + std::string(r.name);
        return s;
    }();
    return names;
}

int dtype_bits(DType d) { return row_of(d).bits; }

int dtype_bytes(DType d) { return std::max(1, dtype_bits(d) / 8); }

bool is_mx(DType d) { return d == DType::mxfp8 || d == DType::mxfp4; }

double Target::flop_weight(DType d) const {
    switch (d) {
        case DType::bf16:
        case DType::fp16: return 1;
        case DType::fp32: return fp32_flop_weight;
        case DType::fp8: return fp8_flop_weight;
        case DType::mxfp8:
        case DType::mxfp4: return mx_flop_weight > 0 ? mx_flop_weight : 1;
    }
    return 1;
}

std::string Target::why_unsupported(DType d) const {
    if (supports(d)) return {};
    return "dtype " + std::string(to_string(d)) + ": " + name + " (" + core + ") has no MX matmul; trn3 (NC-v4) has";
}

double Target::peak_flops(DType d) const { return peak_flops_bf16 / flop_weight(d); }

const std::vector<Target>& all_targets() { return kTargets; }

const Target* find_target(std::string_view name) { return find_named(kTargets, name); }


std::string target_names() { return joined_names(kTargets); }

// Sources: [inf2-arch] "Inf2 Architecture" (instance sizes table);
// [trn1-arch] "Trn1/Trn1n Architecture" (its table: Trn1.2xlarge,
// Trn1.32xlarge, Trn1n.32xlarge); [trn2-arch] "Trn2 Architecture"
// (trn2.3xlarge, trn2.48xlarge; trn2u.48xlarge in a Trn2 UltraServer);
// [sample] a real profile's instance_type (shared/reference/real-samples:
// neuron-explorer 2.32 on trn3pds98.48xlarge).  Other Trn3 types follow the
// family rule below.
const std::vector<InstanceType>& instance_types() {
    static const std::vector<InstanceType> kTypes = {
        {"inf2.xlarge", "inf2", "[inf2-arch]"},     {"inf2.8xlarge", "inf2", "[inf2-arch]"},
        {"inf2.24xlarge", "inf2", "[inf2-arch]"},   {"inf2.48xlarge", "inf2", "[inf2-arch]"},
        {"trn1.2xlarge", "trn1", "[trn1-arch]"},    {"trn1.32xlarge", "trn1", "[trn1-arch]"},
        {"trn1n.32xlarge", "trn1", "[trn1-arch]"},  {"trn2.3xlarge", "trn2", "[trn2-arch]"},
        {"trn2.48xlarge", "trn2", "[trn2-arch]"},   {"trn2u.48xlarge", "trn2", "[trn2-arch]"},
        {"trn3pds98.48xlarge", "trn3", "[sample]"},
    };
    return kTypes;
}

std::string target_of_instance(std::string_view type) {
    for (const InstanceType& t : instance_types())
        if (type == t.name) return t.target;
    // An undocumented size or variant of a known family (trn2u.3xlarge,
    // trn3u.48xlarge): the family's first letters name the generation.
    static constexpr std::pair<std::string_view, std::string_view> kFamilies[] = {
        {"inf2", "inf2"}, {"trn1", "trn1"}, {"trn2", "trn2"}, {"trn3", "trn3"}};
    std::string_view family = type.substr(0, type.find('.'));
    for (const auto& [prefix, target] : kFamilies)
        if (family.starts_with(prefix)) return std::string(target);
    return {};
}

}  // namespace nx
