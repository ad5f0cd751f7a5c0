#include "common/report/trace_report.h"

#include <algorithm>
#include <numeric>

#include "common/import/importer.h"
#include "common/io/error.h"
#include "common/report/trace_stats.h"
#include "common/format/units.h"

namespace nx {

namespace {

// Kernel and op names in text, markdown and HTML: a kernel table row then
// fits 120 columns, and an HTML table the page.
constexpr size_t kNameWidth = 60;
constexpr size_t kTrackWidth = 40;  // track names there
constexpr size_t kTopRows = 10;     // rows of the name and GPU tables without --all
constexpr size_t kTimelineRows = 10;  // busiest tracks drawn over time without --all
constexpr size_t kGapsShown = 3;    // gaps per track (and GPU stream) without --all
constexpr size_t kGapsAll = 10;

TraceStats stats_of(const ProfileEntry& p, const ReportOptions& o) {
    TraceStatsOptions so;
    so.gaps_per_track = o.all ? kGapsAll : kGapsShown;
    so.timeline_buckets = kTimelineBuckets;
    try {
        return compute_trace_stats(*p.trace, p.summary.start_ns, p.summary.end_ns, so);
    } catch (const Error& e) {
        throw Error("profile " + p.info.name + ": " + e.what());
    }
}

double percent_of(int64_t part, int64_t whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0;
}

std::string ns_text(int64_t ns) { return format_ns(static_cast<double>(ns)); }
std::string count_text(int64_t n) { return format_count(static_cast<double>(n)); }
// A time as the offset from the trace's start.
std::string at_text(int64_t t, const TraceStats& st) { return "+" + ns_text(t - st.start_ns); }

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
}

// "GPU kernels by total time (top 10 of 73, --all for every one)"; a title
// that ends in parentheses gets it inside them.
std::string top_title(std::string title, size_t shown, size_t total) {
    if (shown >= total) return title;
    std::string note = "top " + std::to_string(shown) + " of " + std::to_string(total) + ", --all for every one";
    if (!title.empty() && title.back() == ')') return title.substr(0, title.size() - 1) + "; " + note + ")";
    return title + " (" + note + ")";
}

bool is_gpu_stream(const TraceStats& st, const std::string& track) {
    return std::any_of(st.gpu_streams.begin(), st.gpu_streams.end(), [&](const GpuStream& g) { return g.track == track; });
}

struct GpuOpList {
    const char* title;
    const char* category;  // the record's category
    const std::vector<GpuOpStat>* ops;
};
std::vector<GpuOpList> gpu_op_lists(const TraceStats& st) {
    return {{"GPU kernels", "kernel", &st.kernels},
            {"GPU memcpy", "gpu_memcpy", &st.memcpys},
            {"GPU memset", "gpu_memset", &st.memsets}};
}

int64_t total_of(const std::vector<GpuOpStat>& ops) {
    int64_t t = 0;
    for (const GpuOpStat& s : ops) t += s.total_ns;
    return t;
}

void add_facts(Document& doc, const TraceStats& st) {
    std::vector<Fact> facts = {
        {"span", ns_text(st.span_ns()) + " (the first event to the last)"},
        {"slices", count_text(st.slices) + " on " + count_text(static_cast<int64_t>(st.tracks.size())) + " tracks"},
    };
    if (st.instants > 0) facts.push_back({"instant events", count_text(st.instants) + " (no duration: not in the busy figures)"});
    if (!st.gpu_streams.empty()) {
        facts.push_back({"GPU busy", format_percent(percent_of(st.gpu_busy_ns, st.span_ns())) + " of the span (" +
                                         ns_text(st.gpu_busy_ns) + " of kernels, memcpy and memset " +
                                         (st.gpu_streams.size() == 1 ? std::string("on its one stream)")
                                                                     : "on any of " + count_text(static_cast<int64_t>(st.gpu_streams.size())) + " streams)")});
        int64_t window = st.gpu_last_ns - st.gpu_first_ns;
        facts.push_back({"GPU window", at_text(st.gpu_first_ns, st) + " to " + at_text(st.gpu_last_ns, st) + " (" +
                                           ns_text(window) + "): GPU busy " +
                                           format_percent(percent_of(st.gpu_busy_ns, window)) + " of it"});
    } else {
        facts.push_back({"GPU busy", "no GPU work (no kernel, gpu_memcpy or gpu_memset slices)"});
    }
    if (st.improperly_nested > 0)
        facts.push_back({"improperly nested", count_text(st.improperly_nested) +
                                                  " slices start inside another and end after it (not its children)"});
    doc.facts(facts);
}

void add_tracks(Document& doc, const TraceStats& st) {
    doc.heading("Tracks (busy: union of the track's slices, nested ones counted once)", 2);
    TableBlock t;
    t.columns = {"track", "slices", "busy", "busy %", "categories"};
    t.numeric = {false, true, true, true, false};
    t.max_width = {kTrackWidth};
    for (const TrackActivity& tr : st.tracks)
        t.rows.push_back({tr.name, count_text(tr.slices), ns_text(tr.busy_ns),
                          format_percent(percent_of(tr.busy_ns, st.span_ns())), joined(tr.categories)});
    doc.table(t);
}

// Each track's (and GPU stream's) busy share over time: sparklines in text,
// a heat strip in HTML.
void add_timeline(Document& doc, const TraceStats& st, const ReportOptions& o) {
    if (st.span_ns() <= 0) return;
    ChartBlock c = chart_block("timeline",
                               "Activity over time (" + std::to_string(kTimelineBuckets) + " buckets of " +
                                   format_ns(static_cast<double>(st.span_ns()) / kTimelineBuckets) + ")",
                               "time since the trace start", "busy (%)");
    auto add = [&](const std::string& name, const std::vector<double>& percent) {
        ChartSeries ser;
        ser.name = name;
        for (size_t b = 0; b < percent.size(); ++b) {
            ser.x.push_back(static_cast<double>(st.span_ns()) * static_cast<double>(b) / static_cast<double>(percent.size()));
            ser.y.push_back(percent[b]);
        }
        c.categories.push_back(name);
        c.series.push_back(std::move(ser));
    };
    size_t n = o.all ? st.tracks.size() : std::min(st.tracks.size(), kTimelineRows);
    for (size_t i = 0; i < n; ++i) add(st.tracks[i].name, st.tracks[i].timeline);
    for (const GpuStream& g : st.gpu_streams) add(g.track + " (GPU work)", g.timeline);
    doc.chart(c);
    if (n < st.tracks.size())
        doc.paragraph("the " + std::to_string(n) + " busiest of " + std::to_string(st.tracks.size()) +
                      " tracks (--all for every one)");
}

void add_gpu_streams(Document& doc, const TraceStats& st) {
    if (st.gpu_streams.empty()) return;
    doc.heading("GPU streams (busy: union of kernels, memcpy and memset; cuda_sync there is the host waiting)", 2);
    TableBlock t;
    t.columns = {"stream", "kernels", "memcpy", "memset", "busy", "busy %"};
    t.numeric = {false, true, true, true, true, true};
    t.max_width = {kTrackWidth};
    int64_t kernels = 0, memcpys = 0, memsets = 0;
    for (const GpuStream& g : st.gpu_streams) {
        t.rows.push_back({g.track, count_text(g.kernels), count_text(g.memcpys), count_text(g.memsets),
                          ns_text(g.busy_ns), format_percent(percent_of(g.busy_ns, st.span_ns()))});
        kernels += g.kernels;
        memcpys += g.memcpys;
        memsets += g.memsets;
    }
    if (st.gpu_streams.size() > 1)
        t.rows.push_back({"any stream", count_text(kernels), count_text(memcpys), count_text(memsets),
                          ns_text(st.gpu_busy_ns), format_percent(percent_of(st.gpu_busy_ns, st.span_ns()))});
    doc.table(t);
}

// Like nsys stats' cuda_gpu_kern_sum and cuda_gpu_mem_time_sum.
void add_gpu_ops(Document& doc, const TraceStats& st, const ReportOptions& o) {
    for (const GpuOpList& list : gpu_op_lists(st)) {
        const std::vector<GpuOpStat>& ops = *list.ops;
        if (ops.empty()) continue;
        size_t n = o.all ? ops.size() : std::min(ops.size(), kTopRows);
        doc.heading(top_title(std::string(list.title) + " by total time", n, ops.size()), 2);
        TableBlock t;
        t.columns = {"count", "total", "mean", "median", "min", "max", "share", "name"};
        t.numeric = {true, true, true, true, true, true, true, false};
        t.max_width = {0, 0, 0, 0, 0, 0, 0, kNameWidth};
        int64_t total = total_of(ops);
        for (size_t i = 0; i < n; ++i) {
            const GpuOpStat& s = ops[i];
            t.rows.push_back({count_text(s.count), ns_text(s.total_ns), format_ns(s.mean_ns), format_ns(s.median_ns),
                              ns_text(s.min_ns), ns_text(s.max_ns), format_percent(percent_of(s.total_ns, total)), s.name});
        }
        doc.table(t);
    }
}

void add_names(Document& doc, const TraceStats& st, const ReportOptions& o) {
    if (st.names.empty()) return;
    auto table = [&](const std::vector<const NameStat*>& rows) {
        TableBlock t;
        t.columns = {"count", "total", "self", "category", "name"};
        t.numeric = {true, true, true, false, false};
        t.max_width = {0, 0, 0, 0, kNameWidth};
        for (const NameStat* s : rows)
            t.rows.push_back({count_text(s->count), ns_text(s->total_ns), ns_text(s->self_ns), s->category, s->name});
        return t;
    };
    size_t n = o.all ? st.names.size() : std::min(st.names.size(), kTopRows);
    std::vector<const NameStat*> by_total, by_self;
    for (const NameStat& s : st.names) by_self.push_back(&s);
    by_total.assign(by_self.begin(), by_self.begin() + static_cast<std::ptrdiff_t>(n));
    std::stable_sort(by_self.begin(), by_self.end(),
                     [](const NameStat* a, const NameStat* b) { return a->self_ns > b->self_ns; });
    by_self.resize(n);
    doc.heading(top_title("Top names by total time (summed durations)", n, st.names.size()), 2);
    doc.table(table(by_total));
    doc.heading(top_title("Top names by self time (duration minus its direct children on its track)", n, st.names.size()), 2);
    doc.table(table(by_self));
}

void add_gaps(Document& doc, const TraceStats& st, const ReportOptions& o) {
    doc.heading("Idle gaps (the largest " + std::to_string(o.all ? kGapsAll : kGapsShown) +
                    " between busy intervals per track, between GPU work on a GPU stream; at: time since the trace start)",
                2);
    TableBlock t;
    t.columns = {"track", "busy by", "at", "length"};
    t.numeric = {false, false, true, true};
    t.max_width = {kTrackWidth};
    for (const TrackActivity& tr : st.tracks)
        if (!is_gpu_stream(st, tr.name))
            for (const TraceGap& g : tr.gaps) t.rows.push_back({tr.name, "slices", at_text(g.start_ns, st), ns_text(g.length_ns)});
    for (const GpuStream& s : st.gpu_streams)
        for (const TraceGap& g : s.gaps) t.rows.push_back({s.track, "GPU work", at_text(g.start_ns, st), ns_text(g.length_ns)});
    if (t.rows.empty()) doc.paragraph("none: every track is busy without a break from its first slice to its last");
    else doc.table(t);
}

std::vector<Cell> head(const char* kind, const ProfileEntry& p) {
    return {Cell::of_text(kind), Cell::of_text(p.info.id), Cell::of_text(p.info.name)};
}

}  // namespace

