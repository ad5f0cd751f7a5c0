#include "common/report/rank_analysis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>

#include "common/format/units.h"
#include "common/import/runtime_path.h"
#include "common/profile/profile_record.h"
#include "common/report/compare_report.h"

namespace nx {

namespace {

double median_of(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The window of steps a profile marks: "10-12" (its first and last
// iteration's), "10" for one, "" for none.
std::string steps_of(const ProfileSummary& s) {
    int64_t first = s.first_step(), last = s.last_step();
    if (first < 0) return "";
    return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

// Who started a collective last, and how far after the first: the rank
// (an index into the starts, the first of equal ones) and the spread, 0
// when every rank started it together.  One rule whether a collective
// counts alone or for its iteration.
struct LatestStart {
    size_t latest = 0;
    double spread = 0;
};
LatestStart latest_start(const std::vector<double>& starts) {
    LatestStart out;
    double lo = starts[0];
    for (size_t i = 1; i < starts.size(); ++i) {
        lo = std::min(lo, starts[i]);
        if (starts[i] > starts[out.latest]) out.latest = i;
    }
    out.spread = starts[out.latest] - lo;
    return out;
}

// The iteration (an index into s.iterations) whose span holds time t, if any.
std::optional<size_t> iteration_at(const ProfileSummary& s, int64_t t) {
    auto after = std::upper_bound(s.iterations.begin(), s.iterations.end(), t,
                                  [](int64_t x, const Iteration& it) { return x < it.start_ns; });
    if (after == s.iterations.begin()) return std::nullopt;
    const Iteration& it = *(after - 1);
    if (t >= it.start_ns + it.dur_ns) return std::nullopt;
    return static_cast<size_t>(after - 1 - s.iterations.begin());
}

// HTA's count, where every rank marks its iterations (ProfilerStep#N): in
// each iteration, the significant collective whose start varies most
// across the ranks (starts from each rank's own start of that iteration),
// and the rank that starts it last.  Returns false (and changes nothing)
// when no collective falls in an iteration of the same step on every rank.
// Each rank's matched collectives: matched[rank][k] is the k-th match.
using MatchedOps = std::vector<std::vector<const CollectiveOp*>>;

bool count_by_iteration(RankAnalysis& a, const MatchedOps& matched, const std::vector<size_t>& significant) {
    for (const RankRow& r : a.rows)
        if (r.profile->summary.iterations.empty()) return false;
    struct Worst {
        double spread = -1;
        size_t latest = 0, op = 0;
    };
    std::map<int64_t, Worst> by_step;
    for (size_t k : significant) {
        std::optional<int64_t> step;
        std::vector<double> starts;
        for (size_t ri = 0; ri < a.rows.size(); ++ri) {
            const ProfileSummary& sum = a.rows[ri].profile->summary;
            int64_t t = matched[ri][k]->start_ns;
            std::optional<size_t> i = iteration_at(sum, t);
            if (!i || (step && *step != sum.iterations[*i].step)) {
                step.reset();
                break;
            }
            step = sum.iterations[*i].step;
            starts.push_back(static_cast<double>(t - sum.iterations[*i].start_ns));
        }
        if (!step) continue;
        LatestStart last = latest_start(starts);
        if (last.spread <= 0) continue;  // every rank started it together
        Worst& w = by_step[*step];
        if (last.spread > w.spread) w = {last.spread, last.latest, k};
    }
    if (by_step.empty()) return false;
    for (RankRow& r : a.rows) r.latest_count = 0;
    double best = -1;
    for (const auto& [step, w] : by_step) {
        ++a.rows[w.latest].latest_count;
        if (w.spread > best) {
            best = w.spread;
            a.most_variable = matched[0][w.op]->name + " #" + std::to_string(w.op + 1) +
                              " (step " + std::to_string(step) + ")";
            a.start_spread_ns = w.spread;
            a.straggler = static_cast<int>(w.latest);
        }
    }
    a.iterations = by_step.size();
    return true;
}

// The job's size where every rank's profile says it (a PyTorch trace's
// distributedInfo.world_size, the same on all), and the ranks below it no
// profile is of.
void find_missing_ranks(RankAnalysis& a) {
    int64_t size = -1;
    for (const RankRow& r : a.rows) {
        if (r.profile->info.carried_json.find("\"distributed\"") == std::string::npos) return;
        rapidjson::Document carried = carried_document(r.profile->info);
        auto d = carried.FindMember("distributed");
        if (d == carried.MemberEnd() || !d->value.IsObject()) return;
        auto w = d->value.FindMember("world_size");
        if (w == d->value.MemberEnd() || !w->value.IsInt64() || w->value.GetInt64() < 1) return;
        if (size >= 0 && size != w->value.GetInt64()) return;
        size = w->value.GetInt64();
    }
    // A rank at or past the size, or a size past any job's, and the traces
    // contradict themselves: nothing is claimed.
    if (size < 0 || size > (int64_t{1} << 20)) return;
    for (const RankRow& r : a.rows)
        if (r.rank >= size) return;
    a.world_size = size;
    std::vector<bool> seen(static_cast<size_t>(size), false);
    for (const RankRow& r : a.rows) seen[static_cast<size_t>(r.rank)] = true;
    for (size_t k = 0; k < seen.size(); ++k)
        if (!seen[k]) a.missing_ranks.push_back(static_cast<int>(k));
}

// The ranks' collectives matched to each other: by process group and
// sequence number where every rank's operations all say them (a
// communication kernel's, kernel_collectives.h), in the first rank's order;
// else by position, as far as the names agree.  Empty, with the reason in
// a.unmatched_reason, when nothing matches.
MatchedOps match_ops(RankAnalysis& a) {
    MatchedOps matched(a.rows.size());
    size_t common = std::numeric_limits<size_t>::max();
    for (const RankRow& r : a.rows) common = std::min(common, r.profile->summary.collectives.size());
    if (a.rows.size() < 2 || common == 0 || common == std::numeric_limits<size_t>::max()) {
        a.unmatched_reason = a.rows.size() < 2 ? "one rank" : "a rank has no collective operations";
        return {};
    }
    bool by_seq = true;
    for (const RankRow& r : a.rows)
        for (const CollectiveOp& op : r.profile->summary.collectives) by_seq = by_seq && op.seq >= 0;
    const std::vector<CollectiveOp>& first = a.rows[0].profile->summary.collectives;
    if (by_seq) {
        using Key = std::pair<std::string_view, int64_t>;
        std::vector<std::map<Key, const CollectiveOp*>> at(a.rows.size());
        for (size_t ri = 0; ri < a.rows.size(); ++ri)
            for (const CollectiveOp& op : a.rows[ri].profile->summary.collectives) at[ri].emplace(Key{op.group, op.seq}, &op);
        for (const CollectiveOp& op : first) {
            std::vector<const CollectiveOp*> row;
            for (size_t ri = 0; ri < a.rows.size(); ++ri) {
                auto it = at[ri].find(Key{op.group, op.seq});
                if (it == at[ri].end() || it->second->name != op.name) break;
                row.push_back(it->second);
            }
            if (row.size() != a.rows.size()) continue;
            for (size_t ri = 0; ri < a.rows.size(); ++ri) matched[ri].push_back(row[ri]);
        }
        if (matched[0].empty()) {
            a.unmatched_reason = "no process group and sequence number is on every rank";
            return {};
        }
        return matched;
    }
    size_t n = 0;
    while (n < common) {
        bool same = true;
        for (const RankRow& r : a.rows) same = same && r.profile->summary.collectives[n].name == first[n].name;
        if (!same) break;
        for (size_t ri = 0; ri < a.rows.size(); ++ri) matched[ri].push_back(&a.rows[ri].profile->summary.collectives[n]);
        ++n;
    }
    if (n == 0) {
        a.unmatched_reason = "the ranks' first collective operations differ (" + first[0].name + " on rank " +
                             std::to_string(a.rows[0].rank) + ")";
        return {};
    }
    return matched;
}

// Matches the ranks' collectives (match_ops); sets wait, latest counts and
// the straggler when they match.
void match_collectives(RankAnalysis& a) {
    const MatchedOps matched = match_ops(a);
    if (matched.empty()) return;
    const size_t n = matched[0].size();
    bool shared_clock = true;
    int64_t job_start = std::numeric_limits<int64_t>::max();
    for (const RankRow& r : a.rows) {
        shared_clock = shared_clock && r.profile->summary.device.has_value();
        job_start = std::min(job_start, r.profile->summary.start_ns);
    }
    a.matched = n;
    for (RankRow& r : a.rows) r.wait_ns = 0;
    std::vector<double> totals;
    for (const RankRow& r : a.rows) totals.push_back(static_cast<double>(r.collective_ns));
    double significant_ns = 0.01 * median_of(totals);
    double best_spread = -1;
    std::vector<size_t> significant;
    for (size_t k = 0; k < n; ++k) {
        int64_t shortest = std::numeric_limits<int64_t>::max();
        std::vector<double> durations;
        for (size_t ri = 0; ri < a.rows.size(); ++ri) {
            const CollectiveOp& op = *matched[ri][k];
            shortest = std::min(shortest, op.dur_ns);
            durations.push_back(static_cast<double>(op.dur_ns));
        }
        for (size_t ri = 0; ri < a.rows.size(); ++ri) a.rows[ri].wait_ns += matched[ri][k]->dur_ns - shortest;
        if (median_of(durations) < significant_ns) continue;
        ++a.significant;
        significant.push_back(k);
        // Start times normalised to each rank's own start: clocks of two
        // devices need not agree, a rank's distance from its start does.
        // PyTorch traces of device streams share the hosts' clock, as HTA
        // takes them: their starts compare as they are.
        std::vector<double> starts;
        for (size_t ri = 0; ri < a.rows.size(); ++ri)
            starts.push_back(static_cast<double>(matched[ri][k]->start_ns -
                                                 (shared_clock ? job_start : a.rows[ri].profile->summary.start_ns)));
        LatestStart last = latest_start(starts);
        if (last.spread <= 0) continue;  // every rank started it together: nobody late
        ++a.rows[last.latest].latest_count;
        if (last.spread > best_spread) {
            best_spread = last.spread;
            a.most_variable = matched[0][k]->name + " #" + std::to_string(k + 1);
            a.start_spread_ns = last.spread;
            a.straggler = static_cast<int>(last.latest);
        }
    }
    count_by_iteration(a, matched, significant);
    if (a.straggler < 0) return;
    // Latest most often wins; the most variable collective breaks ties.
    int most = a.rows[static_cast<size_t>(a.straggler)].latest_count;
    for (size_t i = 0; i < a.rows.size(); ++i)
        if (a.rows[i].latest_count > most) {
            most = a.rows[i].latest_count;
            a.straggler = static_cast<int>(i);
        }
    a.straggler_basis = "collectives";
}

}  // namespace

RankGrouping group_ranks(const std::vector<ProfileEntry>& profiles) {
    RankGrouping out;
    std::map<std::pair<size_t, int>, const ProfileEntry*> kept;  // (capture, rank)
    for (const ProfileEntry& p : profiles) {
        if (p.info.rank < 0) {
            out.without_rank.push_back(p.info.name);
            continue;
        }
        const std::string name = capture_directory(p.info.source);
        const std::string graph = runtime_path_of_source(p.info.source).neff_hash, steps = steps_of(p.summary);
        auto it = std::find_if(out.captures.begin(), out.captures.end(), [&](const RankCapture& c) {
            return c.name == name && c.graph == graph && c.steps == steps;
        });
        if (it == out.captures.end())
            it = out.captures.insert(out.captures.end(), RankCapture{name, graph, steps, p.summary.first_step(), {}});
        auto [same, added] = kept.emplace(std::make_pair(static_cast<size_t>(it - out.captures.begin()), p.info.rank), &p);
        if (!added) {
            // The profile of the lower id is kept, whatever order the
            // source listed them in (a dataset lists them by rank, then id;
            // records and databases as they came).
            const ProfileEntry*& kept_one = same->second;
            const ProfileEntry* left = &p;
            if (left->info.id < kept_one->info.id) std::swap(left, kept_one);
            out.duplicates.push_back("rank " + std::to_string(p.info.rank) + ": " +
                                     (left->info.id == kept_one->info.id
                                          ? left->info.name + " twice"
                                          : "kept " + kept_one->info.name + ", left " + left->info.name));
        }
    }
    for (const auto& [key, profile] : kept) out.captures[key.first].ranks.push_back(profile);
    std::sort(out.duplicates.begin(), out.duplicates.end());
    // By capture, graph and window, whatever order the sources gave them in.
    std::sort(out.captures.begin(), out.captures.end(), [](const RankCapture& a, const RankCapture& b) {
        return std::tie(a.name, a.graph, a.first_step, a.steps) < std::tie(b.name, b.graph, b.first_step, b.steps);
    });
    for (RankCapture& c : out.captures)
        std::sort(c.ranks.begin(), c.ranks.end(),
                  [](const ProfileEntry* a, const ProfileEntry* b) { return a->info.rank < b->info.rank; });
    return out;
}

RankAnalysis analyse_ranks(const RankCapture& capture) {
    RankAnalysis a;
    a.capture = capture.name;
    a.graph = capture.graph;
    a.steps = capture.steps;
    std::vector<double> totals;
    for (const ProfileEntry* p : capture.ranks) {
        RankRow r;
        r.profile = p;
        r.rank = p->info.rank;
        r.total_ns = profile_total_ns(p);
        if (p->summary.breakdown) r.breakdown = &*p->summary.breakdown;
        r.collective_ops = static_cast<int64_t>(p->summary.collectives.size());
        if (r.breakdown) {
            r.collective_ns = r.breakdown->collective_ns;
            if (r.breakdown->collective_ns > 0)
                r.overlap_percent = 100.0 * static_cast<double>(r.breakdown->overlap_ns) /
                                    static_cast<double>(r.breakdown->collective_ns);
        }
        totals.push_back(r.total_ns);
        a.rows.push_back(r);
    }
    for (size_t i = 0; i < a.rows.size(); ++i) {
        if (a.rows[i].total_ns < a.rows[a.fastest].total_ns) a.fastest = i;
        if (a.rows[i].total_ns > a.rows[a.slowest].total_ns) a.slowest = i;
    }
    a.median_ns = median_of(totals);
    match_collectives(a);
    if (a.straggler < 0 && a.rows.size() > 1 && a.rows[a.slowest].total_ns > a.rows[a.fastest].total_ns) {
        a.straggler = static_cast<int>(a.slowest);
        a.straggler_basis = "total time";
        a.straggler_note = a.matched > 0
                               ? "no rank starts a significant collective later than another, from its own start"
                               : "its collectives could not be matched across ranks: " + a.unmatched_reason;
    }
    if (a.straggler >= 0 && static_cast<size_t>(a.straggler) != a.fastest)
        std::tie(a.straggler_change, a.straggler_change_ns) =
            largest_change(a.rows[static_cast<size_t>(a.straggler)], a.rows[a.fastest]);
    find_missing_ranks(a);
    return a;
}

namespace {

// A rank's own buckets (over its span) resampled onto the common axis of
// `buckets` buckets over `span_ns`: each grid bucket the time-weighted mean
// of the rank's buckets it covers; 0 past the rank's end.
std::vector<double> resampled(const std::vector<double>& own, double own_span_ns, double span_ns, int buckets) {
    std::vector<double> row(static_cast<size_t>(buckets), 0);
    if (own.empty() || span_ns <= 0) return row;
    double own_width = own_span_ns / static_cast<double>(own.size());
    double width = span_ns / buckets;
    for (int g = 0; g < buckets; ++g) {
        double lo = g * width, hi = lo + width, busy = 0;
        for (size_t b = 0; b < own.size(); ++b) {
            double blo = static_cast<double>(b) * own_width, bhi = blo + own_width;
            double overlap = std::min(hi, bhi) - std::max(lo, blo);
            if (overlap > 0) busy += own[b] * overlap;
        }
        row[static_cast<size_t>(g)] = width > 0 ? busy / width : 0;
    }
    return row;
}

std::vector<std::vector<double>> breakdown_map(const RankAnalysis& a, int buckets, double span_ns,
                                               std::vector<double> TimeBreakdown::*series) {
    std::vector<std::vector<double>> out;
    for (const RankRow& r : a.rows)
        out.push_back(r.breakdown ? resampled(r.breakdown->*series, static_cast<double>(r.breakdown->span_ns), span_ns,
                                              buckets)
                                  : std::vector<double>(static_cast<size_t>(buckets), 0));
    return out;
}

}  // namespace

std::vector<std::vector<double>> rank_heat_map(const RankAnalysis& a, int buckets, double& span_ns) {
    span_ns = 0;
    for (const RankRow& r : a.rows)
        if (r.breakdown) span_ns = std::max(span_ns, static_cast<double>(r.breakdown->span_ns));
    return breakdown_map(a, buckets, span_ns, &TimeBreakdown::compute_percent);
}

std::vector<std::vector<double>> rank_collective_map(const RankAnalysis& a, int buckets, double span_ns) {
    return breakdown_map(a, buckets, span_ns, &TimeBreakdown::collective_percent);
}

std::vector<std::vector<double>> rank_wait_map(const RankAnalysis& a, int buckets, double span_ns) {
    std::vector<std::vector<double>> out(a.rows.size(), std::vector<double>(static_cast<size_t>(buckets), 0));
    if (a.matched == 0 || span_ns <= 0 || buckets < 1) return out;
    const double width = span_ns / buckets;
    for (size_t k = 0; k < a.matched; ++k) {
        int64_t shortest = std::numeric_limits<int64_t>::max();
        for (const RankRow& r : a.rows) shortest = std::min(shortest, r.profile->summary.collectives[k].dur_ns);
        for (size_t i = 0; i < a.rows.size(); ++i) {
            const ProfileSummary& sum = a.rows[i].profile->summary;
            const CollectiveOp& op = sum.collectives[k];
            double lo = static_cast<double>(op.start_ns - sum.start_ns);
            double hi = lo + static_cast<double>(op.dur_ns - shortest);
            if (hi <= lo) continue;
            int first = std::max(0, static_cast<int>(lo / width));
            for (int g = first; g < buckets && g * width < hi; ++g) {
                double overlap = std::min(hi, (g + 1) * width) - std::max(lo, g * width);
                if (overlap > 0) out[i][static_cast<size_t>(g)] += 100.0 * overlap / width;
            }
        }
    }
    for (std::vector<double>& row : out)
        for (double& v : row) v = std::min(v, 100.0);
    return out;
}

std::string rank_ranges(const std::vector<int>& ranks) {
    std::string out;
    size_t ranges = 0;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (ranges++ == 20) return out + " and more";
        out += (out.empty() ? "" : ", ") + std::to_string(ranks[i]) + (j > i ? "-" + std::to_string(ranks[j]) : "");
        i = j + 1;
    }
    return out;
}

size_t median_row(const RankAnalysis& a) {
    std::vector<size_t> order(a.rows.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return a.rows[x].total_ns > a.rows[y].total_ns; });
    return order[order.size() / 2];
}

std::vector<NotableRank> notable_ranks(const RankAnalysis& a) {
    std::map<size_t, std::vector<std::string>> why;
    if (a.straggler >= 0) why[static_cast<size_t>(a.straggler)].push_back("straggler");
    std::vector<size_t> order(a.rows.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return a.rows[x].total_ns > a.rows[y].total_ns; });
    const size_t median = order[order.size() / 2];
    why[a.fastest].push_back("fastest");
    why[median].push_back("median");
    for (size_t k = 0; k < 5 && k < order.size() && a.rows[order[k]].total_ns > a.rows[median].total_ns; ++k)
        why[order[k]].push_back("slow");
    std::vector<size_t> waited;
    for (size_t i = 0; i < a.rows.size(); ++i)
        if (a.rows[i].wait_ns >= 0) waited.push_back(i);
    std::stable_sort(waited.begin(), waited.end(),
                     [&](size_t x, size_t y) { return a.rows[x].wait_ns < a.rows[y].wait_ns; });
    if (!waited.empty()) {
        const int64_t median_wait = a.rows[waited[waited.size() / 2]].wait_ns;
        for (size_t k = 0; k < 3 && k < waited.size() && a.rows[waited[k]].wait_ns < median_wait; ++k)
            why[waited[k]].push_back("waited least");
    }
    std::vector<NotableRank> out;
    for (auto& [row, reasons] : why) out.push_back({row, std::move(reasons)});
    return out;
}

std::pair<std::string, int64_t> largest_change(const RankRow& row, const RankRow& against) {
    std::string best;
    int64_t most = 0;
    auto consider = [&](const std::string& what, int64_t d) {
        if (std::llabs(d) > std::llabs(most)) {
            most = d;
            best = what;
        }
    };
    for (Engine e : compared_engines())
        consider(std::string(to_string(e)) + " busy time",
                 engine_busy_ns(row.profile, e) - engine_busy_ns(against.profile, e));
    if (row.breakdown && against.breakdown) {
        consider("idle time", row.breakdown->idle_ns - against.breakdown->idle_ns);
        consider("exposed DMA time", row.breakdown->dma_exposed_ns - against.breakdown->dma_exposed_ns);
    }
    return {best, most};
}

}  // namespace nx
