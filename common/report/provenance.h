// Where a report's figures come from, said in every output format: a figure
// from the sim backend is a prediction of the model, never a measurement.
// nx-report collects the backends of everything it shows (profiles, runs,
// the baseline's too) and labels the document's header and each chart, or
// adds a column to record formats; sim beside measured inputs is flagged.
#pragma once

#include <set>
#include <string>

#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"

namespace nx {

// The label every sim figure carries.
inline constexpr const char* kPredictedLabel = "predicted by the model (sim)";

// How one backend's figures were obtained: "predicted by the model (sim)",
// "measured on a Neuron device (neuron)", "measured on the host CPU (cpu)".
std::string provenance_label(const std::string& backend);

class Provenance {
public:
    void add(const std::string& backend);
    void add(const ReportInput& input);
    bool predicted() const { return backends_.count("sim") > 0; }
    // Predictions beside measurements.
    bool mixed() const;
    // The record formats' provenance value: empty when no figure is a
    // prediction (measured outputs stay as they were), the sim label, or
    // "mixed: ..." naming both sides.
    std::string label() const;
    // The document: a note under its first heading, and each chart's title
    // suffixed with the label.  Nothing when no figure is a prediction.
    void label_document(Document& doc) const;
    // Record formats: a trailing "provenance" column on every row.
    void label_rows(RowWriter& w) const;

private:
    std::string measured() const;  // the other backends, "cpu, neuron"
    std::set<std::string> backends_;
};

}  // namespace nx
