#include "common/profile/dependencies.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <map>
#include <memory>

#include "common/profile/rule_inputs.h"

namespace nx {

namespace {

bool to_int(std::string_view text, int64_t& out) {
    if (text.empty()) return false;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return (x | 0x20) == (y | 0x20);
           });
}

}  // namespace

std::string_view dependency_table(std::string_view t) {
    if (iequals(t, "instruction")) return "instruction";
    if (iequals(t, "dma_block") || iequals(t, "DmaPacketAggregated")) return "dma_block";
    return {};
}

DependencyCollector::Kind DependencyCollector::kind_of(std::string_view flow_table) {
    std::string_view t = dependency_table(flow_table);
    return t == "instruction" ? Kind::instruction : t == "dma_block" ? Kind::dma_block : Kind::none;
}

void DependencyCollector::IdSet::add(int64_t id) {
    sorted = sorted && (ids.empty() || ids.back() < id);
    if (sorted || ids.empty() || ids.back() != id) ids.push_back(id);
}

bool DependencyCollector::IdSet::contains(int64_t id) {
    if (!sorted) {
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
        ids.shrink_to_fit();
        sorted = true;
    }
    return std::binary_search(ids.begin(), ids.end(), id);
}

void DependencyCollector::flow_row(std::string_view json) {
    Row r;
    r.in = kind_of(json_field(json, "in_table"));
    r.out = kind_of(json_field(json, "out_table"));
    if (!to_int(json_field(json, "in_id"), r.in_id) || !to_int(json_field(json, "out_id"), r.out_id)) {
        ++bad_rows_;
        return;
    }
    int64_t gap = 0;
    if (to_int(json_field(json, "gap_time"), gap) && gap >= 0) r.gap = gap;
    for (auto [kind, id] : {std::pair{r.in, r.in_id}, std::pair{r.out, r.out_id}}) {
        if (kind == Kind::instruction) wanted_instructions_.add(id);
        else if (kind == Kind::dma_block) wanted_blocks_.add(id);
    }
    rows_.push_back(r);
}

void DependencyCollector::instruction(const Event& e) {
    int64_t id = 0;
    if (e.type != EventType::instruction || !to_int(json_field(e.args_json, "id"), id)) return;
    instruction(e, id);
}

void DependencyCollector::instruction(const Event& e, int64_t id) {
    if (e.type != EventType::instruction || !wanted_instructions_.contains(id)) return;
    DepNode n;
    n.table = "instruction";
    n.id = id;
    n.start_ns = e.ts_ns;
    n.dur_ns = std::max<int64_t>(e.dur_ns, 0);
    n.where = strings_->intern(e.engine != Engine::none ? to_string(e.engine) : std::string_view(e.track));
    n.name = strings_->intern(!e.opcode.empty() ? e.opcode : e.name);
    nodes_.push_back(n);
}

void DependencyCollector::dma_block_row(std::string_view json) {
    int64_t id = 0, start = 0, end = 0, dur = 0;
    if (!to_int(json_field(json, "id"), id) || !wanted_blocks_.contains(id) || !to_int(json_field(json, "start_ts"), start))
        return;
    if (to_int(json_field(json, "end_ts"), end)) dur = end - start;
    else if (!to_int(json_field(json, "duration_ns"), dur)) return;
    DepNode n;
    n.table = "dma_block";
    n.id = id;
    n.start_ns = start;
    n.dur_ns = std::max<int64_t>(dur, 0);
    std::string_view queue = json_field(json, "queue_name");
    n.where = strings_->intern(queue.empty() ? std::string_view("dma") : queue);
    n.name = strings_->intern(json_field(json, "variable"));
    nodes_.push_back(n);
}

