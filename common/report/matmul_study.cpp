#include "common/report/matmul_study.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "common/io/diag.h"
#include "common/report/buckets.h"
#include "common/report/source_label.h"
#include "common/format/units.h"
#include "common/workload/llm_models.h"

namespace nx {

namespace {

// A cliff is a latency jump this much beyond the size change.
constexpr double kCliffMargin = 1.05;
// Tile sizes (neuron-facts.md section 6): partition K and stationary M 128,
// moving N 512.
constexpr int64_t kTileMK = 128, kTileN = 512;
constexpr size_t kTableRows = 40;
constexpr size_t kMaxFamilyCharts = 6;
// Beyond this many tile boundaries in one chart the dashed markers would be a
// grey wall: they are left out.
constexpr int64_t kMaxTileMarks = 64;
// A plan with fewer buckets is recommended when its cost is within this factor
// of the best plan of any size.
constexpr double kBucketTolerance = 1.05;
// Recommended buckets that beat Neuron's defaults by less than this share of
// their cost are no better than them: the sweep's own noise is larger.
constexpr double kBucketGainPercent = 1.0;

int64_t tiles(int64_t v, int64_t tile) { return (v + tile - 1) / tile; }

struct Family {
    std::string dim;
    std::vector<const RunView*> runs;  // sorted by the varying dimension
};

int64_t dim_of(const RunView& r, const std::string& d) { return d == "M" ? r.M : d == "K" ? r.K : r.N; }

// Runs that differ in one dimension only, each family sorted along it.
std::vector<Family> families(const std::vector<RunView>& runs) {
    std::vector<Family> out;
    for (const char* d : {"M", "K", "N"}) {
        std::map<std::tuple<int64_t, int64_t, std::string, std::string>, std::vector<const RunView*>> groups;
        for (const RunView& r : runs) {
            if (r.op != "matmul" || !std::isfinite(r.median_us)) continue;
            std::string dim = d;
            auto key = dim == "M" ? std::make_tuple(r.K, r.N, r.dtype, r.backend + r.target)
                     : dim == "K" ? std::make_tuple(r.M, r.N, r.dtype, r.backend + r.target)
                                  : std::make_tuple(r.M, r.K, r.dtype, r.backend + r.target);
            groups[key].push_back(&r);
        }
        for (auto& [key, g] : groups) {
            std::sort(g.begin(), g.end(), [&](const RunView* a, const RunView* b) { return dim_of(*a, d) < dim_of(*b, d); });
            g.erase(std::unique(g.begin(), g.end(), [&](const RunView* a, const RunView* b) { return dim_of(*a, d) == dim_of(*b, d); }), g.end());
            if (g.size() >= 3) out.push_back({d, g});
        }
    }
    return out;
}

// Does the family straddle tile boundaries (the tiling mode's design)?
bool straddles(const Family& f) {
    int64_t tile = f.dim == "N" ? kTileN : kTileMK;
    for (const RunView* r : f.runs) {
        int64_t v = dim_of(*r, f.dim);
        if (v % tile == 1 || v % tile == tile - 1) return true;
    }
    return false;
}

// The GEMMs one transformer layer needs: qkv, o, gate, up, down.
constexpr size_t kLayerGemms = 5;

// Runs of one prefill configuration are summed into layers; runs of different
// models, dtypes or backends never are.
struct LlmConfig {
    std::string model;
    int64_t tp = 0;
    std::string dtype, backend, target;
    auto operator<=>(const LlmConfig&) const = default;
};
// (batch, seq) -> GEMM name -> median latency (us) of its latest run.
using LayerRuns = std::map<std::pair<int64_t, int64_t>, std::map<std::string, double>>;

void llm_config_section(Document& doc, const LlmConfig& cfg, const LayerRuns& by_shape, const MatmulStudyOptions& o);

void llm_section(Document& doc, const std::vector<RunView>& runs, const MatmulStudyOptions& o) {
    // Prefill layer cost per sequence length: sum of the layer's GEMMs times
    // the model's layer count (the LM head is left out: serving computes
    // logits for the last token only).  A GEMM measured twice counts once,
    // with its latest run.
    std::map<LlmConfig, LayerRuns> configs;
    for (const RunView& r : runs) {
        if (r.phase != "prefill" || r.gemm == "lm_head" || !std::isfinite(r.median_us)) continue;
        configs[{r.model, r.tp, r.dtype, r.backend, r.target}][{r.batch, r.seq}][r.gemm] = r.median_us;
    }
    for (const auto& [cfg, by_shape] : configs) llm_config_section(doc, cfg, by_shape, o);
}

// One layer's latency (us) per (batch, seq) measured whole: every GEMM of
// the layer summed.
std::map<std::pair<int64_t, int64_t>, double> whole_layers(const LayerRuns& by_shape) {
    std::map<std::pair<int64_t, int64_t>, double> layer_us;
    for (const auto& [key, gemms] : by_shape) {
        if (gemms.size() < kLayerGemms) continue;
        double us = 0;
        for (const auto& [name, median] : gemms) us += median;
        layer_us[key] = us;
    }
    return layer_us;
}

// The prefill cost of one layer and of all `layers`, per (batch, seq): a
// table, what it counts, and a chart by batch.
void prefill_cost_section(Document& doc, const LlmConfig& cfg, const std::map<std::pair<int64_t, int64_t>, double>& layer_us,
                          int64_t layers) {
    doc.heading("LLM prefill cost per sequence length (" + cfg.model + ", tp " + std::to_string(cfg.tp) + ", " +
                    cfg.dtype + ", " + cfg.backend + " " + cfg.target + ")",
                2);
    TableBlock t;
    t.columns = {"batch", "seq", "layer", "all " + std::to_string(layers) + " layers", "per token"};
    t.numeric = {true, true, true, true, true};
    ChartBlock c = chart_block("line", "Prefill latency of all layers vs sequence length",
                               "sequence length (tokens)", "latency (us)");
    c.log_x = true;
    c.log_y = true;
    std::map<int64_t, ChartSeries> by_batch;
    for (auto& [key, us] : layer_us) {
        double total = us * static_cast<double>(layers);
        t.rows.push_back({std::to_string(key.first), std::to_string(key.second), format_ns(us * 1e3),
                          format_ns(total * 1e3), format_ns(total * 1e3 / static_cast<double>(key.first * key.second))});
        ChartSeries& s = by_batch[key.first];
        s.name = "batch " + std::to_string(key.first);
        s.x.push_back(static_cast<double>(key.second));
        s.y.push_back(total);
    }
    doc.table(t);
    // The layer figure is a floor, not a forward pass: say what it leaves out.
    doc.paragraph("Counted: the matmuls only (qkv, o, gate, up and down of each layer, x " + std::to_string(layers) +
                  " layers). Not counted: attention (QK^T, softmax, AV: grows with seq squared), norms, rotary "
                  "embeddings, activations and the tensor-parallel collectives: a real prefill costs more.");
    for (auto& [b, s] : by_batch) c.series.push_back(s);
    doc.chart(c);
    doc.html_only();
}

std::string bucket_list(const std::vector<int64_t>& v) {
    std::string s;
    for (int64_t b : v) s += (s.empty() ? "" : ", ") + std::to_string(b);
    return s;
}

// Each bucket is one more compiled graph (compile time, device memory):
// the best plan for every bucket count up to `max_buckets`.
std::vector<BucketPlan> bucket_plans(const std::vector<SeqCount>& dist, const std::vector<std::pair<int64_t, double>>& cost,
                                     int max_buckets) {
    std::vector<BucketPlan> plans;
    for (int k = 1; k <= std::min<int>(max_buckets, static_cast<int>(cost.size())); ++k) {
        BucketPlan p = best_buckets(dist, cost, k);
        // A further bucket that gains nothing gives the same plan: shown once.
        if (plans.empty() || p.buckets != plans.back().buckets) plans.push_back(std::move(p));
    }
    return plans;
}

// The fewest buckets within kBucketTolerance of the best any count reaches.
const BucketPlan& recommended_plan(const std::vector<BucketPlan>& plans) {
    double best_cost = plans.back().expected_cost;
    for (const BucketPlan& p : plans) best_cost = std::min(best_cost, p.expected_cost);
    for (const BucketPlan& p : plans)
        if (p.expected_cost <= best_cost * kBucketTolerance) return p;
    return plans.back();
}

// The recommendation, and against Neuron's defaults on the same requests
// and costs: a gain under kBucketGainPercent is no gain, and the user is
// told to keep them.
void bucket_verdict(Document& doc, const BucketPlan& pick, const BucketPlan& defaults,
                    const std::vector<int64_t>& neuron_default) {
    std::string verdict = "Recommended: " + bucket_list(pick.buckets) + " (" + std::to_string(pick.buckets.size()) +
                          (pick.buckets.size() == 1 ? " compiled graph" : " compiled graphs") +
                          "): mean prefill latency " + format_ns(pick.expected_cost * 1e3) + ", " +
                          format_percent(pick.padding_percent) + " of the padded tokens are padding; within " +
                          format_percent((kBucketTolerance - 1) * 100) + " of the best any count of buckets reaches. " +
                          "Buckets are chosen among the swept lengths: sweep finer (--seq 128:2048:+128) for finer buckets.";
    if (pick.unserved > 0)
        verdict += " " + format_count(pick.unserved) + " requests are longer than the longest swept length: sweep further.";
    doc.paragraph(verdict);
    if (!neuron_default.empty() && defaults.expected_cost > 0 && defaults.unserved <= pick.unserved) {
        double gain = 100.0 * (defaults.expected_cost - pick.expected_cost) / defaults.expected_cost;
        std::string graphs = std::to_string(neuron_default.size()) + (neuron_default.size() == 1 ? " graph" : " graphs");
        if (gain < kBucketGainPercent)
            doc.paragraph("No better than Neuron's default buckets (" + bucket_list(neuron_default) + ", " + graphs +
                          "): they cost " + format_ns(defaults.expected_cost * 1e3) + " a request, the recommendation " +
                          (gain >= 0 ? format_percent(gain) + " less" : format_percent(-gain) + " more") +
                          " (under " + format_percent(kBucketGainPercent) +
                          "): keep the defaults unless fewer compiled graphs matter.");
        else
            doc.paragraph("Against Neuron's default buckets (" + bucket_list(neuron_default) + ", " + graphs + ", " +
                          format_ns(defaults.expected_cost * 1e3) + " a request): " + format_percent(gain) +
                          " less mean prefill latency.");
    }
}

// Sequence buckets for the requests of --seq-dist, from the cost of all
// layers at each swept length (`cost`, for `batch`): the best plan per
// bucket count against Neuron's and vLLM's defaults, and a recommendation.
void bucket_section(Document& doc, int64_t batch, const std::vector<std::pair<int64_t, double>>& cost,
                    const MatmulStudyOptions& o) {
    const std::vector<SeqCount>& dist = o.seq_counts;
    int64_t shortest_request = dist.front().seq;
    for (const SeqCount& r : dist) shortest_request = std::min(shortest_request, r.seq);
    if (shortest_request > cost.back().first) {
        doc.heading("Sequence buckets (batch " + std::to_string(batch) + ")", 2);
        doc.paragraph("No bucket to recommend: every request in " + o.seq_dist + " is longer than the longest swept length (" +
                      std::to_string(cost.back().first) + " tokens; the shortest request has " +
                      std::to_string(shortest_request) + "): sweep further (--seq).");
        return;
    }
    const std::vector<BucketPlan> plans = bucket_plans(dist, cost, o.buckets);
    const BucketPlan& pick = recommended_plan(plans);
    std::vector<int64_t> neuron_default, vllm = {128, 256, 512, 1024, 2048};
    // Neuron's default buckets: powers of two from 128 up to the longest
    // length (neuron-facts.md section 9); those the sweep measured.
    for (auto& [len, c2] : cost)
        if (len >= 128 && (len & (len - 1)) == 0) neuron_default.push_back(len);
    vllm.erase(std::remove_if(vllm.begin(), vllm.end(), [&](int64_t b) {
                   return std::none_of(cost.begin(), cost.end(), [&](auto& p) { return p.first == b; });
               }), vllm.end());
    doc.heading("Sequence buckets (batch " + std::to_string(batch) + ")", 2);
    TableBlock bt;
    bt.columns = {"plan", "buckets", "mean prefill latency", "padding", "unserved"};
    bt.numeric = {false, false, true, true, true};
    auto row = [&](const std::string& label, const BucketPlan& p) {
        bt.rows.push_back({label, bucket_list(p.buckets), format_ns(p.expected_cost * 1e3), format_percent(p.padding_percent),
                           format_count(p.unserved)});
    };
    for (const BucketPlan& p : plans)
        row("best " + std::to_string(p.buckets.size()) + (p.buckets.size() == 1 ? " bucket" : " buckets") +
                (&p == &pick ? " (recommended)" : ""),
            p);
    BucketPlan defaults = evaluate_buckets(dist, cost, neuron_default);
    row("Neuron default (powers of two from 128)", defaults);
    row("vLLM defaults in the sweep", evaluate_buckets(dist, cost, vllm));
    doc.table(bt);
    bucket_verdict(doc, pick, defaults, neuron_default);
}

void llm_config_section(Document& doc, const LlmConfig& cfg, const LayerRuns& by_shape, const MatmulStudyOptions& o) {
    const LlmModel* m = find_llm_model(cfg.model);
    int64_t layers = m ? m->layers : 1;
    // Whole layers only.
    const std::map<std::pair<int64_t, int64_t>, double> layer_us = whole_layers(by_shape);
    if (layer_us.empty()) return;
    prefill_cost_section(doc, cfg, layer_us, layers);
    if (o.seq_counts.empty()) {
        doc.paragraph("give a sequence-length distribution (--seq-dist FILE) for bucket recommendations");
        return;
    }
    // Buckets for the smallest batch with a whole layer measured.
    int64_t batch = layer_us.begin()->first.first;
    std::vector<std::pair<int64_t, double>> cost;
    for (auto& [key, us] : layer_us)
        if (key.first == batch) cost.push_back({key.second, us * static_cast<double>(layers)});
    bucket_section(doc, batch, cost, o);
}

}  // namespace

std::vector<TilingCliff> find_tiling_cliffs(const std::vector<RunView>& runs) {
    std::vector<TilingCliff> out;
    for (const Family& f : families(runs)) {
        int64_t tile = f.dim == "N" ? kTileN : kTileMK;
        for (size_t i = 1; i < f.runs.size(); ++i) {
            const RunView& a = *f.runs[i - 1];
            const RunView& b = *f.runs[i];
            int64_t va = dim_of(a, f.dim), vb = dim_of(b, f.dim);
            if (tiles(vb, tile) <= tiles(va, tile) || a.median_us <= 0) continue;
            double size_ratio = static_cast<double>(vb) / static_cast<double>(va);
            double latency_ratio = b.median_us / a.median_us;
            if (latency_ratio <= size_ratio * kCliffMargin) continue;
            out.push_back({f.dim, va, vb, tiles(va, tile), tiles(vb, tile), size_ratio, latency_ratio, a.name, b.name,
                           a.variant, b.variant});
        }
    }
    std::sort(out.begin(), out.end(), [](const TilingCliff& x, const TilingCliff& y) {
        return x.latency_ratio / x.size_ratio > y.latency_ratio / y.size_ratio;
    });
    return out;
}

namespace {

// Latency and throughput against shape: all runs by FLOPs.  Charts are for
// the HTML page; text and markdown have the runs table.
void size_charts(Document& doc, const std::vector<RunView>& mm, const SourceLabels& sources) {
    ChartBlock lat = chart_block("scatter", "Latency vs matmul size", "FLOPs (2MNK)", "latency (us)");
    lat.log_x = lat.log_y = true;
    ChartBlock thr = lat;
    thr.title = "Throughput vs matmul size";
    thr.y_label = "TFLOP/s";
    thr.log_y = false;
    std::map<std::string, std::pair<ChartSeries, ChartSeries>> by_dtype;
    for (const RunView& r : mm) {
        std::string series = sources.label(r.dtype, r.target, r.backend);
        auto& [l, t] = by_dtype[series];
        l.name = t.name = series;
        double flops = 2.0 * static_cast<double>(r.M) * static_cast<double>(r.K) * static_cast<double>(r.N);
        l.x.push_back(flops);
        l.y.push_back(r.median_us);
        t.x.push_back(flops);
        t.y.push_back(r.tflops);
    }
    for (auto& [d, s] : by_dtype) {
        lat.series.push_back(s.first);
        thr.series.push_back(s.second);
    }
    doc.chart(lat);
    doc.html_only();
    doc.chart(thr);
    doc.html_only();
}

// Latency along one dimension, with the tile boundaries marked: a chart on
// the HTML page, a sparkline in text.
void family_chart(Document& doc, const Family& f, const SourceLabels& sources) {
    const RunView& first = *f.runs.front();
    std::string fixed = f.dim == "M" ? "K=" + std::to_string(first.K) + ", N=" + std::to_string(first.N)
                      : f.dim == "K" ? "M=" + std::to_string(first.M) + ", N=" + std::to_string(first.N)
                                     : "M=" + std::to_string(first.M) + ", K=" + std::to_string(first.K);
    ChartBlock c = chart_block("line",
                               "Latency vs " + f.dim + " (" + fixed + ", " +
                                   sources.label(first.dtype, first.target, first.backend) + ")",
                               f.dim, "latency (us)");
    ChartSeries s;
    s.name = "latency";
    std::vector<double> series;
    int64_t tile = f.dim == "N" ? kTileN : kTileMK;
    int64_t lo = dim_of(first, f.dim), hi = dim_of(*f.runs.back(), f.dim);
    for (const RunView* r : f.runs) {
        s.x.push_back(static_cast<double>(dim_of(*r, f.dim)));
        s.y.push_back(r->median_us);
        series.push_back(r->median_us);
    }
    if ((hi - lo) / tile <= kMaxTileMarks)
        for (int64_t m = (lo / tile + 1) * tile; m <= hi; m += tile) c.x_marks.push_back(static_cast<double>(m));
    c.x_marks_label = "tile boundary (" + f.dim + " = k x " + std::to_string(tile) + ")";
    c.series.push_back(s);
    doc.chart(c);
    doc.html_only();
    doc.sparkline("latency along " + f.dim + " (" + fixed + (sources.mixed() ? ", " + target_backend(first.target, first.backend) : "") +
                      "): " + format_ns(series.front() * 1e3) + " .. " +
                      format_ns(series.back() * 1e3),
                  series);
    // The chart above draws the same series on the HTML page.
    doc.text_only();
}

// What the worst cliff says to do: pad to the tile boundary where the
// boundary itself costs; a jump where the kernel variant changes is the
// variant's, and padding does not help it.
std::string cliff_verdict(const std::vector<TilingCliff>& cliffs) {
    auto jump = [](const TilingCliff& c) {
        return c.dim + " " + std::to_string(c.from) + " -> " + std::to_string(c.to) + " costs +" +
               format_percent((c.latency_ratio - 1) * 100) + " latency for +" + format_percent((c.size_ratio - 1) * 100) +
               " size";
    };
    auto boundary = std::find_if(cliffs.begin(), cliffs.end(), [](const TilingCliff& c) { return !c.variant_switch(); });
    std::string verdict;
    if (boundary != cliffs.end()) {
        int64_t tile = boundary->dim == "N" ? kTileN : kTileMK;
        verdict = "Worst at a tile boundary: " + jump(*boundary) + ". Keep " + boundary->dim + " at a multiple of " +
                  std::to_string(tile) + " (pad or split the work to the boundary).";
    }
    if (cliffs.front().variant_switch()) {
        const TilingCliff& v = cliffs.front();
        verdict = "Worst: " + jump(v) + ", where the kernel changes from " + v.variant_from + " to " + v.variant_to +
                  ": a variant switch, not the tile boundary (run both shapes with --variant " + v.variant_from +
                  " to see the boundary's own cost). " +
                  (boundary == cliffs.end() ? std::string("No tile boundary costs more than ") +
                                                  format_percent((kCliffMargin - 1) * 100) +
                                                  " beyond the size change: padding to a multiple of the tile does not help here."
                                            : verdict);
    }
    return verdict;
}

void tiling_cliffs_section(Document& doc, const std::vector<RunView>& mm) {
    std::vector<TilingCliff> cliffs = find_tiling_cliffs(mm);
    doc.heading("Tiling cliffs", 2);
    if (cliffs.empty()) {
        doc.paragraph("no tiling cliff: crossing a tile boundary never cost more than " +
                      format_percent((kCliffMargin - 1) * 100) + " beyond the size change");
        return;
    }
    TableBlock t;
    t.columns = {"dim", "from", "to", "tiles", "kernel", "cause", "size", "latency"};
    t.numeric = {false, true, true, false, false, false, true, true};
    for (const TilingCliff& c : cliffs)
        t.rows.push_back({c.dim, std::to_string(c.from), std::to_string(c.to),
                          std::to_string(c.tiles_from) + " -> " + std::to_string(c.tiles_to),
                          c.variant_switch() ? c.variant_from + " -> " + c.variant_to : c.variant_from,
                          c.variant_switch() ? "variant switch" : "tile boundary",
                          "+" + format_percent((c.size_ratio - 1) * 100), "+" + format_percent((c.latency_ratio - 1) * 100)});
    doc.table(t);
    doc.paragraph(cliff_verdict(cliffs));
}

void runs_table(Document& doc, const std::vector<RunView>& mm, const SourceLabels& sources, const MatmulStudyOptions& o) {
    doc.heading("Runs", 2);
    TableBlock t;
    t.columns = {"name", "M", "K", "N", "dtype", "LNC", "kernel", "median", "p95", "TFLOP/s", "tiles M x K x N = total"};
    t.numeric = {false, true, true, true, false, true, false, true, true, true, false};
    size_t n = o.all ? mm.size() : std::min(mm.size(), kTableRows);
    for (size_t i = 0; i < n; ++i) {
        const RunView& r = mm[i];
        t.rows.push_back({sources.label(r.name, r.target, r.backend), std::to_string(r.M), std::to_string(r.K), std::to_string(r.N), r.dtype,
                          r.lnc > 0 ? std::to_string(r.lnc) : "", r.variant,
                          format_run_ns(r, r.median_us * 1e3), format_run_ns(r, r.p95_us * 1e3), format_value(r.tflops),
                          std::to_string(r.tiles_M) + " x " + std::to_string(r.tiles_K) + " x " + std::to_string(r.tiles_N) +
                              " = " + std::to_string(r.tiles_total)});
    }
    doc.table(t);
    if (n < mm.size()) doc.paragraph(std::to_string(mm.size() - n) + " more runs (--all, or --format csv)");
}

}  // namespace

void add_matmul_study(Document& doc, const std::vector<RunView>& runs, const MatmulStudyOptions& o) {
    std::vector<RunView> mm;
    std::set<std::string> backends;
    SourceLabels sources;  // runs of several targets or backends are labelled with theirs
    for (const RunView& r : runs)
        if (r.op == "matmul") {
            mm.push_back(r);
            backends.insert(r.backend + " on " + target_text(r));
            sources.add(r.target, r.backend);
        }
    if (mm.empty()) return;
    doc.heading("Matmul study");
    std::string who;
    for (const std::string& b : backends) who += (who.empty() ? "" : "; ") + b;
    doc.paragraph(std::to_string(mm.size()) + " shapes, run by " + who + ". " + backend_phrase(mm.front().backend) + ".");

    std::sort(mm.begin(), mm.end(), [](const RunView& a, const RunView& b) {
        return std::tie(a.dtype, a.M, a.K, a.N) < std::tie(b.dtype, b.M, b.K, b.N);
    });
    size_charts(doc, mm, sources);
    size_t charts = 0;
    for (const Family& f : families(mm)) {
        if (!straddles(f) || charts >= kMaxFamilyCharts) continue;
        ++charts;
        family_chart(doc, f, sources);
    }
    tiling_cliffs_section(doc, mm);
    runs_table(doc, mm, sources, o);
    llm_section(doc, mm, o);
}

void write_matmul_csv(const std::vector<RunView>& runs, RowWriter& out) {
    out.columns({"M", "K", "N", "latency_ms", "num_tiles_M", "num_tiles_K", "num_tiles_N", "total_tiles", "name", "dtype",
                 "backend", "target", "latency_p95_ms", "tflops", "compile_ms", "cached"});
    for (const RunView& r : runs) {
        if (r.op != "matmul") continue;
        auto real = [](double v) { return std::isfinite(v) ? Cell::of_real(v) : Cell{}; };
        out.row({Cell::of_int(r.M), Cell::of_int(r.K), Cell::of_int(r.N), real(r.median_us / 1e3), Cell::of_int(r.tiles_M),
                 Cell::of_int(r.tiles_K), Cell::of_int(r.tiles_N), Cell::of_int(r.tiles_total), Cell::of_text(r.name),
                 Cell::of_text(r.dtype), Cell::of_text(r.backend), Cell::of_text(r.target), real(r.p95_us / 1e3),
                 real(r.tflops), real(r.compile_ms), Cell::of_int(r.cached ? 1 : 0)});
    }
    out.finish();
}

}  // namespace nx