bool is_trace_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    return format_has(info.format, kHostTrace) && summary.engines.empty();
}

void add_trace_report(Document& doc, const ProfileEntry& p, const ReportOptions& o) {
    if (!p.trace) {
        doc.heading("Trace", 2);
        doc.paragraph("a Chrome trace without its events here: its report (busy tracks, GPU kernels, self time, "
                      "idle gaps) reads them from nx-convert --to events FILE | nx-report, or nx-report --db DB");
        return;
    }
    TraceStats st = stats_of(p, o);
    doc.cards({{"span", ns_text(st.span_ns())},
               {"tracks", count_text(static_cast<int64_t>(st.tracks.size()))},
               {"GPU busy", st.gpu_streams.empty() ? "no GPU work" : format_percent(percent_of(st.gpu_busy_ns, st.span_ns()))},
               {"GPU kernels", count_text(std::accumulate(st.kernels.begin(), st.kernels.end(), int64_t{0},
                                                          [](int64_t n, const GpuOpStat& k) { return n + k.count; }))}});
    doc.html_only();
    doc.heading("Trace (no Neuron engines: a Chrome or PyTorch profiler trace)", 2);
    add_facts(doc, st);
    add_tracks(doc, st);
    add_timeline(doc, st, o);
    add_gpu_streams(doc, st);
    add_gpu_ops(doc, st, o);
    add_names(doc, st, o);
    add_gaps(doc, st, o);
}

