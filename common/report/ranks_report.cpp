#include "common/report/ranks_report.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "common/format/units.h"
#include "common/report/iterations_across_ranks.h"
#include "common/report/ranks_page.h"

namespace nx {

namespace {

std::string percent_of(int64_t part, double whole) {
    return whole > 0 ? format_percent(100.0 * static_cast<double>(part) / whole) : "";
}

std::string summary_text(const RankAnalysis& a) {
    const RankRow& fast = a.rows[a.fastest];
    const RankRow& slow = a.rows[a.slowest];
    std::string text = std::to_string(a.rows.size()) + " rank" + (a.rows.size() == 1 ? "" : "s");
    if (a.world_size > 0 && !a.missing_ranks.empty())
        text += " of the job's " + std::to_string(a.world_size) + " (its traces say so); no profile of rank" +
                (a.missing_ranks.size() == 1 ? " " : "s ") + rank_ranges(a.missing_ranks);
    text += ".";
    if (a.rows.size() > 1 && slow.total_ns <= fast.total_ns)
        text += " They take the same time (" + format_ns(slow.total_ns) + ").";
    else if (a.rows.size() > 1)
        text += " Skew " + (fast.total_ns > 0 ? format_ratio(slow.total_ns / fast.total_ns) : std::string("n/a")) +
                " (slowest over fastest): rank " + std::to_string(slow.rank) + " takes " + format_ns(slow.total_ns) +
                ", " + format_ns(slow.total_ns - fast.total_ns) + " more than rank " + std::to_string(fast.rank) +
                " and " + format_ns(slow.total_ns - a.median_ns) + " more than the median.";
    if (a.straggler >= 0) {
        const RankRow& s = a.rows[static_cast<size_t>(a.straggler)];
        text += " The straggler is rank " + std::to_string(s.rank) + " (" + s.profile->info.name + ")";
        if (a.straggler_basis == "collectives" && a.iterations > 0)
            text += ": in " + std::to_string(s.latest_count) + " of " + std::to_string(a.iterations) +
                    " iterations it starts the iteration's most variable significant collective last; the most "
                    "variable of all, " + a.most_variable + ", " + format_ns(a.start_spread_ns) +
                    " after the earliest rank (start times from each rank's start of the iteration).";
        else if (a.straggler_basis == "collectives")
            text += ": it starts " + std::to_string(s.latest_count) + " of " + std::to_string(a.significant) +
                    " significant collectives last, and the most variable one, " + a.most_variable + ", " +
                    format_ns(a.start_spread_ns) + " after the earliest rank (start times from each rank's own start).";
        else
            text += ", the slowest (" + a.straggler_note + ").";
        if (!a.straggler_change.empty())
            text += " Against rank " + std::to_string(a.rows[a.fastest].rank) + " its largest change is " +
                    a.straggler_change + " " + (a.straggler_change_ns >= 0 ? "+" : "") +
                    format_ns(static_cast<double>(a.straggler_change_ns)) + ".";
    } else if (a.rows.size() > 1) {
        text += " No straggler.";
    }
    return text;
}

// A session's iterations across the ranks: a sentence for each NEFF with a
// slow iteration, the kTextNeffs furthest above their median first (a
// session may run hundreds of NEFFs), and one for the NEFFs whose ranks take
// the same time in every iteration.
constexpr size_t kTextNeffs = 5;
std::string neff_name(const NeffAcrossRanks& n) { return n.neff.empty() ? std::string("the NEFF") : n.neff; }

std::vector<std::string> iteration_texts(const RankAnalysis& a) {
    std::vector<NeffAcrossRanks> neffs = iterations_across_ranks(a);
    std::stable_sort(neffs.begin(), neffs.end(), [](const NeffAcrossRanks& x, const NeffAcrossRanks& y) {
        auto worst = [](const NeffAcrossRanks& n) { return n.worst.empty() ? 0.0 : n.worst.front().over_median(); };
        return worst(x) > worst(y);
    });
    std::vector<std::string> texts;
    std::vector<std::string> alike;
    size_t more = 0;
    for (const NeffAcrossRanks& n : neffs) {
        if (n.worst.empty()) {
            alike.push_back(neff_name(n) + " (" + std::to_string(n.iterations) + " iteration" +
                            (n.iterations == 1 ? "" : "s") + " run by two ranks or more)");
            continue;
        }
        if (texts.size() == kTextNeffs) {
            ++more;
            continue;
        }
        std::string text = "Iterations of " + neff_name(n) + " across ranks: " + std::to_string(n.iterations) +
                           " run by at least two of its " + std::to_string(n.ranks) +
                           " ranks (the k-th execution on each rank is one iteration).";
        // Every rank slowest as often as the most often one (ties named).
        std::vector<int> often;
        for (size_t r = 0; r < n.slowest_count.size(); ++r)
            if (n.slowest_count[r] == n.most_often_count) often.push_back(a.rows[r].rank);
        text += std::string(" Slowest most often: rank") + (often.size() == 1 ? " " : "s ") + rank_ranges(often) +
                " (in " + std::to_string(n.most_often_count) + " of them" + (often.size() == 1 ? "" : " each") +
                "). Furthest above the ranks' median:";
        for (size_t i = 0; i < n.worst.size(); ++i) {
            const IterationAcrossRanks& it = n.worst[i];
            text += std::string(i ? ";" : "") + " iteration " + std::to_string(it.ordinal) + ", rank " +
                    std::to_string(a.rows[it.slowest_row].rank) + " (its execution " +
                    std::to_string(it.slowest_index) + ") " + format_ns(it.slowest_ns) + ", " +
                    format_ratio(it.over_median()) + " the median (" + format_ns(it.median_ns) + ")";
            if (!it.changed.empty())
                text += ": " + it.changed + " against rank " + std::to_string(a.rows[it.median_row].rank) + "'s";
        }
        texts.push_back(text + ".");
    }
    if (more > 0)
        texts.push_back(std::to_string(more) + " more NEFF" + (more == 1 ? " has" : "s have") +
                        " a rank slower than the others in some iteration: every rank's count is in the records "
                        "(slowest_iterations), every iteration in the dataset's iteration_stragglers query.");
    if (!alike.empty()) {
        std::string list;
        for (size_t i = 0; i < alike.size() && i < kTextNeffs; ++i) list += (i ? ", " : "") + alike[i];
        if (alike.size() > kTextNeffs) list += " and " + std::to_string(alike.size() - kTextNeffs) + " more";
        texts.push_back("Every rank takes the same time in each iteration of " + list + ".");
    }
    return texts;
}

// Past this many ranks, text and markdown show the notable ones (a job's
// thousand ranks are two thousand lines a terminal cannot take in); the
// HTML report and the records keep every rank.
constexpr size_t kTextRanks = 32;

// The rows text shows of a capture of many ranks, in rank order: the ranks
// worth reading (rank_analysis.h: notable_ranks).
std::vector<size_t> notable_rows(const RankAnalysis& a) {
    std::vector<size_t> keep;
    for (const NotableRank& n : notable_ranks(a)) keep.push_back(n.row);
    return keep;
}

// The ranks the HTML page draws as empty rows: those below the job's size
// no profile is of, those the dataset's plan holds for this capture and
// graph but the dataset lacks, and those missing between its lowest and
// highest rank.
std::vector<int> absent_ranks(const RankAnalysis& a, const std::vector<UnconvertedRank>& unconverted) {
    std::set<int> present, absent(a.missing_ranks.begin(), a.missing_ranks.end());
    for (const RankRow& r : a.rows) present.insert(r.rank);
    for (const UnconvertedRank& u : unconverted)
        if (u.capture == a.capture && u.graph == a.graph) absent.insert(u.rank);
    for (int r = *present.begin(); r < *present.rbegin(); ++r) absent.insert(r);
    std::vector<int> out;
    for (int r : absent)
        if (!present.count(r)) out.push_back(r);
    return out;
}

void add_heat_map(Document& doc, const RankAnalysis& a, const std::vector<size_t>& shown) {
    constexpr int kBuckets = 50;
    double span = 0;
    std::vector<std::vector<double>> heat = rank_heat_map(a, kBuckets, span);
    if (span <= 0) return;
    ChartBlock c = chart_block("timeline",
                               "Compute utilisation by rank over time (" + std::to_string(kBuckets) + " buckets of " +
                                   format_ns(span / kBuckets) + ", from each rank's start)",
                               "time since the rank's start", "computing (%)");
    for (size_t i : shown) {
        ChartSeries s;
        s.name = "rank " + std::to_string(a.rows[i].rank);
        for (int b = 0; b < kBuckets; ++b) {
            s.x.push_back(span * b / kBuckets);
            s.y.push_back(heat[i][static_cast<size_t>(b)]);
        }
        c.categories.push_back(s.name);
        c.series.push_back(std::move(s));
    }
    doc.chart(c);
}

// "min 8.18 ms, median 8.18 ms, p90 8.2 ms, max 8.4 ms": a figure's spread
// over the ranks (nearest rank percentiles).
std::string spread(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return format_ns(v[static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5)]); };
    return "min " + at(0) + ", median " + at(0.5) + ", p90 " + at(0.9) + ", max " + at(1);
}

