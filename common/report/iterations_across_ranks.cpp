// The executions of a session compared across ranks (iterations_across_ranks.h).
#include "common/report/iterations_across_ranks.h"

#include <algorithm>
#include <map>
#include <utility>

#include "common/profile/executions.h"

namespace nx {

namespace {

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

NeffAcrossRanks compare_iterations(const std::string& neff, const RunsByRow& by_row, size_t rows) {
    NeffAcrossRanks n;
    n.neff = neff;
    n.ranks = by_row.size();
    n.slowest_count.assign(rows, 0);
    size_t longest = 0;
    for (const auto& [row, durs] : by_row) longest = std::max(longest, durs.size());
    std::vector<IterationAcrossRanks> every;
    for (size_t k = 0; k < longest; ++k) {
        IterationAcrossRanks it;
        it.ordinal = k;
        std::vector<double> durs;
        std::vector<std::pair<size_t, const ExecutionRun*>> runs;  // (row, its k-th run)
        for (const auto& [row, d] : by_row) {
            if (k >= d.size()) continue;
            durs.push_back(d[k].dur_ns);
            runs.emplace_back(row, &d[k]);
            // Ties go to the lower row, so the answer does not depend on order.
            if (durs.size() == 1 || d[k].dur_ns > it.slowest_ns) {
                it.slowest_ns = d[k].dur_ns;
                it.slowest_row = row;
                it.slowest_index = d[k].index;
            }
        }
        if (durs.size() < 2) continue;
        ++n.iterations;
        it.ranks = durs.size();
        it.median_ns = median_of(durs);
        // An iteration every rank took as long as the median has no slowest.
        if (it.slowest_ns <= it.median_ns) continue;
        ++n.slowest_count[it.slowest_row];
        // The median rank's execution, as a session's own slow executions
        // are compared with their NEFF's median one.
        std::stable_sort(runs.begin(), runs.end(), [](const auto& x, const auto& y) { return x.second->dur_ns < y.second->dur_ns; });
        const auto& [median_row, median_run] = runs[(runs.size() - 1) / 2];
        it.median_row = median_row;
        const ExecutionRun& slowest = *std::find_if(runs.begin(), runs.end(), [&](const auto& r) {
                                           return r.first == it.slowest_row;
                                       })->second;
        if (slowest.stat && median_run->stat) it.changed = what_changed(*slowest.stat, *median_run->stat);
        every.push_back(it);
    }
    for (size_t r = 0; r < rows; ++r)
        if (n.slowest_count[r] > n.most_often_count) {
            n.most_often_count = n.slowest_count[r];
            n.most_often_row = r;
        }
    std::stable_sort(every.begin(), every.end(), [](const IterationAcrossRanks& x, const IterationAcrossRanks& y) {
        return x.over_median() > y.over_median();
    });
    if (every.size() > kWorstIterations) every.resize(kWorstIterations);
    n.worst = std::move(every);
    return n;
}

}  // namespace

std::map<std::string, RunsByRow> executions_by_neff(const RankAnalysis& a) {
    std::map<std::string, RunsByRow> by_neff;
    for (size_t i = 0; i < a.rows.size(); ++i) {
        std::vector<const ExecutionStat*> executions;
        for (const ExecutionStat& e : a.rows[i].profile->summary.executions) executions.push_back(&e);
        std::stable_sort(executions.begin(), executions.end(),
                         [](const ExecutionStat* x, const ExecutionStat* y) { return x->window.index < y->window.index; });
        for (const ExecutionStat* e : executions)
            by_neff[e->window.neff][i].push_back({e->window.index, static_cast<double>(e->dur_ns()), e});
    }
    return by_neff;
}

std::vector<NeffAcrossRanks> iterations_across_ranks(const RankAnalysis& a) {
    std::vector<NeffAcrossRanks> out;
    for (const auto& [neff, by_row] : executions_by_neff(a))
        if (by_row.size() >= 2) out.push_back(compare_iterations(neff, by_row, a.rows.size()));
    return out;
}

}  // namespace nx
