#include "common/profile/regions.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include <rapidjson/document.h>

#include "common/profile/matmul_free_advice.h"
#include "common/profile/profile_metrics.h"
#include "common/records/json_members.h"

namespace nx {

namespace {

// One bound of a window: "1500", "25%", "2.5e6".
std::optional<std::string> parse_bound(std::string_view text, double& v, bool& percent) {
    std::string t(text);
    percent = !t.empty() && t.back() == '%';
    if (percent) t.pop_back();
    char* end = nullptr;
    v = t.empty() ? 0 : std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
        return "'" + std::string(text) + "' is not a time (ns from the profile's start, or N%)";
    if (percent && v > 100) return "'" + std::string(text) + "' is past 100%";
    return std::nullopt;
}

std::string format_bound(double v, bool percent) {
    char buf[48];
    if (percent) std::snprintf(buf, sizeof buf, "%g%%", v);
    else std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

}  // namespace

std::optional<std::string> parse_window(std::string_view text, WindowSpec& out) {
    WindowSpec w;
    std::string_view range = text;
    if (size_t eq = text.find('='); eq != std::string_view::npos) {
        w.name = std::string(text.substr(0, eq));
        range = text.substr(eq + 1);
        if (w.name.empty()) return "window '" + std::string(text) + "' has an empty name";
    }
    size_t colon = range.find(':');
    if (colon == std::string_view::npos) return "expected FROM:TO or NAME=FROM:TO, got '" + std::string(text) + "'";
    if (auto e = parse_bound(range.substr(0, colon), w.from, w.from_percent)) return "window " + *e;
    if (auto e = parse_bound(range.substr(colon + 1), w.to, w.to_percent)) return "window " + *e;
    if (w.from_percent == w.to_percent && w.to <= w.from)
        return "window '" + std::string(text) + "' ends before it starts";
    if (w.name.empty())
        w.name = "window " + format_bound(w.from, w.from_percent) + ":" + format_bound(w.to, w.to_percent);
    out = std::move(w);
    return std::nullopt;
}

Region resolve_window(const WindowSpec& w, int64_t start, int64_t end) {
    double span = static_cast<double>(end - start);
    auto at = [&](double v, bool percent) {
        double off = percent ? span * v / 100.0 : v;
        return start + static_cast<int64_t>(std::llround(std::min(off, 9e18)));
    };
    Region r;
    r.kind = "window";
    r.name = w.name;
    r.start_ns = at(w.from, w.from_percent);
    r.end_ns = std::max(r.start_ns, at(w.to, w.to_percent));
    return r;
}

std::vector<Region> carried_layer_regions(std::string_view carried) {
    std::vector<Region> out;
    rapidjson::Document d;
    const rapidjson::Value* layers = carried_array(carried, "layers", d);
    if (!layers) return out;
    std::map<std::string, int> seen;
    for (const auto& l : layers->GetArray()) {
        if (!l.IsObject()) continue;
        auto name = l.FindMember("name");
        auto start = l.FindMember("start_ns");
        auto end = l.FindMember("end_ns");
        if (name == l.MemberEnd() || !name->value.IsString() || start == l.MemberEnd() || !start->value.IsNumber() ||
            end == l.MemberEnd() || !end->value.IsNumber())
            continue;
        Region r;
        r.kind = "layer";
        r.name = name->value.GetString();
        r.start_ns = static_cast<int64_t>(start->value.GetDouble());
        r.end_ns = static_cast<int64_t>(end->value.GetDouble());
        if (r.end_ns <= r.start_ns) continue;
        ++seen[r.name];
        out.push_back(std::move(r));
    }
    // A name that recurs is a loop body: each occurrence is an iteration.
    std::map<std::string, int> nth;
    for (Region& r : out) {
        if (seen[r.name] < 2) continue;
        r.kind = "iteration";
        r.name += " #" + std::to_string(++nth[r.name]);
    }
    return out;
}

void assign_parents(std::vector<Region>& regions) {
    for (Region& r : regions) {
        if (!r.parent.empty()) continue;
        // The closest enclosing region whose name is a path prefix.
        const Region* best = nullptr;
        for (const Region& p : regions) {
            if (&p == &r || p.kind == "window" || p.start_ns > r.start_ns || p.end_ns < r.end_ns) continue;
            std::string_view pn = p.name, rn = r.name;
            if (size_t hash = pn.find(" #"); hash != std::string_view::npos) pn = pn.substr(0, hash);
            if (!(rn.size() > pn.size() && rn.substr(0, pn.size()) == pn && rn[pn.size()] == '/')) continue;
            if (!best || best->name.size() < p.name.size()) best = &p;
        }
        if (best) r.parent = best->name;
    }
}

std::vector<Region> collective_regions(std::vector<TimedOp> ops) {
    std::erase_if(ops, [](const TimedOp& o) { return o.end_ns <= o.start_ns; });
    std::stable_sort(ops.begin(), ops.end(), [](const TimedOp& a, const TimedOp& b) {
        return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
    });
    std::map<std::string, int> count, nth;
    for (const TimedOp& o : ops) ++count[o.name];
    std::vector<Region> out;
    int64_t reach = 0;  // the latest end of the collectives so far
    int phase = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
        const TimedOp& o = ops[i];
        // The compute between collectives: nothing collective runs in it.
        if (i > 0 && o.start_ns > reach) out.push_back({"collective_phase", "phase " + std::to_string(++phase), {}, reach, o.start_ns});
        reach = i == 0 ? o.end_ns : std::max(reach, o.end_ns);
        Region r{"collective", o.name, {}, o.start_ns, o.end_ns};
        if (count[o.name] > 1) r.name += " #" + std::to_string(++nth[o.name]);
        out.push_back(std::move(r));
    }
    return out;
}

// ---- RegionMetrics

struct RegionMetrics::State {
    ProfileInfo info;
    std::vector<Region> regions;
    std::vector<std::unique_ptr<ProfileMetrics>> metrics;
    // Elementary segments [bounds[i], bounds[i + 1]) and the regions covering each.
    std::vector<int64_t> bounds;
    std::vector<std::vector<uint32_t>> covering;
    std::vector<uint64_t> stamp;  // per region: the last event it was given (no region twice)
    uint64_t serial = 0;