// What the ranks the text leaves out are like: each figure's spread over
// every rank.
std::string spread_text(const RankAnalysis& a) {
    std::vector<double> totals, waits;
    for (const RankRow& r : a.rows) {
        totals.push_back(r.total_ns);
        if (r.wait_ns >= 0) waits.push_back(static_cast<double>(r.wait_ns));
    }
    std::string text = "Over all " + std::to_string(a.rows.size()) + " ranks, total time: " + spread(totals);
    if (!waits.empty()) text += "; collective wait: " + spread(waits);
    return text + ".";
}

// The ranks table, of the rows `shown`.
TableBlock rank_table(const RankAnalysis& a, const std::vector<size_t>& shown) {
    TableBlock t;
    t.columns = {"rank", "profile", "total time", "vs fastest", "compute", "collectives", "overlap",
                 "exposed DMA", "idle", "collective wait", ""};
    t.numeric = {true, false, true, true, true, true, true, true, true, true, false};
    for (size_t i : shown) {
        const RankRow& r = a.rows[i];
        const TimeBreakdown* b = r.breakdown;
        double fast = a.rows[a.fastest].total_ns;
        t.rows.push_back({std::to_string(r.rank), r.profile->info.name, format_ns(r.total_ns),
                          fast > 0 ? format_ratio(r.total_ns / fast) : "n/a",
                          b ? percent_of(b->compute_ns, static_cast<double>(b->span_ns)) : "",
                          b ? percent_of(b->collective_ns, static_cast<double>(b->span_ns)) : "",
                          r.overlap_percent >= 0 ? format_percent(r.overlap_percent) : "",
                          b ? percent_of(b->dma_exposed_ns, static_cast<double>(b->span_ns)) : "",
                          b ? percent_of(b->idle_ns, static_cast<double>(b->span_ns)) : "",
                          r.wait_ns >= 0 ? format_ns(static_cast<double>(r.wait_ns)) : "",
                          static_cast<int>(i) == a.straggler ? "straggler" : ""});
    }
    return t;
}

}  // namespace

