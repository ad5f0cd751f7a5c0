// The fit behind `make calibrate`: the free parameters (ModelParams) that
// minimise the sum of squared log errors of the fit points' latencies
// (Levenberg-Marquardt over the parameters' logarithms, within their bounds,
// finite-difference Jacobian), then the same fit once per fit point without
// that point (leave-one-out: how well the model predicts a point it was not
// fitted on), and fitted_params.inc written for the model to compile in.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "common/io/atomic_file.h"
#include "common/io/error.h"
#include "common/model/calibration.h"
#include "common/model/fitted.h"
#include "common/model/sim.h"

namespace nx::model {

namespace {

constexpr size_t kParamCount = 5;
// A weak prior: the kernel fixed cost of NC-v3 is the NC-v2 one unless the
// points say otherwise (a factor of 2 between them costs as much as one point
// 30% off).  Without it a fit without one of the two trn2 points has
// nothing to hold fixed_ns_v3 to the other generation.
constexpr double kFixedCostPrior = 0.38;
using Vec = std::array<double, kParamCount>;

// A fit point as the fit evaluates it: the workload (an `auto` matmul pinned
// to the variant the starting parameters choose, so the objective is smooth
// and each evaluation simulates one kernel), its target, its latency in ns.
struct FitPoint {
    Workload workload;
    const Target* target;
    double published_ns;
    size_t index;  // in the points list
};

double latency_ns(const std::pair<std::string, double>& m) { return m.first == "latency_ms" ? m.second * 1e6 : m.second * 1e3; }

ModelParams to_params(const Vec& x) {
    ModelParams p;
    auto info = model_param_info();
    for (size_t i = 0; i < kParamCount; ++i) p.*(info[i].field) = std::exp(x[i]);
    return p;
}

Vec to_vec(const ModelParams& p) {
    Vec x;
    auto info = model_param_info();
    for (size_t i = 0; i < kParamCount; ++i) x[i] = std::log(p.*(info[i].field));
    return x;
}

void clamp(Vec& x) {
    auto info = model_param_info();
    for (size_t i = 0; i < kParamCount; ++i) x[i] = std::clamp(x[i], std::log(info[i].lower), std::log(info[i].upper));
}

class Fitter {
public:
    explicit Fitter(std::vector<FitPoint> pts) : pts_(std::move(pts)) {}

    double residual(const FitPoint& p, const ModelParams& params) {
        ++evaluations;
        return std::log(simulate(p.workload, *p.target, nullptr, params).latency_ns / p.published_ns);
    }

    // Squared log error over the points except `skip`, with residuals; the
    // last residual is the prior tying the two generations' fixed costs.
    double cost(const Vec& x, size_t skip, std::vector<double>& r) {
        ModelParams params = to_params(x);
        r.assign(pts_.size() + 1, 0.0);
        double c = 0;
        for (size_t i = 0; i < pts_.size(); ++i) {
            if (i == skip) continue;
            r[i] = residual(pts_[i], params);
            c += r[i] * r[i];
        }
        r.back() = kFixedCostPrior * std::log(params.fixed_ns_v3 / params.fixed_ns_v2);
        return c + r.back() * r.back();
    }

    Vec fit(Vec x, size_t skip) {
        constexpr double kStep = 0.01;       // finite-difference step in log space (1%)
        constexpr int kIterations = 40;
        std::vector<double> r, rh;
        double c = cost(x, skip, r);
        double lambda = 1e-2;
        for (int it = 0; it < kIterations; ++it) {
            // Jacobian of the residuals.
            std::vector<Vec> J(r.size(), Vec{});
            for (size_t k = 0; k < kParamCount; ++k) {
                Vec xh = x;
                xh[k] += kStep;
                cost(xh, skip, rh);
                for (size_t i = 0; i < r.size(); ++i) J[i][k] = (rh[i] - r[i]) / kStep;
            }
            std::array<Vec, kParamCount> A{};
            Vec g{};
            for (size_t i = 0; i < r.size(); ++i) {
                if (i == skip) continue;
                for (size_t a = 0; a < kParamCount; ++a) {
                    g[a] += J[i][a] * r[i];
                    for (size_t b = 0; b < kParamCount; ++b) A[a][b] += J[i][a] * J[i][b];
                }
            }
            bool improved = false;
            for (int tries = 0; tries < 8 && !improved; ++tries) {
                Vec step = solve(A, g, lambda);
                Vec xn = x;
                for (size_t k = 0; k < kParamCount; ++k) xn[k] -= step[k];
                clamp(xn);
                std::vector<double> rn;
                double cn = cost(xn, skip, rn);
                if (cn < c) {
                    const double gain = c - cn;
                    x = xn;
                    r = rn;
                    c = cn;
                    lambda = std::max(lambda / 3, 1e-6);
                    improved = true;
                    if (gain < 1e-7 * (1 + c)) return x;
                } else {
                    lambda *= 4;
                }
            }
            if (!improved) break;
        }
        return x;
    }

