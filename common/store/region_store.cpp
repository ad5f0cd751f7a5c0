#include "common/store/region_store.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <optional>
#include <unordered_map>
#include <variant>

#include <rapidjson/document.h>

#include "common/profile/kernel_regions.h"
#include "common/profile/rule_inputs.h"
#include "common/store/kept_sources.h"
#include "common/store/profile_scan.h"
#include "common/store/store.h"
#include "common/store/table_function.h"

namespace nx {

namespace {

// A source row's fields (Explorer tables kept as JSON objects).
class SourceRow {
public:
    explicit SourceRow(std::string_view data) {
        d_.Parse(data.data(), data.size());
        ok_ = !d_.HasParseError() && d_.IsObject();
    }
    bool ok() const { return ok_; }
    std::string text(const char* k) const {
        auto it = d_.FindMember(k);
        return it != d_.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString()) : std::string();
    }
    std::optional<int64_t> integer(const char* k) const {
        auto it = d_.FindMember(k);
        if (it == d_.MemberEnd() || !it->value.IsNumber()) return std::nullopt;
        return it->value.IsInt64() ? it->value.GetInt64() : static_cast<int64_t>(it->value.GetDouble());
    }

private:
    rapidjson::Document d_;
    bool ok_ = false;
};

// Explorer's FrameworkNode rows (hierarchy nodes with their time span).
std::vector<Region> framework_regions(sqlite3* db, const DbProfile& p) {
    std::vector<Region> out;
    scan_source_rows(db, p, "FrameworkNode", [&](std::string_view data) {
        SourceRow row(data);
        if (!row.ok()) return;
        Region r;
        r.kind = "layer";
        r.name = row.text("node_name");
        r.parent = row.text("parent_name");
        r.start_ns = row.integer("start_ts").value_or(-1);
        r.end_ns = row.integer("end_ts").value_or(-1);
        if (!r.name.empty() && r.start_ns >= 0 && r.end_ns > r.start_ns) out.push_back(std::move(r));
    });
    return out;
}

// The collectives (Explorer's CcOp rows, stored as region events on the
// "collectives" track) and the phases between them.
std::vector<Region> event_collective_regions(sqlite3* db, const DbProfile& p) {
    std::vector<TimedOp> ops;
    scan_profile_events(
        db, p, [&](const Event& e) { ops.push_back({std::string(e.name), e.ts_ns, e.ts_ns + e.dur_ns}); },
        "type = 'region' AND track_id IN (SELECT id FROM " + p.schema + ".track WHERE name = 'collectives')");
    return collective_regions(std::move(ops));
}

// NKI kernel stack frames and loop iterations (Explorer's KernelInstructions,
// KernelStackFrames, KernelIterationVariables rows) over the instructions
// whose kernel_instruction_name the tables place.
std::vector<Region> kernel_regions(sqlite3* db, const DbProfile& p) {
    KernelRegions k;
    auto core = [](const SourceRow& row) { return row.integer("pcore_idx").value_or(KernelRegions::kAnyCore); };
    scan_source_rows(db, p, "KernelInstructions", [&](std::string_view data) {
        SourceRow row(data);
        if (row.ok())
            k.kernel_instruction(core(row), row.text("kernel_instruction_name"), row.integer("stack_frame_id"),
                                 row.integer("iteration_variables_id"));
    });
    if (k.empty()) return {};
    scan_source_rows(db, p, "KernelStackFrames", [&](std::string_view data) {
        SourceRow row(data);
        if (auto id = row.ok() ? row.integer("stack_frame_id") : std::nullopt)
            k.stack_frame(core(row), *id, row.text("fully_qualified_function_name"), row.integer("parent_stack_frame_id"));
    });
    scan_source_rows(db, p, "KernelIterationVariables", [&](std::string_view data) {
        SourceRow row(data);
        if (auto id = row.ok() ? row.integer("iteration_variable_id") : std::nullopt)
            k.iteration_variable(core(row), *id, row.text("variable_name"), row.integer("variable_value"),
                                 row.integer("parent_iteration_variable_id"));
    });
    scan_profile_events(
        db, p,
        [&](const Event& e) {
            // Tracks of physical cores past 0 are "pcoreN/..." (explorer_parquet.cpp).
            int64_t pcore = 0;
            if (e.track.starts_with("pcore")) pcore = std::atoll(std::string(e.track.substr(5)).c_str());
            k.instruction(pcore, json_field(e.args_json, "kernel_instruction_name"), e.ts_ns, e.ts_ns + e.dur_ns);
        },
        "type = 'instruction' AND " + event_args_sql(db, p.schema, "") + " LIKE '%\"kernel_instruction_name\"%'");
    return k.finish();
}

// The layers the instructions name, in file order: a layer's run of
// instructions up to the next instruction of another layer is one
// occurrence.  A layer with one occurrence is a layer region; one that comes
// back (a loop body, a repeated block) is an iteration per occurrence
// (RegionMetrics keeps the longest kMaxRegions).  Past kMaxRuns occurrences
// the layers interleave too finely for runs to mean anything: each layer is
// then one region spanning all of its instructions.
constexpr size_t kMaxRuns = 64 * RegionMetrics::kMaxRegions;

std::vector<Region> event_layer_regions(sqlite3* db, const DbProfile& p) {
    struct Run { int64_t layer, start, end; };
    std::vector<Run> runs;
    bool too_many = false;
    std::unordered_map<int64_t, std::pair<int64_t, int64_t>> spans;  // layer -> whole span
    {
        ConnStmt q(db, "SELECT layer_id, ts, ts + dur FROM " + p.schema + ".event WHERE " + p.where("") +
                       " AND type = 'instruction' AND layer_id IS NOT NULL");
        p.bind(q);
        while (q.step()) {
            int64_t layer = q.i64(0), b = q.i64(1), e = q.i64(2);
            auto [it, fresh] = spans.try_emplace(layer, b, e);
            if (!fresh) {
                it->second.first = std::min(it->second.first, b);
                it->second.second = std::max(it->second.second, e);
            }
            if (too_many) continue;
            if (!runs.empty() && runs.back().layer == layer) {
                runs.back().start = std::min(runs.back().start, b);
                runs.back().end = std::max(runs.back().end, e);
                continue;
            }
            runs.push_back({layer, b, e});
            if (runs.size() > kMaxRuns) too_many = true;
        }
    }
    std::unordered_map<int64_t, std::string> names;
    {
        ConnStmt q(db, "SELECT s.id, s.value FROM " + p.schema + ".string s WHERE s.id IN (SELECT DISTINCT layer_id FROM " +
                       p.schema + ".event WHERE " + p.where("") + " AND type = 'instruction' AND layer_id IS NOT NULL)");
        p.bind(q);
        while (q.step()) names[q.i64(0)] = std::string(q.text(1));
    }
    std::vector<Region> out;
    if (too_many) {
        for (const auto& [layer, span] : spans) out.push_back({"layer", names[layer], {}, span.first, span.second});
        std::sort(out.begin(), out.end(), [](const Region& a, const Region& b) { return a.start_ns < b.start_ns; });
        return out;
    }
    std::unordered_map<int64_t, int> count, nth;
    for (const Run& r : runs) ++count[r.layer];
    for (const Run& r : runs) {
        Region g{"layer", names[r.layer], {}, r.start, r.end};
        if (count[r.layer] > 1) {
            g.kind = "iteration";
            g.name += " #" + std::to_string(++nth[r.layer]);
        }
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<Region> automatic_regions(sqlite3* db, const DbProfile& p) {
    std::vector<Region> regions = carried_layer_regions(p.record);
    if (regions.empty()) regions = framework_regions(db, p);
    if (regions.empty()) regions = event_layer_regions(db, p);
    for (std::vector<Region> more : {event_collective_regions(db, p), kernel_regions(db, p)})
        regions.insert(regions.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    assign_parents(regions);
    return regions;
}

std::vector<RegionResult> regions_of(sqlite3* db, int64_t profile_id, const std::vector<WindowSpec>& windows,
                                     const RuleThresholds* thresholds, std::vector<std::string>* notes, bool metrics) {
    DbProfile p(db, profile_id);
    if (!p.found) return {};
    std::vector<Region> regions = automatic_regions(db, p);
    for (const WindowSpec& w : windows) regions.push_back(resolve_window(w, p.start, p.end));
    if (!metrics) {
        std::vector<RegionResult> out;
        for (Region& r : regions) out.push_back({std::move(r), {}, {}});
        std::stable_sort(out.begin(), out.end(),
                         [](const RegionResult& a, const RegionResult& b) { return a.region.start_ns < b.region.start_ns; });
        return out;
    }
    if (regions.empty()) return {};
    RegionMetrics rm(std::move(regions), p.info);
    if (rm.dropped() > 0 && notes)
        notes->push_back(std::to_string(rm.dropped()) + " regions past the first " +
                         std::to_string(RegionMetrics::kMaxRegions) + " (the shortest) are left out");
    scan_profile_events(db, p, [&](const Event& e) { rm.add(e); });
    return rm.finish(thresholds);
}

// ---- table-valued functions

using Value = SqlValue;

constexpr const char* kListSchema =
    "CREATE TABLE x(region_id INTEGER, kind TEXT, name TEXT, parent TEXT, start_ns INTEGER, end_ns INTEGER, "
    "dur_ns INTEGER, profile_id HIDDEN)";
constexpr const char* kStatsSchema =
    "CREATE TABLE x(region_id INTEGER, kind TEXT, name TEXT, parent TEXT, start_ns INTEGER, end_ns INTEGER, "
    "dur_ns INTEGER, percent_of_profile REAL, events INTEGER, instructions INTEGER, tensor_busy_ns INTEGER, "
    "vector_busy_ns INTEGER, scalar_busy_ns INTEGER, gpsimd_busy_ns INTEGER, sync_busy_ns INTEGER, "
    "dma_busy_ns INTEGER, tensor_active_percent REAL, dma_active_percent REAL, hardware_flops REAL, "
    "model_flops REAL, mfu_percent REAL, hbm_bytes REAL, findings INTEGER, worst_rule TEXT, worst_severity TEXT, "
    "worst_message TEXT, profile_id HIDDEN)";
constexpr int kListColumns = 7;
constexpr int kStatsColumns = 26;


std::vector<Value> row_of(size_t index, const RegionResult& r, int64_t profile_span, bool stats) {
    std::vector<Value> v;
    int64_t dur = r.region.end_ns - r.region.start_ns;
    v.emplace_back(static_cast<int64_t>(index + 1));
    v.emplace_back(r.region.kind);
    v.emplace_back(r.region.name);
    v.emplace_back(r.region.parent.empty() ? Value{} : Value{r.region.parent});
    v.emplace_back(r.region.start_ns);
    v.emplace_back(r.region.end_ns);
    v.emplace_back(dur);
    if (!stats) return v;
    const ProfileSummary& s = r.summary;
    v.emplace_back(profile_span > 0 ? Value{100.0 * static_cast<double>(dur) / static_cast<double>(profile_span)} : Value{});
    v.emplace_back(s.events);
    int64_t instructions = 0;
    std::array<Value, 6> busy{};
    for (const EngineStat& e : s.engines) {
        if (e.engine != Engine::dma) instructions += e.instructions;
        int slot = -1;
        switch (e.engine) {
            case Engine::tensor:
            case Engine::tensor_matrix: slot = 0; break;
            case Engine::vector: slot = 1; break;
            case Engine::scalar: slot = 2; break;
            case Engine::gpsimd: slot = 3; break;
            case Engine::sync: slot = 4; break;
            case Engine::dma: slot = 5; break;
            default: break;
        }
        if (slot < 0) continue;
        if (slot == 0 && std::holds_alternative<int64_t>(busy[0])) continue;  // both TensorE rows: the metric below
        busy[static_cast<size_t>(slot)] = e.busy_ns;
    }
    if (const MetricValue* t = s.find("tensor_engine_active_time")) busy[0] = static_cast<int64_t>(t->value * 1e9 + 0.5);
    v.emplace_back(instructions);
    for (Value& b : busy) v.push_back(b);
    auto metric = [&](const char* name) { const MetricValue* m = s.find(name); return m ? Value{m->value} : Value{}; };
    v.push_back(metric("tensor_engine_active_time_percent"));
    v.push_back(metric("dma_active_time_percent"));
    v.push_back(metric("hardware_flops"));
    v.push_back(metric("model_flops"));
    v.push_back(metric("mfu_estimated_percent"));
    const MetricValue* rd = s.find("hbm_read_bytes");
    const MetricValue* wr = s.find("hbm_write_bytes");
    v.push_back(rd && wr ? Value{rd->value + wr->value} : Value{});
    v.emplace_back(static_cast<int64_t>(r.findings.size()));
    if (r.findings.empty()) {
        v.emplace_back();
        v.emplace_back();
        v.emplace_back();
    } else {
        const Finding& f = r.findings.front();
        v.emplace_back(f.rule);
        v.emplace_back(std::string(to_string(f.severity)));
        v.emplace_back(f.message);
    }
    return v;
}

template <bool Stats>
std::vector<std::vector<Value>> region_rows(sqlite3* db, int64_t profile) {
    DbProfile p(db, profile);
    std::vector<RegionResult> regions = regions_of(db, profile, {}, nullptr, nullptr, Stats);
    std::vector<std::vector<Value>> rows;
    for (size_t i = 0; i < regions.size(); ++i) rows.push_back(row_of(i, regions[i], p.end - p.start, Stats));
    return rows;
}

const TableFunction kFunctions[] = {computed_table_function("regions", kListSchema, kListColumns, region_rows<false>),
                                    computed_table_function("region_stats", kStatsSchema, kStatsColumns, region_rows<true>)};

}  // namespace

const char* const kRegionView =
    "CREATE TEMP VIEW IF NOT EXISTS region AS "
    "SELECT p.id AS profile_id, p.name AS profile, r.region_id, r.kind, r.name, r.parent, r.start_ns, r.end_ns, "
    "r.dur_ns FROM profile p, regions(p.id) r";

std::vector<RegionResult> store_regions(Store& store, const std::string& uid, const std::vector<WindowSpec>& windows,
                                        const RuleThresholds* thresholds, std::vector<std::string>* notes) {
    return regions_of(store.db().handle(), stored_profile_rowid(store, uid), windows, thresholds, notes, true);
}

void register_region_functions(sqlite3* db) {
    for (const TableFunction& f : kFunctions) register_table_function(db, f);
}

}  // namespace nx
