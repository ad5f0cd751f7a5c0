#include "common/report/provenance.h"

#include <rapidjson/document.h>

#include <vector>

namespace nx {

std::string provenance_label(const std::string& backend) {
    if (backend == "sim") return kPredictedLabel;
    if (backend == "neuron") return "measured on a Neuron device (neuron)";
    if (backend == "cpu") return "measured on the host CPU (cpu)";
    return backend.empty() ? "unknown backend" : "from backend " + backend;
}

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

bool Provenance::mixed() const { return predicted() && backends_.size() > 1; }

std::string Provenance::measured() const {
    std::string out;
    for (const std::string& b : backends_)
        if (b != "sim") out += (out.empty() ? "" : ", ") + b;
    return out;
}

std::string Provenance::label() const {
    if (!predicted()) return {};
    if (!mixed()) return kPredictedLabel;
    return std::string("mixed: ") + kPredictedLabel + " and measured (" + measured() + ")";
}

void Provenance::label_document(Document& doc) const {
    if (!predicted()) return;
    std::string note = mixed() ? std::string("warning: mixed inputs: figures ") + kPredictedLabel +
                                     " beside figures measured (" + measured() +
                                     "); the predictions are not measurements, do not compare them as equals."
                               : std::string("Every figure here is ") + kPredictedLabel + ", not measured.";
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
