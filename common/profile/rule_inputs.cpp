#include "common/profile/rule_inputs.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <rapidjson/document.h>

#include "common/records/json_members.h"

namespace nx {

std::string_view json_field(std::string_view obj, std::string_view key) {
    // "key" then optional blanks, a colon, optional blanks, then the value.
    size_t pos = 0;
    while ((pos = obj.find(key, pos)) != std::string_view::npos) {
        size_t after = pos + key.size();
        bool quoted = pos > 0 && obj[pos - 1] == '"' && after < obj.size() && obj[after] == '"';
        pos = after;
        if (!quoted) continue;
        size_t i = after + 1;
        while (i < obj.size() && (obj[i] == ' ' || obj[i] == '\t')) ++i;
        if (i >= obj.size() || obj[i] != ':') continue;
        ++i;
        while (i < obj.size() && (obj[i] == ' ' || obj[i] == '\t')) ++i;
        if (i >= obj.size()) return {};
        if (obj[i] == '"') {
            size_t j = i + 1;
            while (j < obj.size() && obj[j] != '"') j += obj[j] == '\\' ? 2 : 1;
            return obj.substr(i + 1, std::min(j, obj.size()) - i - 1);
        }
        size_t j = i;
        while (j < obj.size() && obj[j] != ',' && obj[j] != '}' && obj[j] != ' ') ++j;
        std::string_view v = obj.substr(i, j - i);
        return v == "null" ? std::string_view() : v;
    }
    return {};
}

namespace {

double to_number(std::string_view s, double fallback) {
    if (s.empty()) return fallback;
    std::string t(s);
    char* end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    return end == t.c_str() ? fallback : v;
}

// Engine rows as the metrics name them (TensorMatrix counts as Tensor).
Engine metric_row(Engine e) { return e == Engine::tensor_matrix ? Engine::tensor : e; }

bool is_throttle_track(std::string_view track) {
    // neuron-profile JSON's "ham" rows (per core: "ham", "ham nc1" ...).
    return track.substr(0, 3) == "ham";
}

double median(std::vector<int64_t> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? static_cast<double>(v[n / 2]) : (static_cast<double>(v[n / 2 - 1]) + static_cast<double>(v[n / 2])) / 2;
}

}  // namespace

void RuleInputs::add(const Event& e) {
    if (e.type == EventType::instruction && is_compute_engine(e.engine)) {
        size_t row = static_cast<size_t>(metric_row(e.engine));
        ++instructions_[row];
        // Two plain searches first: most
        // instructions carry neither.
        if (!e.args_json.empty() && (e.args_json.find("nki_source_location\"") != std::string_view::npos ||
                                     e.args_json.find("kernel_instruction_name\"") != std::string_view::npos)) {
            nki_field_seen_ = true;
            if (!json_field(e.args_json, "nki_source_location").empty() ||
                !json_field(e.args_json, "kernel_instruction_name").empty())
                ++nki_[row];
        }
        return;
    }
    if (e.type == EventType::region && is_throttle_track(e.track)) {
        throttle_seen_ = true;
        double k = to_number(json_field(e.args_json, "k"), 1), n = to_number(json_field(e.args_json, "n"), 1);
        if (n > 0 && k < n && e.dur_ns > 0 && throttle_.size() < kMaxThrottleSpans)
            throttle_.push_back({e.ts_ns, e.ts_ns + e.dur_ns, k / n});
        return;
    }
    if (e.type == EventType::region && e.track == "collectives") {
        if (collective_count_ >= kMaxCollectives) return;
        std::string key(e.name);
        key += '|' + std::to_string(e.bytes);
        collectives_[key].push_back(e.dur_ns);
        ++collective_count_;
        return;
    }
    if (e.type == EventType::dma) {
        std::string_view type = e.queue_type;
        if (type.empty() && !e.args_json.empty()) type = json_field(e.args_json, "queue_type");
        if (type.empty()) return;
        auto it = queues_.find(type);
        if (it == queues_.end()) it = queues_.try_emplace(std::string(type)).first;
        QueueAcc& q = it->second;
        ++q.transfers;
        if (e.bytes > 0) q.bytes += e.bytes;
        q.busy.add(e.ts_ns, e.ts_ns + std::max<int64_t>(e.dur_ns, 0));
        if (type == "hardware_dynamic") {
            ++hw_dge_;
            if (e.bytes >= 0 && e.bytes < kSmallDmaBytes) ++hw_dge_small_;
        }
    }
}

void RuleInputs::add_repeat_factor(double f) {
    if (!std::isfinite(f)) return;
    max_repeat_ = std::max(max_repeat_, f);
    if (f > 1) ++repeated_tensors_;
}

void RuleInputs::add_source_rows(const SourceRows& rows) {
    if (!reads_table(rows.table)) return;
    bool tensors = rows.table == "TensorInfo";
    for (const std::string& row : rows.rows) {
        rapidjson::Document d;
        d.Parse(row.data(), row.size());
        if (d.HasParseError() || !d.IsObject()) continue;
        auto num = [&](const char* k, double fallback) {
            auto it = d.FindMember(k);
            return it != d.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : fallback;
        };
        if (tensors) {
            double f = num("load_to_sbuf_repeat_factor", NAN);
            if (!std::isnan(f)) add_repeat_factor(f);
            continue;
        }
        throttle_seen_ = true;
        double ts = num("timestamp", NAN), dur = num("duration", 0), k = num("k", 1), n = num("n", 1);
        if (std::isnan(ts) || dur <= 0 || n <= 0 || k >= n || throttle_.size() >= kMaxThrottleSpans) continue;
        auto begin = static_cast<int64_t>(ts);
        throttle_.push_back({begin, begin + static_cast<int64_t>(dur), k / n});
    }
}

void RuleInputs::add_carried(std::string_view carried) {
    rapidjson::Document d;
    const rapidjson::Value* nodes = carried_array(carried, "neff_node", d);
    if (!nodes) return;
    for (const auto& node : nodes->GetArray()) {
        if (!node.IsObject()) continue;
        auto f = node.FindMember("load_to_sbuf_repeat_factor");
        if (f == node.MemberEnd()) continue;
        if (f->value.IsNumber()) add_repeat_factor(f->value.GetDouble());
        else if (f->value.IsString()) add_repeat_factor(to_number(f->value.GetString(), NAN));
    }
}

RuleInputs::Output RuleInputs::finish(IntervalUnion* tensor_busy, double peak_flops, double total_ns) {
    Output out;
    auto put = [&](std::string name, double v) { out.metrics.emplace_back(std::move(name), v); };

    // NKI coverage: only for a profile that has NKI attribution at all (a
    // model compiled without NKI kernels is not "poorly covered").
    int64_t nki_total = 0;
    for (int64_t n : nki_) nki_total += n;
    if (nki_field_seen_ && nki_total > 0) {
        static constexpr std::pair<Engine, std::string_view> kRows[] = {
            {Engine::tensor, "tensor"}, {Engine::vector, "vector"}, {Engine::scalar, "scalar"},
            {Engine::gpsimd, "gpsimd"}, {Engine::sync, "sync"}};
        for (const auto& [e, prefix] : kRows) {
            size_t i = static_cast<size_t>(e);
            if (instructions_[i] == 0) continue;
            put(std::string(prefix) + "_engine_nki_instruction_percent", 100.0 * nki_[i] / instructions_[i]);
        }
    } else if (nki_field_seen_) {
        out.notes.push_back("no instruction names an NKI source location: NKI coverage is not reported");
    }

    // Throttling: time under a limit, its mean limit, and the tensor-engine
    // FLOPs the limit took (busy time under the limit x (1 - k/n) x peak).
    if (throttle_seen_) {
        std::sort(throttle_.begin(), throttle_.end(),
                  [](const ThrottleSpan& a, const ThrottleSpan& b) { return a.begin < b.begin; });
        IntervalUnion spans;
        double weighted = 0, length = 0;
        for (const ThrottleSpan& s : throttle_) {
            spans.add(s.begin, s.end);
            weighted += s.allowed * static_cast<double>(s.end - s.begin);
            length += static_cast<double>(s.end - s.begin);
        }
        double throttled_ns = static_cast<double>(spans.total());
        put("throttle_active_time", throttled_ns / 1e9);
        if (total_ns > 0) put("throttle_active_time_percent", 100.0 * throttled_ns / total_ns);
        if (length > 0) put("throttle_avg_util_limit_percent", 100.0 * weighted / length);
        if (tensor_busy && peak_flops > 0) {
            std::vector<Interval> busy;
            tensor_busy->for_each([&](const Interval& i) { busy.push_back(i); });
            double lost_ns = 0;
            size_t j = 0;
            for (const ThrottleSpan& s : throttle_) {
                while (j < busy.size() && busy[j].end <= s.begin) ++j;
                for (size_t k = j; k < busy.size() && busy[k].begin < s.end; ++k) {
                    int64_t lo = std::max(busy[k].begin, s.begin), hi = std::min(busy[k].end, s.end);
                    if (hi > lo) lost_ns += static_cast<double>(hi - lo) * (1 - s.allowed);
                }
            }
            double busy_ns = static_cast<double>(tensor_busy->total());
            put("throttled_flops", lost_ns / 1e9 * peak_flops);
            if (busy_ns > 0) put("throttled_flops_percent", 100.0 * lost_ns / busy_ns);
        }
    }

    // Collectives: each group (operation, size) of three or more against its
    // median; the worst ratio is the rule's figure.
    if (collective_count_ > 0) {
        put("collective_op_count", static_cast<double>(collective_count_));
        double worst = 0;
        bool grouped = false;
        for (auto& [key, durs] : collectives_) {
            if (durs.size() < 3) continue;
            double med = median(durs);
            if (med <= 0) continue;
            grouped = true;
            worst = std::max(worst, static_cast<double>(*std::max_element(durs.begin(), durs.end())) / med);
        }
        if (grouped) put("collective_outlier_ratio", worst);
        else out.notes.push_back("no collective group (same operation and size) has three operations: no outlier figure");
    }

    if (!queues_.empty()) {
        for (auto& [type, q] : queues_)
            out.queue_types.push_back({type, q.transfers, q.bytes, q.busy.total()});
        put("hardware_dge_transfer_count", static_cast<double>(hw_dge_));
        put("small_dma_transfer_count", static_cast<double>(hw_dge_small_));
        if (hw_dge_ > 0) put("small_dma_transfer_percent", 100.0 * hw_dge_small_ / hw_dge_);
    }

    if (max_repeat_ >= 0) {
        put("max_tensor_repeat_factor", max_repeat_);
        put("repeated_tensor_count", static_cast<double>(repeated_tensors_));
    }
    return out;
}

}  // namespace nx
