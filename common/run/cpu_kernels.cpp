#include "common/run/cpu_kernels.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/run/openblas.h"
#include "common/workload/for_loop_size.h"

namespace nx {

namespace {

// Host memory a cpu workload may allocate (NX_CPU_MAX_BYTES overrides).
constexpr double kDefaultMaxBytes = 8.0 * 1024 * 1024 * 1024;
constexpr float kVmapBias = 0.1f;  // f(x) = relu(sum(x * x)) + 0.1 (the pattern study)

double max_bytes() {
    const char* env = std::getenv("NX_CPU_MAX_BYTES");
    return env && *env ? std::strtod(env, nullptr) : kDefaultMaxBytes;
}

void check_memory(const Workload& w, double floats) {
    double bytes = floats * sizeof(float);
    if (bytes > max_bytes()) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "needs %.2f GiB of host memory (limit %.2f GiB; set NX_CPU_MAX_BYTES)",
                      bytes / (1024.0 * 1024 * 1024), max_bytes() / (1024.0 * 1024 * 1024));
        throw Error(w.name + ": " + msg);
    }
}

// Deterministic, bounded values (a tiny LCG) so runs are comparable.
std::vector<float> filled(size_t n, uint32_t seed) {
    std::vector<float> v(n);
    uint32_t s = seed * 2654435761u + 1;
    for (float& x : v) {
        s = s * 1664525u + 1013904223u;
        x = static_cast<float>(s >> 8) / static_cast<float>(1u << 24) - 0.5f;
    }
    return v;
}

// Times an op and reports it to the recorder, if any.
template <typename F>
void run_op(OpRecorder* rec, std::string_view name, std::string_view layer, double flops, F&& f) {
    if (!rec) {
        f();
        return;
    }
    int64_t t0 = now_ns();
    f();
    rec->op(name, layer, t0, now_ns(), flops);
}

void sgemm(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c, bool b_transposed = false) {
    openblas_sgemm(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), a, b, c, b_transposed);
}

class Matmul : public CpuProgram {
public:
    explicit Matmul(const Workload& w) : w_(w) {
        check_memory(w, static_cast<double>(w.M) * w.K + static_cast<double>(w.K) * w.N + static_cast<double>(w.M) * w.N);
        a_ = filled(static_cast<size_t>(w.M * w.K), 1);
        b_ = filled(static_cast<size_t>(w.K * w.N), 2);
        c_.assign(static_cast<size_t>(w.M * w.N), 0);
    }
    void execute(OpRecorder* rec) override {
        run_op(rec, "sgemm", "matmul", 2.0 * w_.M * w_.N * w_.K,
               [&] { sgemm(w_.M, w_.N, w_.K, a_.data(), b_.data(), c_.data()); });
    }

private:
    Workload w_;
    std::vector<float> a_, b_, c_;
};

class Mlp : public CpuProgram {
public:
    explicit Mlp(const Workload& w) : w_(w), t_(w.batch * w.seq) {
        check_memory(w, static_cast<double>(t_) * w.hidden * 2 + 3.0 * w.hidden * w.intermediate +
                            3.0 * static_cast<double>(t_) * w.intermediate);
        x_ = filled(static_cast<size_t>(t_ * w.hidden), 3);
        wg_ = filled(static_cast<size_t>(w.hidden * w.intermediate), 4);
        wu_ = filled(static_cast<size_t>(w.hidden * w.intermediate), 5);
        wd_ = filled(static_cast<size_t>(w.intermediate * w.hidden), 6);
        g_.assign(static_cast<size_t>(t_ * w.intermediate), 0);
        u_ = g_;
        y_.assign(static_cast<size_t>(t_ * w.hidden), 0);
    }
    void execute(OpRecorder* rec) override {
        int64_t h = w_.hidden, i = w_.intermediate;
        double proj = 2.0 * t_ * h * i;
        run_op(rec, "sgemm", "mlp/gate_proj", proj, [&] { sgemm(t_, i, h, x_.data(), wg_.data(), g_.data()); });
        run_op(rec, "sgemm", "mlp/up_proj", proj, [&] { sgemm(t_, i, h, x_.data(), wu_.data(), u_.data()); });
        run_op(rec, "silu", "mlp/act", 0, [&] {
            for (float& v : g_) v = v / (1.0f + std::exp(-v));
        });
        run_op(rec, "mul", "mlp/mul", 0, [&] {
            for (size_t k = 0; k < g_.size(); ++k) g_[k] *= u_[k];
        });
        run_op(rec, "sgemm", "mlp/down_proj", proj, [&] { sgemm(t_, h, i, g_.data(), wd_.data(), y_.data()); });
    }

private:
    Workload w_;
    int64_t t_;
    std::vector<float> x_, wg_, wu_, wd_, g_, u_, y_;
};