void add_rank_report(Document& doc, const std::vector<RankAnalysis>& captures,
                     const std::vector<UnconvertedRank>& unconverted) {
    // Text and markdown: each capture's summary, its table (the notable
    // ranks past kTextRanks) and heat map.  The HTML page: the answer, the
    // picture, then every rank on request (ranks_page.h).
    add_ranks_page_assets(doc);
    add_ranks_overview(doc, captures);
    int section = 0;
    for (const RankAnalysis& a : captures) {
        ++section;
        const std::vector<int> absent = absent_ranks(a, unconverted);
        doc.heading("Ranks: " + a.capture + (a.graph.empty() ? "" : ", NEFF " + a.graph) +
                    (a.steps.empty() ? "" : ", steps " + a.steps));
        doc.paragraph(summary_text(a));
        for (const std::string& text : iteration_texts(a)) doc.paragraph(text);
        add_rank_answer(doc, a, absent, section);
        std::vector<size_t> every(a.rows.size());
        std::iota(every.begin(), every.end(), size_t{0});
        const bool trimmed = a.rows.size() > kTextRanks;
        const std::vector<size_t> shown = trimmed ? notable_rows(a) : every;
        const bool any_breakdown =
            std::any_of(a.rows.begin(), a.rows.end(), [](const RankRow& r) { return r.breakdown != nullptr; });
        if (trimmed) doc.paragraph(spread_text(a));
        doc.table(rank_table(a, shown));
        doc.text_only();
        if (trimmed) {
            doc.paragraph(std::to_string(shown.size()) + " of the " + std::to_string(a.rows.size()) + " ranks: " +
                          (a.straggler >= 0 ? "the straggler, " : "") +
                          "the fastest, the median, and of those unlike the median the five slowest and the three "
                          "that waited least in collectives. Every rank: the HTML report (-o ranks.html), or "
                          "--format csv or jsonl.");
            doc.text_only();
        }
        if (!any_breakdown) {
            doc.paragraph("Time breakdown: not in these profiles (records written before nx kept it: convert them "
                          "again).");
            add_rank_pictures(doc, a, absent, section);
            add_rank_table(doc, a, section);
            continue;
        }
        const std::string breakdown_note =
            "Compute, collectives, exposed DMA (moving data while neither computing nor communicating) "
            "and idle as shares of each rank's span of events (they overlap only where compute and "
            "collectives do); overlap is the share of collective time spent "
            "computing too. Collective wait: per matched collective, its duration on the rank minus "
            "its shortest on any rank (" + std::to_string(a.matched) +
            " matched" + (a.matched ? "" : ": " + a.unmatched_reason) + ").";
        doc.paragraph(breakdown_note);
        doc.text_only();
        add_heat_map(doc, a, shown);
        doc.text_only();
        add_rank_pictures(doc, a, absent, section);
        add_rank_table(doc, a, section);
        doc.paragraph(breakdown_note);
        doc.html_only();
    }
}

