#include "common/model/validate.h"

#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>

#include "common/io/error.h"

namespace nx::model {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// Bad-input errors all start with the workload's name.
[[noreturn]] void fail(const std::string& label, const std::string& what) { throw Error(label + ": " + what); }

bool is_auto(const std::string& v) { return v.empty() || v == "auto"; }

// A filter or pool window no larger than the plane it slides over.
void window_fits(const std::string& label, const char* what, int64_t size, int64_t height, int64_t width,
                 const char* plane) {
    if (size > height || size > width)
        fail(label, std::string(what) + " " + std::to_string(size) + " is larger than the " + std::to_string(height) + "x" +
                        std::to_string(width) + " " + plane);
}

// The variant `given` names among an op's known variants (name, value);
// nullopt for auto, which the caller resolves.  An unknown name fails,
// listing auto and the known ones.
template <class V>
std::optional<V> named_variant(const std::string& label, const char* op, const std::string& given,
                               std::initializer_list<std::pair<const char*, V>> known) {
    if (is_auto(given)) return std::nullopt;
    std::string names = "auto";
    for (const auto& [name, value] : known) {
        if (given == name) return value;
        names += std::string(", ") + name;
    }
    fail(label, "unknown variant '" + given + "' for " + op + " (known: " + names + ")");
}

std::optional<MatmulVariant> matmul_variant(const std::string& label, const std::string& v) {
    if (is_auto(v)) return std::nullopt;
    auto parsed = parse_matmul_variant(v);
    if (!parsed)
        fail(label, "unknown variant '" + v + "' (known: " + std::string(matmul_variant_names()) + ")");
    return parsed;
}

void fits_device(const std::string& label, double bytes, const CostModel& cost) {
    const Target& t = cost.target();
    if (bytes > t.hbm_bytes_per_chip) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "needs %.1f GiB of device memory (inputs, weights and outputs), %s has %.1f GiB",
                      bytes / kGiB, t.name, t.hbm_bytes_per_chip / kGiB);
        fail(label, buf);
    }
}

void variant_fits(const std::string& label, const MatmulProblem& p, MatmulVariant v, const CostModel& cost,
                  const char* what) {
    MatmulPlan plan = plan_matmul(p, v, cost);
    if (!plan.fits)
        fail(label, std::string("variant ") + std::string(to_string(v)) + " does not fit" + what + ": " + plan.why_not);
}

// Each op's spec: its shape in the model's terms, its bytes (b per element),
// and what the model knows fits (the device, SBUF) or applies (variants).
void spec_matmul(const Workload& w, DType dtype, double b, const CostModel& cost, WorkloadSpec& spec) {
    const std::string& label = spec.label;
    spec.kind = WorkloadKind::matmul;
    spec.matmul.M = w.M;
    spec.matmul.K = w.K;
    spec.matmul.N = w.N;
    spec.matmul.dtype = dtype;
    spec.variant = matmul_variant(label, w.variant);
    const double M = static_cast<double>(w.M), K = static_cast<double>(w.K), N = static_cast<double>(w.N);
    spec.weight_bytes = K * N * b;
    // An MX matmul writes bf16.
    const double out_b = is_mx(dtype) ? dtype_bytes(DType::bf16) : b;
    spec.io_bytes = (M * K + K * N) * b + M * N * out_b;
    fits_device(label, spec.io_bytes, cost);
    if (spec.variant) variant_fits(label, spec.matmul, *spec.variant, cost, "");
}

void spec_mlp(const Workload& w, DType dtype, double b, const CostModel& cost, WorkloadSpec& spec) {
    const std::string& label = spec.label;
    spec.kind = WorkloadKind::mlp;
    spec.mlp.tokens = w.batch * w.seq;
    spec.mlp.hidden = w.hidden;
    spec.mlp.intermediate = w.intermediate;
    spec.mlp.dtype = dtype;
    spec.mlp.variant = matmul_variant(label, w.variant);
    spec.variant = spec.mlp.variant;
    const double T = static_cast<double>(spec.mlp.tokens), H = static_cast<double>(w.hidden),
                 I = static_cast<double>(w.intermediate);
    spec.weight_bytes = 3 * H * I * b;
    // x, the two intermediates (act, gated product) and y.
    spec.io_bytes = spec.weight_bytes + (2 * T * H + 2 * T * I) * b;
    fits_device(label, spec.io_bytes, cost);
    if (spec.variant) {
        variant_fits(label, mlp_gate_problem(spec.mlp), *spec.variant, cost, " the gate/up projections");
        variant_fits(label, mlp_down_problem(spec.mlp), *spec.variant, cost, " the down projection");
    }
}

