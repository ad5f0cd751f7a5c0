// The executions of a session compared across ranks (iterations_across_ranks.h).
#include "common/report/iterations_across_ranks.h"

#include <algorithm>
#include <map>

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
        for (const auto& [row, d] : by_row) {
            if (k >= d.size()) continue;
            durs.push_back(d[k].dur_ns);
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
        std::vector<ExecutionWindow> windows;
        for (const ExecutionStat& e : a.rows[i].profile->summary.executions) windows.push_back(e.window);
        std::stable_sort(windows.begin(), windows.end(),
                         [](const ExecutionWindow& x, const ExecutionWindow& y) { return x.index < y.index; });
        for (const ExecutionWindow& w : windows)
            by_neff[w.neff][i].push_back({w.index, static_cast<double>(w.end_ns - w.start_ns)});
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