// The pattern study's graphs on the host (same math as the study's PyTorch).
class Pattern : public CpuProgram {
public:
    explicit Pattern(const Workload& w) : w_(w) {
        int64_t rows = w.pattern == "vmap" || w.pattern == "scan" ? w.iterations * w.batch : w.batch;
        check_memory(w, static_cast<double>(rows) * w.features + static_cast<double>(w.batch) * w.batch);
        x_ = filled(static_cast<size_t>(rows * w.features), 7);
        scratch_.assign(static_cast<size_t>(std::max(w.batch * w.batch, rows)), 0);
        trips_ = std::max<int64_t>(for_loop_trips(w.size.empty() ? "small" : w.size, w.iterations), 1);
    }
    void execute(OpRecorder* rec) override {
        const int64_t b = w_.batch, f = w_.features;
        if (w_.pattern == "vmap") {
            // One batched graph over [iterations, batch, features].
            int64_t rows = w_.iterations * b;
            run_op(rec, "square_reduce", "vmap/sum_sq", 2.0 * rows * f, [&] {
                for (int64_t r = 0; r < rows; ++r) {
                    float s = 0;
                    for (int64_t c = 0; c < f; ++c) s += x_[r * f + c] * x_[r * f + c];
                    scratch_[r] = s;
                }
            });
            run_op(rec, "relu_add", "vmap/relu", static_cast<double>(rows), [&] {
                for (int64_t r = 0; r < rows; ++r) scratch_[r] = std::max(scratch_[r], 0.0f) + kVmapBias;
            });
        } else if (w_.pattern == "scan") {
            // carry, x -> (carry + sum(x), carry + sum(x) + sum(x @ x.T)), state carried.
            float carry = 0;
            for (int64_t it = 0; it < w_.iterations; ++it) {
                const float* xi = x_.data() + it * b * f;
                std::string layer = "scan/iter" + std::to_string(it);
                float s = 0, t = 0;
                run_op(rec, "reduce_sum", layer, static_cast<double>(b * f), [&] {
                    for (int64_t k = 0; k < b * f; ++k) s += xi[k];
                });
                run_op(rec, "sgemm", layer, 2.0 * b * b * f, [&] { sgemm(b, b, f, xi, xi, scratch_.data(), true); });
                run_op(rec, "reduce_sum", layer, static_cast<double>(b * b), [&] {
                    for (int64_t k = 0; k < b * b; ++k) t += scratch_[k];
                });
                out_ = carry + s + t;
                carry += s;
            }
        } else {
            // for_loop: result += mean(data[i % batch]), one sync at the end;
            // for_loop_launch: the same body, each iteration its own launch.
            // Every size runs this (the study's small) body for its trips;
            // the sim lowers the heavier medium and large bodies.
            float result = 0;
            for (int64_t i = 0; i < trips_; ++i) {
                const float* row = x_.data() + (i % b) * f;
                run_op(rec, "mean", w_.pattern + "/iter" + std::to_string(i), static_cast<double>(f), [&] {
                    float s = 0;
                    for (int64_t c = 0; c < f; ++c) s += row[c];
                    result += s / static_cast<float>(f);
                });
            }
            out_ = result;
        }
    }

private:
    Workload w_;
    std::vector<float> x_, scratch_;
    int64_t trips_ = 0;
    volatile float out_ = 0;  // keeps the loops from being optimised away
};

class Elementwise : public CpuProgram {
public:
    explicit Elementwise(const Workload& w) : w_(w) {
        check_memory(w, 3.0 * static_cast<double>(w.rows) * w.cols);
        a_ = filled(static_cast<size_t>(w.rows * w.cols), 8);
        b_ = filled(static_cast<size_t>(w.rows * w.cols), 9);
        c_.assign(a_.size(), 0);
        static const char* kOps[] = {"add", "mul", "exp", "relu", "gelu", "copy", "reduce_sum"};
        bool known = false;
        for (const char* k : kOps) known = known || w.opname == k;
        if (!known) throw Error(w.name + ": unknown elementwise op '" + w.opname + "' for the cpu backend");
    }
    void execute(OpRecorder* rec) override {
        const std::string& op = w_.opname;
        run_op(rec, op, "elementwise", static_cast<double>(a_.size()), [&] {
            size_t n = a_.size();
            if (op == "add") for (size_t i = 0; i < n; ++i) c_[i] = a_[i] + b_[i];
            else if (op == "mul") for (size_t i = 0; i < n; ++i) c_[i] = a_[i] * b_[i];
            else if (op == "exp") for (size_t i = 0; i < n; ++i) c_[i] = std::exp(a_[i]);
            else if (op == "relu") for (size_t i = 0; i < n; ++i) c_[i] = std::max(a_[i], 0.0f);
            else if (op == "gelu")
                for (size_t i = 0; i < n; ++i) c_[i] = 0.5f * a_[i] * (1.0f + std::erf(a_[i] / std::sqrt(2.0f)));
            else if (op == "copy") std::copy(a_.begin(), a_.end(), c_.begin());
            else if (op == "reduce_sum")
                for (int64_t r = 0; r < w_.rows; ++r) {
                    float s = 0;
                    for (int64_t k = 0; k < w_.cols; ++k) s += a_[static_cast<size_t>(r * w_.cols + k)];
                    c_[static_cast<size_t>(r)] = s;
                }
        });
    }

private:
    Workload w_;
    std::vector<float> a_, b_, c_;
};

}  // namespace

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::unique_ptr<CpuProgram> prepare_cpu_program(const Workload& w) {
    if (w.op == "matmul") return std::make_unique<Matmul>(w);
    if (w.op == "mlp") return std::make_unique<Mlp>(w);
    if (w.op == "pattern") return std::make_unique<Pattern>(w);
    if (w.op == "elementwise") return std::make_unique<Elementwise>(w);
    throw Error(w.name + ": the cpu backend cannot run op '" + w.op + "'");
}

}  // namespace nx
