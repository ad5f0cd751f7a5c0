#include "common/profile/kernel_regions.h"

#include <algorithm>
#include <climits>

namespace nx {

namespace {

// Parent links come from the profile: a cycle or a runaway chain stops here.
constexpr int kMaxDepth = 256;

}  // namespace

void KernelRegions::stack_frame(int64_t pcore, int64_t id, std::string function, std::optional<int64_t> parent) {
    if (function.empty()) function = "frame " + std::to_string(id);
    frames_[{pcore, id}] = Node{std::move(function), parent, pcore};
}

void KernelRegions::iteration_variable(int64_t pcore, int64_t id, std::string variable, std::optional<int64_t> value,
                                       std::optional<int64_t> parent) {
    if (variable.empty()) variable = "iteration " + std::to_string(id);
    if (value) variable += "=" + std::to_string(*value);
    iterations_[{pcore, id}] = Node{std::move(variable), parent, pcore};
}

void KernelRegions::kernel_instruction(int64_t pcore, std::string name, std::optional<int64_t> frame,
                                       std::optional<int64_t> iteration) {
    if (name.empty() || (!frame && !iteration)) return;
    instructions_[pcore].try_emplace(std::move(name), Placement{frame, iteration});
}

const KernelRegions::Node* KernelRegions::find(const Nodes& nodes, int64_t pcore, std::optional<int64_t> id) {
    if (!id) return nullptr;
    auto it = nodes.find({pcore, *id});
    if (it == nodes.end() && pcore != kAnyCore) it = nodes.find({kAnyCore, *id});
    return it == nodes.end() ? nullptr : &it->second;
}

void KernelRegions::extend(const Nodes& nodes, const Node* n, int64_t start, int64_t end) {
    // The instruction runs in this frame or iteration and in every one
    // enclosing it.
    for (int depth = 0; n && depth < kMaxDepth; ++depth, n = find(nodes, n->pcore, n->parent)) {
        n->start = std::min(n->start, start);
        n->end = std::max(n->end, end);
    }
}

void KernelRegions::instruction(int64_t pcore, std::string_view name, int64_t start_ns, int64_t end_ns) {
    if (name.empty() || end_ns < start_ns) return;
    const Placement* at = nullptr;
    for (int64_t core : {pcore, kAnyCore}) {
        auto c = instructions_.find(core);
        if (c == instructions_.end()) continue;
        auto it = c->second.find(name);
        if (it != c->second.end()) {
            at = &it->second;
            break;
        }
    }
    if (!at) return;
    extend(frames_, find(frames_, pcore, at->frame), start_ns, end_ns);
    extend(iterations_, find(iterations_, pcore, at->iteration), start_ns, end_ns);
}

std::vector<Region> KernelRegions::regions(const Nodes& nodes, const char* kind, bool path_names) {
    // Names first: the label, or the loop nest's labels from the outermost.
    std::map<const Node*, std::string> name;
    std::vector<const Node*> ran;
    for (const auto& [key, n] : nodes) {
        if (n.end <= n.start) continue;  // no instruction ran in it
        ran.push_back(&n);
        std::string s = n.label;
        if (path_names) {
            const Node* p = find(nodes, n.pcore, n.parent);
            for (int depth = 0; p && depth < kMaxDepth; ++depth, p = find(nodes, p->pcore, p->parent))
                s = p->label + "/" + s;
        }
        name[&n] = std::move(s);
    }
    std::stable_sort(ran.begin(), ran.end(), [](const Node* a, const Node* b) { return a->start < b->start; });
    std::map<std::string, int> count, nth;
    for (const Node* n : ran) ++count[name[n]];
    for (const Node* n : ran)
        if (count[name[n]] > 1) name[n] += " #" + std::to_string(++nth[name[n]]);
    std::vector<Region> out;
    for (const Node* n : ran) {
        const Node* p = find(nodes, n->pcore, n->parent);
        auto pn = p ? name.find(p) : name.end();
        out.push_back({kind, name[n], pn != name.end() ? pn->second : std::string(), n->start, n->end});
    }
    return out;
}

std::vector<Region> KernelRegions::finish() const {
    std::vector<Region> out = regions(frames_, "kernel", false);
    std::vector<Region> its = regions(iterations_, "iteration", true);
    out.insert(out.end(), std::make_move_iterator(its.begin()), std::make_move_iterator(its.end()));
    return out;
}

}  // namespace nx
