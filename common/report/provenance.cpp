#include "common/report/provenance.h"

#include <rapidjson/document.h>

#include <vector>

namespace nx {

void Provenance::add(const std::string& backend) {
    if (!backend.empty()) backends_.insert(backend);
}

void Provenance::add(const ReportInput& input) {
    for (const ProfileEntry& p : input.profiles) add(p.info.backend);
    for (const rapidjson::Document& r : input.runs) {
        auto it = r.FindMember("backend");
        if (it != r.MemberEnd() && it->value.IsString()) add(it->value.GetString());
    }
}

bool Provenance::predicted() const {
    for (const std::string& b : backends_)
        if (predicts(b)) return true;
    return false;
}

bool Provenance::mixed() const { return predicted() && !measured().empty(); }

std::string Provenance::measured() const {
    std::string out;
    for (const std::string& b : backends_)
        if (!predicts(b)) out += (out.empty() ? "" : ", ") + b;
    return out;
}

std::string Provenance::predicting() const {
    std::string out;
    for (const std::string& b : backends_)
        if (predicts(b)) out += (out.empty() ? "" : " and ") + provenance_label(b);
    return out;
}

std::string Provenance::label() const {
    if (!predicted()) return {};
    if (!mixed()) return predicting();
    return "mixed: " + predicting() + " and measured (" + measured() + ")";
}

void Provenance::label_document(Document& doc) const {
    if (!predicted()) return;
    std::string note = mixed() ? "warning: mixed inputs: figures " + predicting() + " beside figures measured (" +
                                     measured() + "); the predictions are not measurements, do not compare them as equals."
                               : "Every figure here is " + predicting() + ", not measured.";
    Block b(Block::paragraph);
    b.text = note;
    auto at = doc.blocks.begin();
    if (at != doc.blocks.end() && at->kind == Block::heading) ++at;
    doc.blocks.insert(at, std::move(b));
    for (Block& block : doc.blocks)
        if (block.kind == Block::chart) block.chart_data.title += " — " + label();
}

void Provenance::label_rows(RowWriter& w) const {
    if (predicted()) w.constant_column("provenance", Cell::of_text(label()));
}

}  // namespace nx