void write_rank_rows(const std::vector<RankAnalysis>& captures, RowWriter& out) {
    out.columns({"kind", "capture", "rank", "profile", "total_ns", "vs_fastest", "behind_ns", "straggler",
                 "collective_ops", "collective_ns", "collective_percent", "compute_ns", "overlap_percent",
                 "dma_exposed_ns", "idle_ns", "wait_ns", "latest_collectives", "neff_hash", "iterations", "steps",
                 "straggler_basis", "straggler_change", "straggler_change_ns", "most_variable_collective",
                 "start_spread_ns", "slowest_iterations"});
    for (const RankAnalysis& a : captures) {
        double fast = a.rows[a.fastest].total_ns;
        // Iterations of a session (any NEFF) each rank was the slowest in.
        std::vector<int64_t> slowest_iterations(a.rows.size(), 0);
        bool sessions = false;
        for (const NeffAcrossRanks& n : iterations_across_ranks(a)) {
            sessions = true;
            for (size_t i = 0; i < a.rows.size(); ++i) slowest_iterations[i] += static_cast<int64_t>(n.slowest_count[i]);
        }
        // The capture's straggler figures, on each of its rows (as its graph
        // and steps are): what the text report says of it.
        bool straggler = a.straggler >= 0, by_collectives = straggler && a.straggler_basis == "collectives";
        Cell basis = straggler ? Cell::of_text(a.straggler_basis) : Cell{};
        Cell change = straggler && !a.straggler_change.empty() ? Cell::of_text(a.straggler_change) : Cell{};
        Cell change_ns = straggler && !a.straggler_change.empty() ? Cell::of_int(a.straggler_change_ns) : Cell{};
        Cell variable = by_collectives ? Cell::of_text(a.most_variable) : Cell{};
        Cell spread = by_collectives ? Cell::of_real(a.start_spread_ns) : Cell{};
        for (size_t i = 0; i < a.rows.size(); ++i) {
            const RankRow& r = a.rows[i];
            const TimeBreakdown* b = r.breakdown;
            out.row({Cell::of_text("rank"), Cell::of_text(a.capture), Cell::of_int(r.rank),
                     Cell::of_text(r.profile->info.name), Cell::of_real(r.total_ns),
                     fast > 0 ? Cell::of_real(r.total_ns / fast) : Cell{}, Cell::of_real(r.total_ns - fast),
                     Cell::of_int(static_cast<int>(i) == a.straggler ? 1 : 0), Cell::of_int(r.collective_ops),
                     b ? Cell::of_int(r.collective_ns) : Cell{},
                     b && b->span_ns > 0
                         ? Cell::of_real(100.0 * static_cast<double>(r.collective_ns) / static_cast<double>(b->span_ns))
                         : Cell{},
                     b ? Cell::of_int(b->compute_ns) : Cell{},
                     r.overlap_percent >= 0 ? Cell::of_real(r.overlap_percent) : Cell{},
                     b ? Cell::of_int(b->dma_exposed_ns) : Cell{}, b ? Cell::of_int(b->idle_ns) : Cell{},
                     r.wait_ns >= 0 ? Cell::of_int(r.wait_ns) : Cell{}, Cell::of_int(r.latest_count),
                     a.graph.empty() ? Cell{} : Cell::of_text(a.graph), Cell::of_int(static_cast<int64_t>(a.iterations)),
                     a.steps.empty() ? Cell{} : Cell::of_text(a.steps), basis, change, change_ns, variable, spread,
                     sessions ? Cell::of_int(slowest_iterations[i]) : Cell{}});
        }
    }
    out.finish();
}

}  // namespace nx
