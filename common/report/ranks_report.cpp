#include "common/report/ranks_report.h"

#include <algorithm>
#include <cmath>

#include "common/report/compare_report.h"
#include "common/format/units.h"
#include "common/store/sqlite_db.h"

namespace nx {

namespace {

std::string capture_of(const ProfileEntry& p) {
    size_t slash = p.info.source.find_last_of('/');
    return slash == std::string::npos ? std::string(".") : p.info.source.substr(0, slash);
}

const CollectiveTime* collective_of(const ProfileEntry* p, const std::map<std::string, CollectiveTime>& c) {
    auto it = c.find(p->info.id);
    return it == c.end() ? nullptr : &it->second;
}

// The engine whose busy time differs most between the straggler and the
// fastest rank: what the straggler spent its extra time on.
std::string explaining_engine(const ProfileEntry* slow, const ProfileEntry* fast) {
    std::string best;
    int64_t most = 0;
    for (Engine e : compared_engines()) {
        int64_t d = engine_active_ns(slow, e) - engine_active_ns(fast, e);
        if (std::llabs(d) > std::llabs(most)) {
            most = d;
            best = std::string(to_string(e)) + " busy time " + (d >= 0 ? "+" : "") + format_ns(static_cast<double>(d));
        }
    }
    return best;
}

struct Spread {
    size_t fastest = 0, slowest = 0;
    double median_ns = 0;
};

Spread spread_of(const RankCapture& c) {
    Spread s;
    std::vector<double> t;
    for (size_t i = 0; i < c.ranks.size(); ++i) {
        double ns = profile_total_ns(c.ranks[i]);
        t.push_back(ns);
        if (ns < profile_total_ns(c.ranks[s.fastest])) s.fastest = i;
        if (ns > profile_total_ns(c.ranks[s.slowest])) s.slowest = i;
    }
    std::sort(t.begin(), t.end());
    s.median_ns = t.empty() ? 0 : (t.size() % 2 ? t[t.size() / 2] : (t[t.size() / 2 - 1] + t[t.size() / 2]) / 2);
    return s;
}

}  // namespace

std::map<std::string, CollectiveTime> store_collective_times(Store& store) {
    std::map<std::string, CollectiveTime> out;
    SqliteStmt q(store.db(),
                 "SELECT p.uid, COUNT(*), SUM(e.dur) FROM event e JOIN track t ON t.id = e.track_id "
                 "JOIN profile p ON p.id = e.profile_id WHERE t.name = 'collectives' GROUP BY p.uid");
    while (q.step()) out[q.column_text(0)] = CollectiveTime{q.column_int(1), q.column_int(2)};
    return out;
}

std::vector<RankCapture> group_ranks(const std::vector<ProfileEntry>& profiles, std::vector<std::string>& skipped) {
    std::vector<RankCapture> out;
    for (const ProfileEntry& p : profiles) {
        if (p.info.rank < 0) {
            skipped.push_back(p.info.name);
            continue;
        }
        std::string name = capture_of(p);
        auto it = std::find_if(out.begin(), out.end(), [&](const RankCapture& c) { return c.name == name; });
        if (it == out.end()) it = out.insert(out.end(), RankCapture{name, {}});
        it->ranks.push_back(&p);
    }
    for (RankCapture& c : out)
        std::stable_sort(c.ranks.begin(), c.ranks.end(),
                         [](const ProfileEntry* a, const ProfileEntry* b) { return a->info.rank < b->info.rank; });
    return out;
}

void add_rank_report(Document& doc, const std::vector<RankCapture>& captures,
                     const std::map<std::string, CollectiveTime>& collectives) {
    for (const RankCapture& c : captures) {
        doc.heading("Ranks: " + c.name);
        Spread s = spread_of(c);
        const ProfileEntry* slow = c.ranks[s.slowest];
        const ProfileEntry* fast = c.ranks[s.fastest];
        double slow_ns = profile_total_ns(slow), fast_ns = profile_total_ns(fast);
        std::string text = std::to_string(c.ranks.size()) + " rank" + (c.ranks.size() == 1 ? "" : "s") + ".";
        // Equal times have no straggler to name.
        bool straggler = c.ranks.size() > 1 && slow_ns > fast_ns;
        if (c.ranks.size() > 1 && !straggler) text += " They take the same time (" + format_ns(slow_ns) + "): no straggler.";
        if (straggler) {
            text += " Skew " + (fast_ns > 0 ? format_ratio(slow_ns / fast_ns) : std::string("n/a")) +
                    " (slowest over fastest); the straggler is rank " + std::to_string(slow->info.rank) + " (" +
                    slow->info.name + "), " + format_ns(slow_ns - fast_ns) + " behind the fastest and " +
                    format_ns(slow_ns - s.median_ns) + " behind the median.";
            std::string engine = explaining_engine(slow, fast);
            if (!engine.empty())
                text += " Against rank " + std::to_string(fast->info.rank) + " its largest engine change is " + engine + ".";
        }
        doc.paragraph(text);
        TableBlock t;
        t.columns = {"rank", "profile", "total time", "vs fastest", "behind fastest", "collectives", "collective time",
                     "share", ""};
        t.numeric = {true, false, true, true, true, true, true, true, false};
        bool any_collectives = false;
        for (size_t i = 0; i < c.ranks.size(); ++i) {
            const ProfileEntry* p = c.ranks[i];
            double ns = profile_total_ns(p);
            const CollectiveTime* ct = collective_of(p, collectives);
            any_collectives = any_collectives || ct;
            t.rows.push_back({std::to_string(p->info.rank), p->info.name, format_ns(ns),
                              fast_ns > 0 ? format_ratio(ns / fast_ns) : "n/a", format_ns(ns - fast_ns),
                              ct ? format_count(static_cast<double>(ct->ops)) : "",
                              ct ? format_ns(static_cast<double>(ct->ns)) : "",
                              ct && ns > 0 ? format_percent(100.0 * static_cast<double>(ct->ns) / ns) : "",
                              i == s.slowest && straggler ? "straggler" : ""});
        }
        doc.table(t);
        if (!any_collectives)
            doc.paragraph("Collective operations: not in these profiles (Neuron Explorer's collectives table, read "
                          "from a study database).");
        else
            doc.paragraph("Collective time is mostly waiting: in a collective the ranks that arrive first wait for "
                          "the last, so the fastest ranks show the most.");
    }
}

void write_rank_rows(const std::vector<RankCapture>& captures, const std::map<std::string, CollectiveTime>& collectives,
                     RowWriter& out) {
    out.columns({"kind", "capture", "rank", "profile", "total_ns", "vs_fastest", "behind_ns", "straggler",
                 "collective_ops", "collective_ns", "collective_percent"});
    for (const RankCapture& c : captures) {
        Spread s = spread_of(c);
        double fast_ns = profile_total_ns(c.ranks[s.fastest]);
        bool straggler = profile_total_ns(c.ranks[s.slowest]) > fast_ns;
        for (size_t i = 0; i < c.ranks.size(); ++i) {
            const ProfileEntry* p = c.ranks[i];
            double ns = profile_total_ns(p);
            const CollectiveTime* ct = collective_of(p, collectives);
            out.row({Cell::of_text("rank"), Cell::of_text(c.name), Cell::of_int(p->info.rank), Cell::of_text(p->info.name),
                     Cell::of_real(ns), fast_ns > 0 ? Cell::of_real(ns / fast_ns) : Cell{}, Cell::of_real(ns - fast_ns),
                     Cell::of_int(i == s.slowest && straggler ? 1 : 0),
                     ct ? Cell::of_int(ct->ops) : Cell{}, ct ? Cell::of_int(ct->ns) : Cell{},
                     ct && ns > 0 ? Cell::of_real(100.0 * static_cast<double>(ct->ns) / ns) : Cell{}});
        }
    }
    out.finish();
}

}  // namespace nx
