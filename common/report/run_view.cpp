#include "common/report/run_view.h"

#include <cmath>
#include <cstdio>

#include "common/records/jsonl.h"
#include "common/report/units.h"

namespace nx {

namespace {
std::string text(const rapidjson::Value& r, const char* k) {
    auto it = r.FindMember(k);
    return it != r.MemberEnd() && it->value.IsString() ? it->value.GetString() : "";
}
int64_t integer(const rapidjson::Value& r, const char* k) {
    auto it = r.FindMember(k);
    return it != r.MemberEnd() && it->value.IsNumber() ? static_cast<int64_t>(it->value.GetDouble()) : 0;
}
double number(const rapidjson::Value& r, const char* k) {
    auto it = r.FindMember(k);
    return it != r.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : NAN;
}
const rapidjson::Value* object(const rapidjson::Value& r, const char* k) {
    auto it = r.FindMember(k);
    return it != r.MemberEnd() && it->value.IsObject() ? &it->value : nullptr;
}
}  // namespace

RunView view_run(const rapidjson::Value& r) {
    RunView v;
    v.name = text(r, "name");
    v.study = text(r, "study");
    v.op = text(r, "op");
    v.dtype = text(r, "dtype");
    v.backend = text(r, "backend");
    v.target = text(r, "target");
    v.M = integer(r, "M");
    v.K = integer(r, "K");
    v.N = integer(r, "N");
    v.batch = integer(r, "batch");
    v.seq = integer(r, "seq");
    v.pattern = text(r, "pattern");
    v.size = text(r, "size");
    v.phase = text(r, "phase");
    v.gemm = text(r, "gemm");
    v.model = text(r, "model");
    v.iterations = integer(r, "iterations");
    v.features = integer(r, "features");
    v.tp = integer(r, "tp");
    v.tflops = number(r, "tflops");
    v.compile_ms = number(r, "compile_ms");
    if (const rapidjson::Value* l = object(r, "latency_us")) {
        v.median_us = number(*l, "median");
        v.p95_us = number(*l, "p95");
    }
    if (const rapidjson::Value* t = object(r, "tiles")) {
        v.tiles_M = integer(*t, "M");
        v.tiles_K = integer(*t, "K");
        v.tiles_N = integer(*t, "N");
        v.tiles_total = integer(*t, "total");
    }
    if (const rapidjson::Value* p = object(r, "predicted")) {
        auto it = p->FindMember("instructions");
        if (it != p->MemberEnd() && it->value.IsInt64()) v.predicted_instructions = it->value.GetInt64();
        v.error_band_percent = number(*p, "error_band_percent");
        v.variant = text(*p, "variant");
    }
    auto c = r.FindMember("cached");
    v.cached = c != r.MemberEnd() && c->value.IsBool() && c->value.GetBool();
    return v;
}

std::vector<RunView> view_runs(const std::vector<rapidjson::Document>& runs) {
    std::vector<RunView> out;
    for (const auto& r : runs) out.push_back(view_run(r));
    return out;
}

std::string format_run_ns(const RunView& r, double ns) {
    if (!std::isfinite(ns) || !std::isfinite(r.error_band_percent)) return format_ns(ns);
    char band[32];
    std::snprintf(band, sizeof band, " (+-%.0f%%)", r.error_band_percent);
    return "~" + format_ns(ns) + band;
}

std::string backend_phrase(const std::string& backend) {
    if (backend == "sim") return "sim (predicted by the nx NeuronCore model, not measured)";
    if (backend == "cpu") return "cpu (measured on the host CPU, not a Neuron device)";
    if (backend == "neuron") return "neuron (measured on a Neuron device)";
    return backend.empty() ? "unknown backend" : backend;
}

}  // namespace nx
