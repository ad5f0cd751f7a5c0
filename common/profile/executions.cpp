#include "common/profile/executions.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace nx {

namespace {

// The value at quantile q of sorted values (nearest rank: p90 is a duration
// some execution took).
int64_t quantile(const std::vector<int64_t>& sorted, double q) {
    size_t k = static_cast<size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
    return sorted[std::min(k, sorted.size() - 1)];
}

// The engine as the Neuron docs name it (TensorE, VectorE ...).
const char* engine_name(Engine e) {
    switch (e) {
        case Engine::tensor: return "TensorE";
        case Engine::vector: return "VectorE";
        case Engine::scalar: return "ScalarE";
        case Engine::gpsimd: return "GpSimdE";
        case Engine::sync: return "SyncE";
        case Engine::dma: return "DMA";
        default: return "another engine";
    }
}

std::string signed_ns(int64_t ns) { return (ns >= 0 ? "+" : "-") + duration_text(ns >= 0 ? ns : -ns); }

}  // namespace

std::string what_changed(const ExecutionStat& slow, const ExecutionStat& median) {
    struct Part {
        const char* name;
        int64_t grew;
    };
    Part parts[] = {{"compute", slow.compute_ns - median.compute_ns},
                    {"collectives", (slow.collective_ns - slow.overlap_ns) - (median.collective_ns - median.overlap_ns)},
                    {"exposed DMA", slow.dma_exposed_ns - median.dma_exposed_ns},
                    {"idle", slow.idle_ns - median.idle_ns}};
    const Part* most = std::max_element(std::begin(parts), std::end(parts),
                                        [](const Part& a, const Part& b) { return a.grew < b.grew; });
    if (most->grew <= 0) return "";
    std::string out = std::string(most->name) + " " + signed_ns(most->grew);
    size_t engine = 0;
    int64_t grew = INT64_MIN;
    for (size_t k = 0; k < slow.busy_ns.size(); ++k)
        if (slow.busy_ns[k] - median.busy_ns[k] > grew) grew = slow.busy_ns[k] - median.busy_ns[k], engine = k;
    if (grew > 0) out += " (" + std::string(engine_name(kExecutionEngines[engine])) + " busy " + signed_ns(grew) + ")";
    return out;
}

std::string duration_text(int64_t ns) {
    char buf[32];
    double v = static_cast<double>(ns);
    if (ns < 1000) std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    else if (ns < 1000000) std::snprintf(buf, sizeof buf, "%.2f us", v / 1e3);
    else if (ns < 1000000000) std::snprintf(buf, sizeof buf, "%.2f ms", v / 1e6);
    else std::snprintf(buf, sizeof buf, "%.2f s", v / 1e9);
    return buf;
}

ExecutionDigest digest_executions(const std::vector<ExecutionStat>& executions) {
    ExecutionDigest d;
    d.count = static_cast<int64_t>(executions.size());
    std::map<std::string, std::vector<const ExecutionStat*>> by_neff;
    for (const ExecutionStat& x : executions) by_neff[x.window.neff].push_back(&x);
    for (auto& [neff, list] : by_neff) {
        std::vector<const ExecutionStat*> sorted = list;
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const ExecutionStat* a, const ExecutionStat* b) { return a->dur_ns() < b->dur_ns(); });
        std::vector<int64_t> durations;
        for (const ExecutionStat* x : sorted) durations.push_back(x->dur_ns());
        // The median of an even count is the mean of the middle two.
        size_t n = durations.size();
        int64_t median_ns = n % 2 ? durations[n / 2] : (durations[n / 2 - 1] + durations[n / 2]) / 2;
        NeffSpread s{neff, static_cast<int64_t>(n), durations.front(), median_ns, quantile(durations, 0.9), durations.back()};
        d.neffs.push_back(s);
        if (list.size() < 3 || s.median_ns <= 0) continue;
        const ExecutionStat& median = *sorted[(sorted.size() - 1) / 2];
        for (const ExecutionStat* x : list)
            if (static_cast<double>(x->dur_ns()) >= kSlowExecutionRatio * static_cast<double>(s.median_ns))
                d.slow.push_back({x->window.index, neff, x->window.start_ns, x->dur_ns(), s.median_ns,
                                  what_changed(*x, median)});
    }
    std::stable_sort(d.neffs.begin(), d.neffs.end(),
                     [](const NeffSpread& a, const NeffSpread& b) { return a.executions > b.executions; });
    std::stable_sort(d.slow.begin(), d.slow.end(), [](const SlowExecution& a, const SlowExecution& b) {
        return static_cast<double>(a.dur_ns) / static_cast<double>(a.median_ns) >
               static_cast<double>(b.dur_ns) / static_cast<double>(b.median_ns);
    });
    if (d.slow.size() > kMaxSlowExecutions) d.slow.resize(kMaxSlowExecutions);
    return d;
}

}  // namespace nx