    // The segment holding t, or -1.
    int64_t segment(int64_t t) const {
        auto it = std::upper_bound(bounds.begin(), bounds.end(), t);
        if (it == bounds.begin()) return -1;
        int64_t i = (it - bounds.begin()) - 1;
        return i < static_cast<int64_t>(covering.size()) ? i : -1;
    }
};

RegionMetrics::RegionMetrics(std::vector<Region> regions, const ProfileInfo& info) : s_(std::make_unique<State>()) {
    std::erase_if(regions, [](const Region& r) { return r.end_ns <= r.start_ns; });
    if (regions.size() > kMaxRegions) {
        // Keep the longest (they take the most time); ties by start.
        std::stable_sort(regions.begin(), regions.end(), [](const Region& a, const Region& b) {
            return a.end_ns - a.start_ns > b.end_ns - b.start_ns;
        });
        dropped_ = regions.size() - kMaxRegions;
        regions.resize(kMaxRegions);
    }
    std::stable_sort(regions.begin(), regions.end(),
                     [](const Region& a, const Region& b) { return a.start_ns < b.start_ns; });
    s_->info = info;
    s_->info.carried_json.clear();  // the record's whole-profile figures are not a region's
    s_->regions = std::move(regions);
    for (const Region& r : s_->regions) {
        s_->bounds.push_back(r.start_ns);
        s_->bounds.push_back(r.end_ns);
        s_->metrics.push_back(std::make_unique<ProfileMetrics>());
        // The region's length is its time, whatever its first and last events.
        s_->metrics.back()->add_source_metric("total_time", static_cast<double>(r.end_ns - r.start_ns) / 1e9);
    }
    std::sort(s_->bounds.begin(), s_->bounds.end());
    s_->bounds.erase(std::unique(s_->bounds.begin(), s_->bounds.end()), s_->bounds.end());
    if (s_->bounds.size() >= 2) s_->covering.resize(s_->bounds.size() - 1);
    for (uint32_t k = 0; k < s_->regions.size(); ++k) {
        const Region& r = s_->regions[k];
        size_t i = static_cast<size_t>(std::lower_bound(s_->bounds.begin(), s_->bounds.end(), r.start_ns) - s_->bounds.begin());
        for (; i < s_->covering.size() && s_->bounds[i] < r.end_ns; ++i) s_->covering[i].push_back(k);
    }
    s_->stamp.assign(s_->regions.size(), 0);
}

RegionMetrics::~RegionMetrics() = default;

void RegionMetrics::add(const Event& e) {
    State& s = *s_;
    if (s.covering.empty() || e.type == EventType::counter) return;
    int64_t end = e.ts_ns + std::max<int64_t>(e.dur_ns, 0);
    if (e.type == EventType::active) {
        // The profiler's busy intervals: clipped to every region they overlap.
        ++s.serial;
        int64_t i = s.segment(e.ts_ns);
        if (i < 0) {
            if (end <= s.bounds.front()) return;
            i = 0;
        }
        for (size_t j = static_cast<size_t>(i); j < s.covering.size() && s.bounds[j] < end; ++j) {
            for (uint32_t k : s.covering[j]) {
                if (s.stamp[k] == s.serial) continue;
                s.stamp[k] = s.serial;
                const Region& r = s.regions[k];
                Event c = e;
                c.ts_ns = std::max(e.ts_ns, r.start_ns);
                c.dur_ns = std::min(end, r.end_ns) - c.ts_ns;
                if (c.dur_ns > 0) s.metrics[k]->add(c);
            }
        }
        return;
    }
    int64_t i = s.segment(e.ts_ns);
    if (i < 0) return;
    for (uint32_t k : s.covering[static_cast<size_t>(i)]) {
        const Region& r = s.regions[k];
        if (end <= r.end_ns) {
            s.metrics[k]->add(e);
        } else {
            Event c = e;
            c.dur_ns = r.end_ns - e.ts_ns;
            s.metrics[k]->add(c);
        }
    }
}

std::vector<RegionResult> RegionMetrics::finish(const RuleThresholds* thresholds) {
    std::vector<RegionResult> out;
    for (size_t k = 0; k < s_->regions.size(); ++k) {
        RegionResult r;
        r.region = s_->regions[k];
        r.summary = s_->metrics[k]->finish(s_->info);
        // A region's report shows its top opcodes; the full list (up to
        // 50,000) is the profile's dataset table, not each region's.
        std::vector<KeyStat>().swap(r.summary.opcodes);
        r.summary.start_ns = r.region.start_ns;
        r.summary.end_ns = r.region.end_ns;
        r.findings = evaluate_rules(r.summary, nullptr, thresholds);
        fit_findings_to_matmul_free(r.findings, r.summary);
        for (Finding& f : r.findings) {
            f.region = r.region.name;
            f.start_ns = r.region.start_ns;
            f.end_ns = r.region.end_ns;
        }
        out.push_back(std::move(r));
    }
    s_->metrics.clear();
    return out;
}

}  // namespace nx
