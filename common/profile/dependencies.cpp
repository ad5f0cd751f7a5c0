#include "common/profile/dependencies.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <map>

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

void DependencyCollector::flow_row(std::string_view json) {
    Row r;
    r.in_table = std::string(dependency_table(json_field(json, "in_table")));
    r.out_table = std::string(dependency_table(json_field(json, "out_table")));
    if (!to_int(json_field(json, "in_id"), r.in_id) || !to_int(json_field(json, "out_id"), r.out_id)) {
        ++bad_rows_;
        return;
    }
    int64_t gap = 0;
    if (to_int(json_field(json, "gap_time"), gap) && gap >= 0) r.gap = gap;
    for (auto [table, id] : {std::pair{&r.in_table, r.in_id}, std::pair{&r.out_table, r.out_id}}) {
        if (*table == "instruction") wanted_instructions_[id] = true;
        else if (*table == "dma_block") wanted_blocks_[id] = true;
    }
    rows_.push_back(std::move(r));
}

void DependencyCollector::instruction(const Event& e) {
    int64_t id = 0;
    if (e.type != EventType::instruction || !to_int(json_field(e.args_json, "id"), id)) return;
    if (!wanted_instructions_.count(id)) return;
    DepNode n;
    n.table = "instruction";
    n.id = id;
    n.start_ns = e.ts_ns;
    n.dur_ns = std::max<int64_t>(e.dur_ns, 0);
    n.where = e.engine != Engine::none ? std::string(to_string(e.engine)) : std::string(e.track);
    n.name = std::string(!e.opcode.empty() ? e.opcode : e.name);
    instructions_[id] = std::move(n);
}

void DependencyCollector::dma_block_row(std::string_view json) {
    int64_t id = 0, start = 0, end = 0, dur = 0;
    if (!to_int(json_field(json, "id"), id) || !wanted_blocks_.count(id) || !to_int(json_field(json, "start_ts"), start))
        return;
    if (to_int(json_field(json, "end_ts"), end)) dur = end - start;
    else if (!to_int(json_field(json, "duration_ns"), dur)) return;
    DepNode n;
    n.table = "dma_block";
    n.id = id;
    n.start_ns = start;
    n.dur_ns = std::max<int64_t>(dur, 0);
    n.where = std::string(json_field(json, "queue_name"));
    if (n.where.empty()) n.where = "dma";
    n.name = std::string(json_field(json, "variable"));
    blocks_[id] = std::move(n);
}

DependencyGraph DependencyCollector::finish() {
    DependencyGraph g;
    g.flow_rows = static_cast<int64_t>(rows_.size()) + bad_rows_;
    g.unresolved = bad_rows_;
    auto node_of = [&](const std::string& table, int64_t id) -> const DepNode* {
        auto& m = table == "instruction" ? instructions_ : blocks_;
        if (table.empty()) return nullptr;
        auto it = m.find(id);
        return it == m.end() ? nullptr : &it->second;
    };
    // Nodes in start order, each once.
    std::vector<const DepNode*> used;
    for (const auto* m : {&instructions_, &blocks_})
        for (const auto& kv : *m) used.push_back(&kv.second);
    std::sort(used.begin(), used.end(), [](const DepNode* a, const DepNode* b) {
        if (a->start_ns != b->start_ns) return a->start_ns < b->start_ns;
        if (a->table != b->table) return a->table < b->table;
        return a->id < b->id;
    });
    std::map<std::pair<std::string, int64_t>, uint32_t> index;
    for (const DepNode* n : used) {
        index[{n->table, n->id}] = static_cast<uint32_t>(g.nodes.size());
        g.nodes.push_back(*n);
    }
    for (const Row& r : rows_) {
        const DepNode* a = node_of(r.in_table, r.in_id);
        const DepNode* b = node_of(r.out_table, r.out_id);
        if (!a || !b) {
            ++g.unresolved;
            continue;
        }
        uint32_t from = index[{a->table, a->id}], to = index[{b->table, b->id}];
        if (to <= from) {
            ++g.backward;
            continue;
        }
        g.edges.push_back({from, to, r.gap});
    }
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
    std::map<std::string, int64_t> per_where;
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
            out.where = w;
            out.where_ns = ns;
        }
    return out;
}

}  // namespace nx
