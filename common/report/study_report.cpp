#include "common/report/study_report.h"

#include <cmath>

#include "common/jsonl.h"
#include "common/report/units.h"

namespace nx {

namespace {
std::string text_of(const rapidjson::Value& r, const char* k) {
    auto it = r.FindMember(k);
    if (it == r.MemberEnd() || it->value.IsNull()) return "";
    if (it->value.IsString()) return it->value.GetString();
    if (it->value.IsNumber()) return format_value(it->value.GetDouble());
    return to_json(it->value);
}
double number_at(const rapidjson::Value& r, const char* obj, const char* k) {
    auto o = r.FindMember(obj);
    if (o == r.MemberEnd() || !o->value.IsObject()) return NAN;
    auto it = o->value.FindMember(k);
    return it != o->value.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : NAN;
}
}  // namespace

void add_study_report(Document& doc, const std::vector<rapidjson::Document>& runs, bool) {
    doc.heading("Runs");
    TableBlock t;
    t.columns = {"name", "backend", "target", "median", "p95", "TFLOP/s", "tiles"};
    t.numeric = {false, false, false, true, true, true, true};
    for (const auto& r : runs) {
        double med = number_at(r, "latency_us", "median"), p95 = number_at(r, "latency_us", "p95");
        t.rows.push_back({text_of(r, "name"), text_of(r, "backend"), text_of(r, "target"), format_ns(med * 1e3),
                          format_ns(p95 * 1e3), text_of(r, "tflops"),
                          std::isfinite(number_at(r, "tiles", "total")) ? format_count(number_at(r, "tiles", "total")) : ""});
    }
    doc.table(t);
}

}  // namespace nx
