#include "common/report/ranks_page.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "common/format/units.h"
#include "common/import/runtime_path.h"
#include "common/report/distinct_names.h"
#include "common/report/heat_map_svg.h"
#include "common/report/iterations_across_ranks.h"
#include "common/report/svg_chart.h"

namespace nx {

namespace {

// Long names (a capture's absolute path, a profile's) wrap rather than
// widen the page; the table of every rank keeps to the page's width.
constexpr const char* kRanksStyle = R"CSS(
h1, h2, p, li, figcaption { overflow-wrap: anywhere; }
.card-value.straggler { color: #A34400; }
table.notable, table.ranks { width: 100%; font-size: 14px; }
table.notable th, table.notable td, table.ranks th, table.ranks td { padding: 3px 8px; }
table.notable tr.straggler td { background: #fdebd9; font-weight: 600; }
table.ranks { font-size: 13px; }
table.ranks td:nth-child(n+3), table.ranks td:first-child { text-align: right; white-space: nowrap; }
td.profile { max-width: 15em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
table.ranks tr.straggler td { background: #fdebd9; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort=ascending]::after { content: " \25B2"; font-size: 10px; }
table.sortable th[aria-sort=descending]::after { content: " \25BC"; font-size: 10px; }
details.every-rank > summary { cursor: pointer; font-weight: 600; margin: 10px 0; }
ul.verdicts li { margin: 4px 0; }
.heat-note { color: #5b5b5b; font-size: 13px; margin: 2px 0; }
.no-data-swatch { display: inline-block; width: 14px; height: 10px; background: #8c8c8c; vertical-align: middle; }
)CSS";

// Sorts a table.sortable by the heading clicked (or Enter on it): numbers
// by their data-v (or their text), text in natural order, empty cells last
// either way; again to reverse.
constexpr const char* kSortScript =
    "(function(){function key(r,i,n){var c=r.cells[i],v=c.getAttribute('data-v');if(v===null)v=c.textContent;"
    "if(!n)return v;var x=parseFloat(v);return isNaN(x)?null:x;}"
    "document.querySelectorAll('table.sortable').forEach(function(t){var hs=t.tHead.rows[0].cells;"
    "Array.prototype.forEach.call(hs,function(th,i){th.tabIndex=0;function sort(){"
    "var up=th.getAttribute('aria-sort')!=='ascending',n=th.classList.contains('num'),b=t.tBodies[0],"
    "rows=Array.prototype.slice.call(b.rows);rows.sort(function(p,q){var x=key(p,i,n),y=key(q,i,n);"
    "if(x===y)return 0;if(x===null||x==='')return 1;if(y===null||y==='')return -1;"
    "var d=n?x-y:String(x).localeCompare(String(y),undefined,{numeric:true});return up?d:-d;});"
    "Array.prototype.forEach.call(hs,function(h){h.removeAttribute('aria-sort');});"
    "th.setAttribute('aria-sort',up?'ascending':'descending');var f=document.createDocumentFragment();"
    "rows.forEach(function(r){f.appendChild(r);});b.appendChild(f);}"
    "th.addEventListener('click',sort);th.addEventListener('keydown',function(e){"
    "if(e.key==='Enter'||e.key===' '){e.preventDefault();sort();}});});});})();";

constexpr int kBuckets = kTimelineBuckets;  // the breakdown's own resolution
// Past this many executions a NEFF's columns are grouped, each showing its
// slowest: the picture stays a few hundred pixels wide and a slow one shows.
constexpr size_t kMostExecutionColumns = 400;

std::string esc(const std::string& s) { return xml_escape(s); }

std::string share(int64_t part, int64_t whole) {
    return whole > 0 ? format_percent(100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "";
}

std::string signed_ns(double ns) { return (ns >= 0 ? "+" : "") + format_ns(ns); }

std::string join(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

// Where a rank ran, as the runtime's capture layout says: its node (the
// instance) and process; empty where the path does not say.
struct Place {
    std::string node, process;
};
Place place_of(const RankRow& r) {
    RuntimePath p = runtime_path_of_source(r.profile->info.source);
    return {p.instance_id, p.process_id >= 0 ? "pid " + std::to_string(p.process_id) : std::string()};
}

// The reasons each notable rank is worth reading, by row.
std::map<size_t, std::string> reasons(const RankAnalysis& a) {
    std::map<size_t, std::string> out;
    for (const NotableRank& n : notable_ranks(a)) out[n.row] = join(n.why);
    return out;
}

// A rank's figures, for the title a browser shows on hover.
std::string rank_title(const RankAnalysis& a, size_t i, const std::string& why) {
    const RankRow& r = a.rows[i];
    const TimeBreakdown* b = r.breakdown;
    const double fast = a.rows[a.fastest].total_ns;
    std::string t = "rank " + std::to_string(r.rank) + (why.empty() ? "" : " (" + why + ")") + ": " + r.profile->info.name;
    t += "\ntotal time " + format_ns(r.total_ns) + (fast > 0 ? ", " + format_ratio(r.total_ns / fast) + " the fastest" : "");
    if (b && b->span_ns > 0)
        t += "\ncompute " + share(b->compute_ns, b->span_ns) + ", collectives " + share(b->collective_ns, b->span_ns) +
             ", exposed DMA " + share(b->dma_exposed_ns, b->span_ns) + ", idle " + share(b->idle_ns, b->span_ns);
    if (r.wait_ns >= 0) t += "\ncollective wait " + format_ns(static_cast<double>(r.wait_ns));
    if (r.latest_count > 0)
        t += "; last on " + std::to_string(r.latest_count) + (a.iterations > 0 ? " iteration" : " collective") +
             (r.latest_count == 1 ? "" : "s");
    return t;
}

// The rank the ranks worth reading are set against: the median rank, or,
// where that is the straggler itself (ranks that tie in total time), the
// median of the others, so the straggler is set against a typical rank.
size_t reference_row(const RankAnalysis& a) {
    const size_t median = median_row(a);
    if (static_cast<int>(median) != a.straggler || a.rows.size() < 3) return median;
    std::vector<size_t> others;
    for (size_t i = 0; i < a.rows.size(); ++i)
        if (static_cast<int>(i) != a.straggler) others.push_back(i);
    std::stable_sort(others.begin(), others.end(),
                     [&](size_t x, size_t y) { return a.rows[x].total_ns > a.rows[y].total_ns; });
    return others[others.size() / 2];
}

std::string card(const std::string& key, const std::string& value, const std::string& value_class = "") {
    return "<div class=\"card\"><div class=\"card-key\">" + esc(key) + "</div><div class=\"card-value" +
           (value_class.empty() ? "" : " " + value_class) + "\">" + esc(value) + "</div></div>";
}

// The capture's answer in one line, for the overview of several graphs.
std::string verdict_line(const RankAnalysis& a) {
    const RankRow& fast = a.rows[a.fastest];
    const RankRow& slow = a.rows[a.slowest];
    std::string line = std::to_string(a.rows.size()) + " rank" + (a.rows.size() == 1 ? "" : "s");
    if (a.rows.size() > 1 && fast.total_ns > 0) line += ", skew " + format_ratio(slow.total_ns / fast.total_ns);
    if (a.straggler < 0) return line + ", no straggler";
    const RankRow& s = a.rows[static_cast<size_t>(a.straggler)];
    line += ", straggler rank " + std::to_string(s.rank) + " (by " + a.straggler_basis + ")";
    if (!a.straggler_change.empty())
        line += ": against rank " + std::to_string(fast.rank) + " its largest change is " + a.straggler_change + " " +
                signed_ns(static_cast<double>(a.straggler_change_ns));
    return line;
}

std::string section_title(const RankAnalysis& a) {
    return a.graph.empty() && a.steps.empty() ? a.capture
                                              : (a.graph.empty() ? "" : "NEFF " + a.graph) +
                                                    (a.graph.empty() || a.steps.empty() ? "" : ", ") +
                                                    (a.steps.empty() ? "" : "steps " + a.steps);
}

// The heat maps' rows: every rank with a profile, and the absent ones as
// empty rows in their place, in rank order (a dataset's plan orders ranks
// by instance, process and core, so nodes and processes are runs of rows).
struct MapRow {
    int rank;
    int row;  // index into RankAnalysis::rows; -1: no profile of the rank
};
std::vector<MapRow> map_rows(const RankAnalysis& a, const std::vector<int>& absent) {
    std::vector<MapRow> out;
    for (size_t i = 0; i < a.rows.size(); ++i) out.push_back({a.rows[i].rank, static_cast<int>(i)});
    for (int r : absent) out.push_back({r, -1});
    std::stable_sort(out.begin(), out.end(), [](const MapRow& x, const MapRow& y) { return x.rank < y.rank; });
    return out;
}

std::vector<HeatRow> heat_rows(const RankAnalysis& a, const std::vector<MapRow>& rows) {
    std::map<size_t, std::string> why = reasons(a);
    std::vector<HeatRow> out;
    for (const MapRow& m : rows) {
        HeatRow h;
        if (m.row < 0) {
            h.title = "rank " + std::to_string(m.rank) + ": no profile here";
            h.mark = "rank " + std::to_string(m.rank) + " no profile";
            out.push_back(std::move(h));
            continue;
        }
        const size_t i = static_cast<size_t>(m.row);
        auto w = why.find(i);
        h.title = rank_title(a, i, w == why.end() ? "" : w->second);
        Place p = place_of(a.rows[i]);
        h.group = p.node;
        h.subgroup = p.process;
        // The outliers: every rank worth reading but the one at the median.
        if (w != why.end() && w->second != "median") {
            h.mark = "rank " + std::to_string(a.rows[i].rank) + " " + w->second.substr(0, w->second.find(','));
            h.strong = static_cast<int>(i) == a.straggler;
        }
        out.push_back(std::move(h));
    }
    return out;
}

const std::vector<std::array<uint8_t, 3>> kComputeRamp = {
    {247, 251, 255}, {198, 219, 239}, {107, 174, 214}, {33, 113, 181}, {8, 48, 107}};
const std::vector<std::array<uint8_t, 3>> kWaitRamp = {
    {255, 245, 235}, {253, 208, 162}, {253, 141, 60}, {217, 72, 1}, {127, 39, 4}};
// Executions against their NEFF's median: faster blue, slower red.
const std::vector<std::array<uint8_t, 3>> kRatioRamp = {
    {33, 102, 172}, {146, 197, 222}, {247, 247, 247}, {244, 165, 130}, {178, 24, 43}};

std::vector<double> no_data(size_t columns) { return std::vector<double>(columns, std::nan("")); }

// Ranks x time: compute, and beside it the wait in collectives where they
// matched (else the time in them, where there are any).
void add_time_map(Document& doc, const RankAnalysis& a, const std::vector<MapRow>& rows, int id) {
    double span = 0;
    std::vector<std::vector<double>> compute = rank_heat_map(a, kBuckets, span);
    if (span <= 0) return;
    HeatMap m;
    m.rows = heat_rows(a, rows);
    m.no_data_label = "no profile of the rank here, or no time breakdown in its profile";
    HeatPanel c;
    c.title = "compute (% of each bucket)";
    c.lo_label = "0%";
    c.hi_label = "100%";
    c.ramp = kComputeRamp;
    std::vector<std::vector<double>> second;
    HeatPanel w;
    w.lo_label = "0%";
    w.hi_label = "100%";
    w.ramp = kWaitRamp;
    if (a.matched > 0) {
        second = rank_wait_map(a, kBuckets, span);
        w.title = "collective wait (% of each bucket)";
    } else {
        second = rank_collective_map(a, kBuckets, span);
        w.title = "in collectives (% of each bucket; not matched across ranks)";
        bool any = std::any_of(second.begin(), second.end(), [](const std::vector<double>& r) {
            return std::any_of(r.begin(), r.end(), [](double v) { return v > 0; });
        });
        if (!any) second.clear();
    }
    for (const MapRow& r : rows) {
        bool data = r.row >= 0 && a.rows[static_cast<size_t>(r.row)].breakdown;
        c.cells.push_back(data ? compute[static_cast<size_t>(r.row)] : no_data(kBuckets));
        if (!second.empty()) w.cells.push_back(data ? second[static_cast<size_t>(r.row)] : no_data(kBuckets));
    }
    m.panels.push_back(std::move(c));
    if (!second.empty()) m.panels.push_back(std::move(w));
    m.caption = "Ranks over time: " + std::string(second.empty() ? "compute" : "compute and " + m.panels[1].title.substr(0, m.panels[1].title.find(" ("))) +
                " in " + std::to_string(kBuckets) + " buckets of " + format_ns(span / kBuckets) +
                " from each rank's start; a row a rank in rank order, nodes and processes in the left margin, the "
                "straggler and outliers in the right; a row's figures on hover";
    for (double f : {0.0, 0.25, 0.5, 0.75, 1.0}) m.ticks.push_back({f, format_ns(span * f)});
    m.x_label = "time since the rank's start";
    doc.html(heat_map_html(m, id));
}

// Ranks x executions, one map a NEFF: each execution's time against the
// median of that NEFF's executions over every rank.
void add_execution_maps(Document& doc, const RankAnalysis& a, const std::vector<MapRow>& rows, int& id) {
    for (const auto& [neff, per_row] : executions_by_neff(a)) {
        std::vector<double> all;
        size_t columns = 0;
        for (const auto& [row, runs] : per_row) {
            for (const ExecutionRun& r : runs) all.push_back(r.dur_ns);
            columns = std::max(columns, runs.size());
        }
        if (all.empty() || columns == 0) continue;
        std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(all.size() / 2), all.end());
        const double median = all[all.size() / 2];
        if (median <= 0) continue;
        const size_t group = (columns + kMostExecutionColumns - 1) / kMostExecutionColumns;
        const size_t shown = (columns + group - 1) / group;
        HeatMap m;
        m.rows = heat_rows(a, rows);
        m.no_data_label = "no execution of this NEFF on the rank (or no profile of the rank)";
        HeatPanel p;
        p.title = "execution time against the NEFF's median";
        p.lo = -1;
        p.hi = 1;
        p.lo_label = "0.5x";
        p.hi_label = "2x";
        p.ramp = kRatioRamp;
        for (size_t k = 0; k < rows.size(); ++k) {
            std::vector<double> cells = no_data(shown);
            auto it = rows[k].row >= 0 ? per_row.find(static_cast<size_t>(rows[k].row)) : per_row.end();
            if (it != per_row.end()) {
                const std::vector<ExecutionRun>& runs = it->second;
                for (size_t c = 0; c < runs.size(); ++c) {
                    double v = std::log2(std::max(runs[c].dur_ns, 1.0) / median);
                    double& cell = cells[c / group];
                    cell = std::isfinite(cell) ? std::max(cell, v) : v;
                }
                auto slowest = std::max_element(runs.begin(), runs.end(), [](const ExecutionRun& x, const ExecutionRun& y) {
                    return x.dur_ns < y.dur_ns;
                });
                m.rows[k].title += "\n" + std::to_string(runs.size()) + " executions of this NEFF; the slowest, #" +
                                   std::to_string(slowest - runs.begin() + 1) + ", " + format_ns(slowest->dur_ns) +
                                   " (" + format_ratio(slowest->dur_ns / median) + " the median, " +
                                   format_ns(median) + ")";
            }
            p.cells.push_back(std::move(cells));
        }
        m.panels.push_back(std::move(p));
        m.caption = "Ranks x executions of " + (neff.empty() ? std::string("the NEFF") : neff) + ": " +
                    std::to_string(columns) + " execution" + (columns == 1 ? "" : "s") + " a rank, each against the " +
                    "median of this NEFF's executions over every rank (" + format_ns(median) + ")" +
                    (group > 1 ? "; each column the slowest of " + std::to_string(group) : "");
        for (double f : {0.0, 0.5, 1.0})
            m.ticks.push_back({f, "#" + std::to_string(std::max<size_t>(1, static_cast<size_t>(std::lround(f * static_cast<double>(columns)))))});
        m.x_label = "execution of the NEFF on the rank, in order";
        doc.html(heat_map_html(m, ++id));
    }
}

}  // namespace

void add_ranks_page_assets(Document& doc) {
    doc.style += kRanksStyle;
    doc.style += kHeatMapStyle;
    doc.scripts.push_back(kSortScript);
}

void add_ranks_overview(Document& doc, const std::vector<RankAnalysis>& captures) {
    if (captures.size() < 2) return;
    bool graphs = false, windows = false;
    for (const RankAnalysis& a : captures) {
        graphs = graphs || a.graph != captures[0].graph;
        windows = windows || a.steps != captures[0].steps;
    }
    std::string what = graphs && windows ? " graphs and windows of steps" : windows ? " windows of steps" : " graphs";
    std::string s = "<section class=\"report overview\"><h1>Ranks: " + std::to_string(captures.size()) + what +
                    ", each compared on its own</h1><ul class=\"verdicts\">";
    for (size_t k = 0; k < captures.size(); ++k)
        s += "<li data-first-screen=\"verdict-" + std::to_string(k + 1) + "\"><b>" + esc(section_title(captures[k])) +
             "</b>: " + esc(verdict_line(captures[k])) + "</li>";
    doc.html(s + "</ul></section>");
}

void add_rank_answer(Document& doc, const RankAnalysis& a, const std::vector<int>& absent, int section) {
    const RankRow& fast = a.rows[a.fastest];
    const RankRow& slow = a.rows[a.slowest];
    std::string s = "<div class=\"cards\">" + card("ranks", format_count(static_cast<double>(a.rows.size())));
    if (!absent.empty()) s += card("no profile of", "rank" + std::string(absent.size() == 1 ? " " : "s ") + rank_ranges(absent), "straggler");
    if (a.rows.size() > 1 && fast.total_ns > 0) s += card("skew (slowest / fastest)", format_ratio(slow.total_ns / fast.total_ns));
    if (a.straggler >= 0) {
        const RankRow& st = a.rows[static_cast<size_t>(a.straggler)];
        s += card("straggler", "rank " + std::to_string(st.rank), "straggler");
        if (!a.straggler_change.empty())
            s += card("its largest change against rank " + std::to_string(fast.rank),
                      a.straggler_change + " " + signed_ns(static_cast<double>(a.straggler_change_ns)));
    } else {
        s += card("straggler", "none");
    }
    s += "</div>";
    // The ranks worth reading: the straggler first, the fastest and the
    // median, then the others in rank order; each against the median rank.
    std::vector<NotableRank> notable = notable_ranks(a);
    auto order = [&](const NotableRank& n) {
        if (static_cast<int>(n.row) == a.straggler) return 0;
        if (n.row == a.fastest) return 1;
        return std::find(n.why.begin(), n.why.end(), "median") != n.why.end() ? 2 : 3;
    };
    std::stable_sort(notable.begin(), notable.end(),
                     [&](const NotableRank& x, const NotableRank& y) { return order(x) < order(y); });
    std::vector<std::string> names;
    for (const RankRow& r : a.rows) names.push_back(r.profile->info.name);
    std::vector<std::string> short_names = distinct_names(names);
    const size_t reference = reference_row(a);
    const RankRow& median = a.rows[reference];
    s += "<h2>The ranks worth reading (" + std::to_string(notable.size()) + " of " + std::to_string(a.rows.size()) +
         "), each against " +
         (reference == median_row(a) ? "the median rank " + std::to_string(median.rank)
                                     : "rank " + std::to_string(median.rank) + ", the median of the ranks but the straggler") +
         "</h2>";
    s += "<div class=\"table-wrap\"><table class=\"notable\"><thead><tr><th class=\"num\">rank</th><th>why</th>"
         "<th>profile</th><th class=\"num\">total time</th><th class=\"num\">vs the median</th>"
         "<th>largest change vs the median</th><th class=\"num\">collective wait</th></tr></thead><tbody>";
    for (const NotableRank& n : notable) {
        const RankRow& r = a.rows[n.row];
        const bool is_median = n.row == reference;
        const bool straggler = static_cast<int>(n.row) == a.straggler;
        double delta = r.total_ns - median.total_ns;
        std::string against = is_median   ? "the median"
                              : delta == 0  ? "the same"
                              : median.total_ns > 0
                                  ? signed_ns(delta) + " (" + (delta >= 0 ? "+" : "") +
                                        format_percent(100.0 * delta / median.total_ns) + ")"
                                  : signed_ns(delta);
        std::string change = "";
        if (!is_median) {
            auto [what, ns] = largest_change(r, median);
            change = what.empty() ? "nothing differs" : what + " " + signed_ns(static_cast<double>(ns));
        }
        std::string wait = r.wait_ns >= 0 ? format_ns(static_cast<double>(r.wait_ns)) +
                                                (is_median || median.wait_ns < 0
                                                     ? ""
                                                     : " (median " + format_ns(static_cast<double>(median.wait_ns)) + ")")
                                          : "";
        s += std::string("<tr") +
             (straggler ? " class=\"straggler\" id=\"straggler-" + std::to_string(section) + "\"" : "") +
             "><td class=\"num\">" + std::to_string(r.rank) + "</td><td>" + esc(join(n.why)) +
             "</td><td class=\"profile\" title=\"" + esc(r.profile->info.name) + "\">" + esc(short_names[n.row]) +
             "</td><td class=\"num\">" + esc(format_ns(r.total_ns)) + "</td><td class=\"num\">" + esc(against) +
             "</td><td>" + esc(change) + "</td><td class=\"num\">" + esc(wait) + "</td></tr>";
    }
    s += "</tbody></table></div>";
    doc.html(s);
}

void add_rank_pictures(Document& doc, const RankAnalysis& a, const std::vector<int>& absent, int section) {
    std::vector<MapRow> rows = map_rows(a, absent);
    int id = section * 100;
    add_time_map(doc, a, rows, id);
    add_execution_maps(doc, a, rows, id);
}

void add_rank_table(Document& doc, const RankAnalysis& a, int section) {
    std::vector<std::string> names;
    for (const RankRow& r : a.rows) names.push_back(r.profile->info.name);
    std::vector<std::string> short_names = distinct_names(names);
    const double fast = a.rows[a.fastest].total_ns;
    auto cell = [](double raw, const std::string& shown) {
        char v[32];
        std::snprintf(v, sizeof v, "%.6g", raw);
        return "<td data-v=\"" + std::string(v) + "\">" + esc(shown) + "</td>";
    };
    auto part = [&](const TimeBreakdown* b, int64_t ns) {
        return b && b->span_ns > 0 ? cell(100.0 * static_cast<double>(ns) / static_cast<double>(b->span_ns), share(ns, b->span_ns))
                                   : std::string("<td></td>");
    };
    std::string s = "<details class=\"every-rank\" id=\"every-rank-" + std::to_string(section) + "\"><summary>Every rank: " +
                    format_count(static_cast<double>(a.rows.size())) +
                    " rows, sorted by any column (click its heading)</summary><div class=\"table-wrap\">"
                    "<table class=\"sortable ranks\"><thead><tr><th class=\"num\">rank</th><th>profile</th>"
                    "<th class=\"num\">total time</th><th class=\"num\">vs fastest</th><th class=\"num\">compute</th>"
                    "<th class=\"num\">collectives</th><th class=\"num\">overlap</th><th class=\"num\">exposed DMA</th>"
                    "<th class=\"num\">idle</th><th class=\"num\">collective wait</th><th class=\"num\" "
                    "title=\"the significant collectives (or iterations) it started last\">last on</th>"
                    "<th></th></tr></thead><tbody>";
    for (size_t i = 0; i < a.rows.size(); ++i) {
        const RankRow& r = a.rows[i];
        const TimeBreakdown* b = r.breakdown;
        const bool straggler = static_cast<int>(i) == a.straggler;
        s += std::string(straggler ? "<tr class=\"straggler\">" : "<tr>") + "<td>" + std::to_string(r.rank) +
             "</td><td class=\"profile\" title=\"" + esc(r.profile->info.name) + "\">" + esc(short_names[i]) + "</td>" +
             cell(r.total_ns, format_ns(r.total_ns)) +
             (fast > 0 ? cell(r.total_ns / fast, format_ratio(r.total_ns / fast)) : std::string("<td></td>")) +
             part(b, b ? b->compute_ns : 0) + part(b, b ? b->collective_ns : 0) +
             (r.overlap_percent >= 0 ? cell(r.overlap_percent, format_percent(r.overlap_percent)) : "<td></td>") +
             part(b, b ? b->dma_exposed_ns : 0) + part(b, b ? b->idle_ns : 0) +
             (r.wait_ns >= 0 ? cell(static_cast<double>(r.wait_ns), format_ns(static_cast<double>(r.wait_ns))) : "<td></td>") +
             "<td>" + std::to_string(r.latest_count) + "</td><td>" + (straggler ? "straggler" : "") + "</td></tr>";
    }
    doc.html(s + "</tbody></table></div></details>");
}

}  // namespace nx