void spec_pattern(const Workload& w, DType dtype, double b, const CostModel& cost, WorkloadSpec& spec) {
    const std::string& label = spec.label;
    spec.kind = WorkloadKind::pattern;
    PatternSpec& p = spec.pattern;
    parse_pattern_kind(w.pattern, p.kind);
    p.name = w.pattern;
    p.iterations = w.iterations;
    p.batch = w.batch;
    p.features = w.features;
    p.dtype = dtype;
    if (p.batch > kPartitions)
        fail(label, "batch must be at most " + std::to_string(kPartitions) + " (one row per SBUF partition), got " +
                        std::to_string(p.batch));
    if (p.kind == PatternKind::for_loop || p.kind == PatternKind::for_loop_launch) p.size = w.size;
    if (!is_auto(w.variant)) fail(label, "variant '" + w.variant + "' does not apply to pattern workloads");
    const double rows = static_cast<double>(p.iterations * p.batch);
    spec.io_bytes = (rows * static_cast<double>(p.features) + rows) * b;
    fits_device(label, spec.io_bytes, cost);
    // A row of features (and its transposes) must fit in a partition.
    if (static_cast<double>(pattern_sbuf_bytes(p)) > cost.target().sbuf_bytes_per_partition())
        fail(label, "features " + std::to_string(p.features) + " do not fit in an SBUF partition");
}

void spec_elementwise(const Workload& w, DType dtype, double b, const CostModel& cost, WorkloadSpec& spec) {
    const std::string& label = spec.label;
    spec.kind = WorkloadKind::elementwise;
    ElementwiseSpec& e = spec.elementwise;
    if (!elementwise_kind(w.opname, e.kind))
        fail(label, "unknown opname '" + w.opname + "' (known: " + std::string(elementwise_op_names()) + ")");
    e.opname = w.opname;
    e.rows = w.rows;
    e.cols = w.cols;
    e.dtype = dtype;
    if (e.kind == ElementwiseKind::layernorm) {
        e.layernorm_version = named_variant<int>(label, "layernorm", w.variant, {{"v1", 1}, {"v2", 2}}).value_or(2);
    } else if (!is_auto(w.variant)) {
        fail(label, "variant '" + w.variant + "' does not apply to " + w.opname);
    }
    const double R = static_cast<double>(w.rows), C = static_cast<double>(w.cols);
    const int inputs = e.kind == ElementwiseKind::binary ? 2 : 1;
    const double out = e.kind == ElementwiseKind::reduce ? R : R * C;
    spec.weight_bytes = e.kind == ElementwiseKind::layernorm ? 2 * C * b : 0;
    spec.io_bytes = (inputs * R * C + out) * b + spec.weight_bytes;
    fits_device(label, spec.io_bytes, cost);
    std::string why;
    elementwise_sbuf_required(e, cost, why);
    if (!why.empty()) fail(label, w.opname + " does not fit: " + why);
}

void spec_conv2d(const Workload& w, DType dtype, double b, const CostModel& cost, WorkloadSpec& spec) {
    const std::string& label = spec.label;
    spec.kind = WorkloadKind::conv2d;
    ConvSpec& c = spec.conv;
    c.batch = w.batch;
    c.filter = w.filter;
    c.pool = w.pool;
    c.channels = w.channels;
    c.out_channels = w.out_channels;
    c.height = w.height;
    c.width = w.width;
    c.dtype = dtype;
    window_fits(label, "filter", c.filter, c.height, c.width, "input");
    const ConvGeometry g = conv_geometry(c);
    window_fits(label, "pool", c.pool, g.out_h, g.out_w, "output");
    if (!is_auto(w.variant)) fail(label, "variant '" + w.variant + "' does not apply to conv2d");
    if (w.stride > 1) fail(label, "stride " + std::to_string(w.stride) + " does not apply to conv2d (stride 1 only)");
    const double B = static_cast<double>(c.batch);
    spec.weight_bytes = static_cast<double>(c.out_channels * c.channels * c.filter * c.filter) * b;
    spec.io_bytes = spec.weight_bytes + B * static_cast<double>(c.channels * c.height * c.width) * b +
                    B * static_cast<double>(c.out_channels * (g.out_h / c.pool) * (g.out_w / c.pool)) * b;
    fits_device(label, spec.io_bytes, cost);
    std::string why;
    conv_sbuf_required(c, cost, why);
    if (!why.empty()) fail(label, "conv2d does not fit: " + why);
}

void spec_pool2d(const Workload& w, DType dtype, double b, const CostModel& cost, WorkloadSpec& spec) {
    const std::string& label = spec.label;
    spec.kind = WorkloadKind::pool2d;
    PoolSpec& p = spec.pool;
    p.batch = w.batch;
    p.pool = w.pool;
    p.stride = w.stride == 0 ? p.pool : w.stride;  // windows side by side unless said
    p.channels = w.channels;
    p.height = w.height;
    p.width = w.width;
    p.dtype = dtype;
    if (p.pool < 2) fail(label, "pool must be at least 2 for pool2d (a 1x1 window is a copy), got 1");
    if (w.opname == "max" || w.opname.empty()) p.reduce = PoolReduce::max;
    else if (w.opname == "avg") p.reduce = PoolReduce::avg;
    else fail(label, "unknown opname '" + w.opname + "' for pool2d (known: max, avg)");
    window_fits(label, "pool", p.pool, p.height, p.width, "input");
    const std::optional<PoolVariant> variant = named_variant<PoolVariant>(
        label, "pool2d", w.variant, {{"separable", PoolVariant::separable}, {"reduce", PoolVariant::reduce}});
    p.variant = variant ? *variant : auto_pool_variant(p);
    const PoolGeometry g = pool_geometry(p);
    const double B = static_cast<double>(p.batch), C = static_cast<double>(p.channels);
    spec.io_bytes = B * C * static_cast<double>(p.height * p.width + g.out_h * g.out_w) * b;
    fits_device(label, spec.io_bytes, cost);
    std::string why;
    pool_sbuf_required(p, cost, why);
    if (!why.empty()) fail(label, "pool2d does not fit: " + why);
}

