#include "common/profile/availability.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>

#include "common/records/json_members.h"

namespace nx {

namespace {

// Warnings the Neuron profilers write when a kind of data is missing, and
// the figures they then write as 0 (real trn2 JSON, neuron-profile 2.28;
// inf2 JSON, 2.27).  A warning that names figures in backquotes and says
// they "will not be available" adds those names as well.
struct MissingData {
    std::string_view says;                   // a phrase of the warning's message
    std::vector<std::string_view> metrics;   // figures that are 0 because of it
};
const MissingData kMissingData[] = {
    {"Missing HLO stats", {"model_flops", "mfu_hlo_estimated_percent", "mfu_hlo_max_achievable_estimated_percent"}},
    {"dynamic DMA metadata",
     {"dma_transfer_average_bytes", "dma_transfer_count", "dma_transfer_total_bytes", "dma_transfer_time"}},
};

// The DMA transfer figures: the profiler derives them from DGE metadata and
// writes 0 without it, while its packet rows still carry the bytes.
constexpr std::string_view kUnrecordedWhenZero[] = {"dma_transfer_average_bytes", "dma_transfer_count",
                                                    "dma_transfer_total_bytes"};

std::vector<std::string> backquoted_names(std::string_view message) {
    std::vector<std::string> out;
    if (message.find("not be available") == std::string_view::npos && message.find("not available") == std::string_view::npos)
        return out;
    for (size_t open = message.find('`'); open != std::string_view::npos; open = message.find('`', open)) {
        size_t close = message.find('`', open + 1);
        if (close == std::string_view::npos) break;
        std::string_view name = message.substr(open + 1, close - open - 1);
        bool is_name = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        });
        if (is_name) out.emplace_back(name);
        open = close + 1;
    }
    return out;
}

std::string sentinel_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

std::vector<std::string> profiler_warnings(std::string_view carried_json) {
    std::vector<std::string> out;
    rapidjson::Document doc;
    const rapidjson::Value* warnings = carried_array(carried_json, "warnings", doc);
    if (!warnings) return out;
    for (const auto& w : warnings->GetArray()) {
        if (w.IsString()) {
            out.emplace_back(w.GetString(), w.GetStringLength());
        } else if (w.IsObject()) {
            auto m = w.FindMember("message");
            if (m != w.MemberEnd() && m->value.IsString()) out.emplace_back(m->value.GetString(), m->value.GetStringLength());
        }
    }
    return out;
}

std::vector<std::string> import_notes(std::string_view carried_json) {
    std::vector<std::string> out;
    rapidjson::Document doc;
    const rapidjson::Value* notes = carried_array(carried_json, "import_notes", doc);
    if (!notes) return out;
    for (const auto& n : notes->GetArray())
        if (n.IsString()) out.emplace_back(n.GetString(), n.GetStringLength());
    return out;
}

std::vector<UnavailableMetric> take_unavailable(std::map<std::string, double, std::less<>>& source,
                                                const std::vector<std::string>& warnings) {
    std::vector<UnavailableMetric> out;
    auto listed = [&](std::string_view name) {
        return std::any_of(out.begin(), out.end(), [&](const UnavailableMetric& u) { return u.name == name; });
    };
    // Sentinels: no summary figure of a profile can be negative.
    for (auto it = source.begin(); it != source.end();) {
        if (it->second < 0) {
            out.push_back({it->first, "the profiler wrote " + sentinel_text(it->second) + " (not available)"});
            it = source.erase(it);
        } else {
            ++it;
        }
    }
    // Zeros (or no figure at all) the profile's own warnings call missing.
    for (const std::string& message : warnings) {
        std::vector<std::string> names = backquoted_names(message);
        for (const MissingData& md : kMissingData)
            if (message.find(md.says) != std::string::npos) names.insert(names.end(), md.metrics.begin(), md.metrics.end());
        for (const std::string& name : names) {
            auto it = source.find(name);
            if ((it != source.end() && it->second != 0) || listed(name)) continue;
            if (it != source.end()) source.erase(it);
            out.push_back({name, "the profiler says: " + message});
        }
    }
    return out;
}

bool zero_means_unrecorded(std::string_view metric) {
    return std::find(std::begin(kUnrecordedWhenZero), std::end(kUnrecordedWhenZero), metric) != std::end(kUnrecordedWhenZero);
}

}  // namespace nx