    double predict(const Vec& x, size_t i) { return residual(pts_[i], to_params(x)); }
    const std::vector<FitPoint>& points() const { return pts_; }
    int evaluations = 0;

private:
    // (A + lambda diag(A) + tiny I) step = g by Gaussian elimination; the tiny
    // ridge keeps a parameter no remaining point depends on where it is.
    static Vec solve(std::array<Vec, kParamCount> A, Vec g, double lambda) {
        for (size_t k = 0; k < kParamCount; ++k) A[k][k] += lambda * A[k][k] + 1e-9;
        for (size_t c = 0; c < kParamCount; ++c) {
            size_t piv = c;
            for (size_t r = c + 1; r < kParamCount; ++r)
                if (std::fabs(A[r][c]) > std::fabs(A[piv][c])) piv = r;
            std::swap(A[c], A[piv]);
            std::swap(g[c], g[piv]);
            for (size_t r = c + 1; r < kParamCount; ++r) {
                const double f = A[r][c] / A[c][c];
                for (size_t k = c; k < kParamCount; ++k) A[r][k] -= f * A[c][k];
                g[r] -= f * g[c];
            }
        }
        Vec x{};
        for (size_t c = kParamCount; c-- > 0;) {
            double s = g[c];
            for (size_t k = c + 1; k < kParamCount; ++k) s -= A[c][k] * x[k];
            x[c] = s / A[c][c];
        }
        return x;
    }

    std::vector<FitPoint> pts_;
};

static_assert(sizeof(ModelParams) == kParamCount * sizeof(double), "one ParamInfo per ModelParams field");

}  // namespace

CalibrationReport fit_calibration(const std::vector<CalibrationPoint>& points) {
    if (model_param_info().size() != kParamCount) throw std::logic_error("model: parameter table and fit disagree");
    std::vector<FitPoint> fit_points;
    for (size_t i = 0; i < points.size(); ++i) {
        const CalibrationPoint& p = points[i];
        if (p.set != "fit") continue;
        FitPoint f{p.workload, find_target(p.target), 0, i};
        for (const auto& m : p.published)
            if (m.first == "latency_ms" || m.first == "latency_us") f.published_ns = latency_ns(m);
        if (f.workload.op == "matmul" && (f.workload.variant.empty() || f.workload.variant == "auto"))
            f.workload.variant = simulate(f.workload, *f.target).variant;
        fit_points.push_back(std::move(f));
    }
    if (fit_points.empty()) throw Error("no fit points in the calibration data (set \"fit\")");

    Fitter fitter(fit_points);
    Vec start = to_vec(fitted_params());
    clamp(start);
    const size_t none = fit_points.size();
    Vec best = fitter.fit(start, none);
    // Leave one out: refit without each point (from the full fit) and predict it.
    std::vector<double> loo(points.size(), NAN);
    double loo_sum = 0;
    for (size_t i = 0; i < fit_points.size(); ++i) {
        Vec x = fitter.fit(best, i);
        const double e = 100.0 * (std::exp(fitter.predict(x, i)) - 1);
        loo[fit_points[i].index] = e;
        loo_sum += std::fabs(e);
    }

    CalibrationReport report = evaluate_calibration(points, to_params(best));
    report.fitted = true;
    report.evaluations = fitter.evaluations;
    report.loo_mean_percent = loo_sum / static_cast<double>(fit_points.size());
    for (CalibrationRow& r : report.rows)
        if (r.latency && r.set == "fit")
            for (size_t i = 0; i < points.size(); ++i)
                if (points[i].name == r.name) r.loo_error_percent = loo[i];
    report.goals_met = report.goals_met && report.loo_mean_percent <= kGoalLooPercent;
    return report;
}

void write_fitted_params(const CalibrationReport& report, const std::string& data_file, const std::string& path) {
    std::string text =
        "// Generated by `make calibrate` from " + data_file +
        ": do not edit by hand\n"
        "// (nx-sim(7), CALIBRATION).  Compiled into the model by fitted.cpp.\n"
        "// NX_PARAM(name, value)\n";
    char line[512];
    for (const ParamInfo& p : model_param_info()) {
        std::snprintf(line, sizeof line, "NX_PARAM(%s, %.9g)  // %s%s%s\n", p.name, report.params.*p.field, p.what,
                      *p.unit ? ", " : "", p.unit);
        text += line;
    }
    std::snprintf(line, sizeof line,
                  "// Fit: %d model evaluations; latency |error| mean %.1f%% (fit %.1f%%, held out %.1f%%), leave-one-out "
                  "mean %.1f%%.\n",
                  report.evaluations, report.mean_abs_error_percent, report.fit_mean_percent, report.held_out_mean_percent,
                  report.loo_mean_percent);
    text += line;
    text += "// NX_RESIDUAL(point, op family, target, dtype, lnc, lanes, set, latency error percent)  [// leave-one-out error]\n";
    for (const CalibrationRow& r : report.rows) {
        if (!r.latency) continue;
        std::snprintf(line, sizeof line, "NX_RESIDUAL(\"%s\", \"%s\", \"%s\", \"%s\", %d, %d, \"%s\", %.2f)", r.name.c_str(),
                      r.family.c_str(), r.target.c_str(), r.dtype.c_str(), r.lnc, r.lanes, r.set.c_str(), r.error_percent);
        text += line;
        if (std::isfinite(r.loo_error_percent)) {
            std::snprintf(line, sizeof line, "  // leave-one-out %+.1f%%", r.loo_error_percent);
            text += line;
        }
        text += '\n';
    }
    // Unchanged parameters and residuals leave the file (and the build) alone.
    std::ifstream old(path);
    std::string current((std::istreambuf_iterator<char>(old)), std::istreambuf_iterator<char>());
    if (current == text) return;
    AtomicFile file(path);
    file.out().write(text);
    file.commit();
}

}  // namespace nx::model