void spec_ssm_scan(const Workload& w, DType dtype, double b, const CostModel& cost, WorkloadSpec& spec) {
    const std::string& label = spec.label;
    spec.kind = WorkloadKind::ssm_scan;
    ScanSpec& m = spec.scan;
    m.batch = w.batch;
    m.state = w.state_size;
    m.channels = w.channels;
    m.seq = w.seq;
    m.dtype = dtype;
    m.version = named_variant<int>(label, "ssm_scan", w.variant, {{"v1", 1}, {"v2", 2}, {"v3", 3}}).value_or(3);
    const double B = static_cast<double>(m.batch), C = static_cast<double>(m.channels);
    const double S = static_cast<double>(m.seq), N = static_cast<double>(m.state);
    spec.weight_bytes = C * N * b;
    spec.io_bytes = spec.weight_bytes + B * (3 * C * S + 2 * N * S) * b;
    fits_device(label, spec.io_bytes, cost);
    const ScanGeometry g = scan_geometry(m, cost);
    if (g.spilled > 4)
        fail(label, "ssm_scan does not fit: the resident delta, u and accumulator need " +
                        std::to_string(static_cast<int64_t>(g.sbuf_bytes / 1024)) + " KiB of SBUF per partition, " +
                        std::to_string(static_cast<int64_t>(cost.target().sbuf_bytes_per_partition() / 1024)) +
                        " KiB available (variant v3 tiles the sequence)");
}

void spec_dwconv1d(const Workload& w, DType dtype, double b, const CostModel& cost, WorkloadSpec& spec) {
    const std::string& label = spec.label;
    spec.kind = WorkloadKind::dwconv1d;
    DwConvSpec& d = spec.dwconv;
    d.batch = w.batch;
    d.filter = w.filter;
    d.channels = w.channels;
    d.width = w.width;
    d.dtype = dtype;
    d.variant = named_variant<DwConvVariant>(label, "dwconv1d", w.variant,
                                             {{"per_position", DwConvVariant::per_position},
                                              {"windowed", DwConvVariant::windowed}})
                    .value_or(DwConvVariant::windowed);
    if (d.filter > d.width)
        fail(label, "filter " + std::to_string(d.filter) + " is wider than the input (" + std::to_string(d.width) + ")");
    spec.weight_bytes = static_cast<double>(d.channels * d.filter) * b;
    spec.io_bytes = spec.weight_bytes + 2 * static_cast<double>(d.batch * d.channels * d.width) * b;
    fits_device(label, spec.io_bytes, cost);
    if (dwconv_sbuf_required(d) > cost.target().sbuf_bytes_per_partition())
        fail(label, "dwconv1d does not fit: width " + std::to_string(d.width) + " needs " +
                        std::to_string(static_cast<int64_t>(dwconv_sbuf_required(d) / 1024)) +
                        " KiB of SBUF per partition");
}

}  // namespace

WorkloadSpec validate_workload(const Workload& given, const CostModel& cost) {
    // The shape is checked once, from the op table (workload_record.h), with
    // the op's defaults filled; the model adds only what it knows: what fits
    // the device and SBUF, which variants apply.
    const Workload w = with_defaults(given);
    nx::validate_workload(w);
    WorkloadSpec spec;
    spec.label = workload_label(w);
    const std::string& label = spec.label;
    auto dtype = parse_dtype(w.dtype);
    // Bytes per element; an MX element also carries its share of the block
    // scale (one byte per 32 elements).
    const double b = dtype_bits(*dtype) / 8.0 + (is_mx(*dtype) ? 1.0 / kMxBlockElements : 0);
    if (!cost.target().supports(*dtype)) fail(label, cost.target().why_unsupported(*dtype));
    spec.shard = w.shard != "none";

    using Lowering = void (*)(const Workload&, DType, double, const CostModel&, WorkloadSpec&);
    static constexpr std::pair<std::string_view, Lowering> kLowerings[] = {
        {"matmul", spec_matmul},
        {"mlp", spec_mlp},
        {"pattern", spec_pattern},
        {"elementwise", spec_elementwise},
        {"conv2d", spec_conv2d},
        {"pool2d", spec_pool2d},
        {"ssm_scan", spec_ssm_scan},
        {"dwconv1d", spec_dwconv1d},
    };
    for (const auto& [op, lower] : kLowerings)
        if (w.op == op) {
            lower(w, *dtype, b, cost, spec);
            return spec;
        }
    fail(label, "op '" + w.op + "' has no lowering in the model");  // the op table has it: add its lowering
    return spec;
}

}  // namespace nx::model