void write_trace_records(const std::vector<ProfileEntry>& profiles, const ReportOptions& o, RowWriter& out) {
    std::vector<std::pair<const ProfileEntry*, TraceStats>> traces;
    for (const ProfileEntry& p : profiles)
        if (p.trace && is_trace_profile(p.info, p.summary)) traces.emplace_back(&p, stats_of(p, o));
    if (traces.empty()) return;

    out.columns({"kind", "profile", "profile_name", "start_ns", "end_ns", "span_ns", "slices", "instants", "tracks",
                 "gpu_streams", "gpu_busy_ns", "gpu_busy_percent", "gpu_first_ns", "gpu_last_ns", "improperly_nested"});
    for (const auto& [p, st] : traces) {
        std::vector<Cell> r = head("trace_summary", *p);
        bool gpu = !st.gpu_streams.empty();
        for (int64_t v : {st.start_ns, st.end_ns, st.span_ns(), st.slices, st.instants, static_cast<int64_t>(st.tracks.size()),
                          static_cast<int64_t>(st.gpu_streams.size()), st.gpu_busy_ns})
            r.push_back(Cell::of_int(v));
        r.push_back(Cell::of_real(percent_of(st.gpu_busy_ns, st.span_ns())));
        r.push_back(gpu ? Cell::of_int(st.gpu_first_ns) : Cell{});
        r.push_back(gpu ? Cell::of_int(st.gpu_last_ns) : Cell{});
        r.push_back(Cell::of_int(st.improperly_nested));
        out.row(r);
    }
    out.finish();

    out.columns({"kind", "profile", "profile_name", "track", "slices", "busy_ns", "busy_percent", "categories"});
    for (const auto& [p, st] : traces)
        for (const TrackActivity& t : st.tracks) {
            std::vector<Cell> r = head("trace_track", *p);
            r.push_back(Cell::of_text(t.name));
            r.push_back(Cell::of_int(t.slices));
            r.push_back(Cell::of_int(t.busy_ns));
            r.push_back(Cell::of_real(percent_of(t.busy_ns, st.span_ns())));
            r.push_back(Cell::of_text(joined(t.categories)));
            out.row(r);
        }
    out.finish();

    bool any_gpu = std::any_of(traces.begin(), traces.end(), [](const auto& t) { return !t.second.gpu_streams.empty(); });
    if (any_gpu) {
        out.columns({"kind", "profile", "profile_name", "track", "kernels", "memcpys", "memsets", "busy_ns", "busy_percent"});
        for (const auto& [p, st] : traces)
            for (const GpuStream& g : st.gpu_streams) {
                std::vector<Cell> r = head("trace_gpu_stream", *p);
                r.push_back(Cell::of_text(g.track));
                for (int64_t v : {g.kernels, g.memcpys, g.memsets, g.busy_ns}) r.push_back(Cell::of_int(v));
                r.push_back(Cell::of_real(percent_of(g.busy_ns, st.span_ns())));
                out.row(r);
            }
        out.finish();

        out.columns({"kind", "profile", "profile_name", "category", "count", "total_ns", "mean_ns", "median_ns", "min_ns",
                     "max_ns", "share_percent", "name"});
        for (const auto& [p, st] : traces)
            for (const GpuOpList& list : gpu_op_lists(st)) {
                int64_t total = total_of(*list.ops);
                for (const GpuOpStat& s : *list.ops) {
                    std::vector<Cell> r = head("trace_gpu_op", *p);
                    r.push_back(Cell::of_text(list.category));
                    r.push_back(Cell::of_int(s.count));
                    r.push_back(Cell::of_int(s.total_ns));
                    r.push_back(Cell::of_real(s.mean_ns));
                    r.push_back(Cell::of_real(s.median_ns));
                    r.push_back(Cell::of_int(s.min_ns));
                    r.push_back(Cell::of_int(s.max_ns));
                    r.push_back(Cell::of_real(percent_of(s.total_ns, total)));
                    r.push_back(Cell::of_text(s.name));
                    out.row(r);
                }
            }
        out.finish();
    }

    out.columns({"kind", "profile", "profile_name", "category", "count", "total_ns", "self_ns", "name"});
    for (const auto& [p, st] : traces)
        for (const NameStat& s : st.names) {
            std::vector<Cell> r = head("trace_name", *p);
            r.push_back(Cell::of_text(s.category));
            for (int64_t v : {s.count, s.total_ns, s.self_ns}) r.push_back(Cell::of_int(v));
            r.push_back(Cell::of_text(s.name));
            out.row(r);
        }
    out.finish();

    out.columns({"kind", "profile", "profile_name", "track", "busy_by", "rank", "start_ns", "offset_ns", "length_ns"});
    for (const auto& entry : traces) {
        // Named, not structured bindings: clang 14 cannot capture those in a lambda.
        const auto& p = entry.first;
        const auto& st = entry.second;
        auto gaps = [&](const std::string& track, const char* by, const std::vector<TraceGap>& list) {
            for (size_t i = 0; i < list.size(); ++i) {
                std::vector<Cell> r = head("trace_gap", *p);
                r.push_back(Cell::of_text(track));
                r.push_back(Cell::of_text(by));
                for (int64_t v : {static_cast<int64_t>(i + 1), list[i].start_ns, list[i].start_ns - st.start_ns, list[i].length_ns})
                    r.push_back(Cell::of_int(v));
                out.row(r);
            }
        };
        for (const TrackActivity& t : st.tracks)
            if (!is_gpu_stream(st, t.name)) gaps(t.name, "slices", t.gaps);
        for (const GpuStream& g : st.gpu_streams) gaps(g.track, "gpu_work", g.gaps);
    }
    out.finish();
}

}  // namespace nx
