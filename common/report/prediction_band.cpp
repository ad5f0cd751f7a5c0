// The model's error band on a predicted time (prediction_band.h).
#include "common/report/prediction_band.h"

#include <cstdio>

#include "common/profile/profile_record.h"
#include "common/records/backend_words.h"

namespace nx {

PredictionBand prediction_band(const ProfileInfo& info) {
    PredictionBand band;
    // Only a prediction has a band: a measured profile that carries a copied
    // "predicted" object (a user's jq) is still a measurement.
    if (!predicts(info.backend) || info.carried_json.find("\"predicted\"") == std::string::npos) return band;
    rapidjson::Document carried = carried_document(info);
    auto p = carried.FindMember("predicted");
    if (p == carried.MemberEnd() || !p->value.IsObject()) return band;
    band.predicted = true;
    auto basis = p->value.FindMember("error_band_basis");
    if (basis != p->value.MemberEnd() && basis->value.IsString()) band.basis = basis->value.GetString();
    auto pct = p->value.FindMember("error_band_percent");
    if (pct == p->value.MemberEnd() || !pct->value.IsNumber() || pct->value.GetDouble() < 0) return band;
    band.percent = pct->value.GetDouble();
    return band;
}

std::string band_text(double band_percent) {
    char text[32];
    std::snprintf(text, sizeof text, "+-%.0f%%", band_percent);
    return text;
}

std::string with_band(const std::string& figure, const PredictionBand& band) {
    if (band.known()) return "~" + figure + " (" + band_text(band.percent) + ")";
    return band.predicted ? "~" + figure + " (no band)" : figure;
}

}  // namespace nx
