#include "common/profile/gemv_advice.h"

#include <cmath>
#include <cstdio>
#include <string>

#include <rapidjson/document.h>

#include "common/target/targets.h"

namespace nx {

namespace {

int64_t int_member(const rapidjson::Value& o, const char* key) {
    auto it = o.FindMember(key);
    if (it == o.MemberEnd() || !it->value.IsNumber()) return 0;
    double v = it->value.GetDouble();
    return std::isfinite(v) && v > 0 && v < 9e18 ? static_cast<int64_t>(v) : 0;
}

std::string text_member(const rapidjson::Value& o, const char* key) {
    auto it = o.FindMember(key);
    return it != o.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString(), it->value.GetStringLength())
                                                       : std::string();
}

std::string mib(int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return buf;
}

// The findings whose generic advice restructures the matmul itself.
bool restructures_matmul(const std::string& rule) {
    return rule == "tensor_engine_idle" || rule == "tensor_engine_poorly_fed" || rule == "model_flops_low" ||
           rule == "memory_bound_roofline";
}

}  // namespace

std::optional<GemvShape> gemv_of(const ProfileInfo& info) {
    // Cheap test first: most profiles carry no workload shape.
    if (info.carried_json.find("\"M\"") == std::string::npos) return std::nullopt;
    rapidjson::Document d;
    d.Parse(info.carried_json.data(), info.carried_json.size());
    if (d.HasParseError() || !d.IsObject() || text_member(d, "op") != "matmul") return std::nullopt;
    GemvShape g{int_member(d, "M"), int_member(d, "K"), int_member(d, "N"), 0};
    if (g.M <= 0 || g.K <= 0 || g.N <= 0) return std::nullopt;
    if (g.M > kGemvMaxRows && text_member(d, "phase") != "decode") return std::nullopt;
    std::string dtype = info.dtype.empty() ? text_member(d, "dtype") : info.dtype;
    if (auto t = parse_dtype(dtype)) g.weight_bytes = g.K * g.N * dtype_bytes(*t);
    return g;
}

void fit_findings_to_workload(std::vector<Finding>& findings, const ProfileInfo& info) {
    bool any = false;
    for (const Finding& f : findings) any = any || restructures_matmul(f.rule);
    if (!any) return;
    std::optional<GemvShape> g = gemv_of(info);
    if (!g) return;
    // The action is the same for every GEMV (a study summary counts it once);
    // the shape and weight bytes go in the cause.
    const std::string action =
        "a matrix-vector product is memory-bound: its time is reading the weights, not the matmul's structure; batch "
        "more requests per weight read (more rows per pass) or keep the weights stationary in SBUF across tokens";
    std::string shape = "M = " + std::to_string(g->M) + (g->M == 1 ? " row" : " rows") + ", " + std::to_string(g->K) +
                        " x " + std::to_string(g->N) + " weights" +
                        (g->weight_bytes > 0 ? " (" + mib(g->weight_bytes) + ")" : "");
    for (Finding& f : findings) {
        if (!restructures_matmul(f.rule)) continue;
        f.action = action;
        // The cause's pointer to restructuring matmuls does not apply either.
        const std::string hint = " (pattern study: restructure matmuls)";
        if (size_t at = f.message.find(hint); at != std::string::npos)
            f.message.replace(at, hint.size(), " (expected of a matrix-vector product: " + shape + ")");
    }
}

}  // namespace nx