DependencyGraph DependencyCollector::finish() {
    DependencyGraph g;
    g.strings = strings_;
    g.flow_rows = static_cast<int64_t>(rows_.size()) + bad_rows_;
    g.unresolved = bad_rows_;
    // Each node once (a repeated id keeps its last row), in start order;
    // compacted in place, so the nodes are held once, not twice.
    std::stable_sort(nodes_.begin(), nodes_.end(), [](const DepNode& a, const DepNode& b) {
        return a.table != b.table ? a.table < b.table : a.id < b.id;
    });
    size_t kept = 0;
    for (size_t i = 0; i < nodes_.size(); ++i)
        if (i + 1 == nodes_.size() || nodes_[i + 1].table != nodes_[i].table || nodes_[i + 1].id != nodes_[i].id)
            nodes_[kept++] = nodes_[i];
    nodes_.resize(kept);
    g.nodes = std::move(nodes_);
    nodes_ = {};
    std::sort(g.nodes.begin(), g.nodes.end(), [](const DepNode& a, const DepNode& b) {
        if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
        if (a.table != b.table) return a.table < b.table;
        return a.id < b.id;
    });
    // Where each (kind, id) landed: sorted keys, found by binary search
    // (24 bytes a node, where a map of pairs of strings took over 100).
    struct Key {
        Kind kind;
        int64_t id;
        uint32_t at;
        bool operator<(const Key& o) const { return kind != o.kind ? kind < o.kind : id < o.id; }
    };
    std::vector<Key> keys;
    keys.reserve(g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i)
        keys.push_back({kind_of(g.nodes[i].table), g.nodes[i].id, static_cast<uint32_t>(i)});
    std::sort(keys.begin(), keys.end());
    auto node_at = [&](Kind kind, int64_t id) -> int64_t {
        if (kind == Kind::none) return -1;
        auto it = std::lower_bound(keys.begin(), keys.end(), Key{kind, id, 0});
        return it != keys.end() && it->kind == kind && it->id == id ? static_cast<int64_t>(it->at) : int64_t{-1};
    };
    for (const Row& r : rows_) {
        int64_t from = node_at(r.in, r.in_id), to = node_at(r.out, r.out_id);
        if (from < 0 || to < 0) {
            ++g.unresolved;
            continue;
        }
        if (to <= from) {
            ++g.backward;
            continue;
        }
        g.edges.push_back({static_cast<uint32_t>(from), static_cast<uint32_t>(to), r.gap});
    }
    std::vector<Row>().swap(rows_);
    std::sort(g.edges.begin(), g.edges.end(),
              [](const DepEdge& a, const DepEdge& b) { return a.to != b.to ? a.to < b.to : a.from < b.from; });
    // Nodes no edge uses (an id named only by a row left out) stay: harmless.
    return g;
}

CriticalPath critical_path(const DependencyGraph& g, int64_t from_ns, int64_t to_ns) {
    CriticalPath out;
    auto lo = static_cast<size_t>(std::lower_bound(g.nodes.begin(), g.nodes.end(), from_ns,
                                                   [](const DepNode& n, int64_t t) { return n.start_ns < t; }) -
                                  g.nodes.begin());
    auto hi = static_cast<size_t>(std::lower_bound(g.nodes.begin(), g.nodes.end(), to_ns,
                                                   [](const DepNode& n, int64_t t) { return n.start_ns < t; }) -
                                  g.nodes.begin());
    if (lo >= hi) return out;
    auto gap_of = [&](const DepEdge& e) {
        if (e.gap_ns >= 0) return e.gap_ns;
        const DepNode &a = g.nodes[e.from], &b = g.nodes[e.to];
        return std::max<int64_t>(0, b.start_ns - (a.start_ns + a.dur_ns));
    };
    // A step's time clipped at the range's end, as regions clip events.
    auto dur_of = [&](size_t v) {
        const DepNode& n = g.nodes[v];
        return n.start_ns + n.dur_ns > to_ns ? to_ns - n.start_ns : n.dur_ns;
    };
    // Longest chain ending at each node, in start order (edges go forward).
    std::vector<int64_t> best(hi - lo, 0);
    std::vector<int64_t> pred(hi - lo, -1), pred_gap(hi - lo, 0);
    auto e = std::lower_bound(g.edges.begin(), g.edges.end(), static_cast<uint32_t>(lo),
                              [](const DepEdge& x, uint32_t v) { return x.to < v; });
    for (size_t v = lo; v < hi; ++v) {
        int64_t in = -1;  // ties keep the earliest source
        for (; e != g.edges.end() && e->to == v; ++e) {
            if (e->from < lo) continue;
            int64_t gap = gap_of(*e), len = best[e->from - lo] + gap;
            if (len > in) {
                in = len;
                pred[v - lo] = e->from;
                pred_gap[v - lo] = gap;
            }
        }
        best[v - lo] = std::max<int64_t>(in, 0) + dur_of(v);
    }
    // The chain: only nodes with an edge count (a lone node is no dependency).
    int64_t end = -1;
    for (size_t v = lo; v < hi; ++v)
        if (pred[v - lo] >= 0 && (end < 0 || best[v - lo] > best[static_cast<size_t>(end) - lo]))
            end = static_cast<int64_t>(v);
    if (end < 0) return out;
    std::vector<size_t> chain;
    for (int64_t v = end; v >= 0; v = pred[static_cast<size_t>(v) - lo]) chain.push_back(static_cast<size_t>(v));
    std::reverse(chain.begin(), chain.end());
    std::map<std::string_view, int64_t> per_where;
    int64_t cum = 0;
    for (size_t k = 0; k < chain.size(); ++k) {
        const DepNode& n = g.nodes[chain[k]];
        CriticalStep s;
        s.node = &n;
        if (k > 0) cum += pred_gap[chain[k] - lo];
        s.dur_ns = dur_of(chain[k]);
        cum += s.dur_ns;
        s.cumulative_ns = cum;
        if (k + 1 < chain.size()) s.gap_to_next_ns = pred_gap[chain[k + 1] - lo];
        out.work_ns += s.dur_ns;
        per_where[n.where] += s.dur_ns;
        out.steps.push_back(s);
    }
    out.length_ns = cum;
    for (const auto& [w, ns] : per_where)
        if (ns > out.where_ns) {
            out.where = std::string(w);
            out.where_ns = ns;
        }
    return out;
}

}  // namespace nx
