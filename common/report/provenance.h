// Where a report's figures come from, said in every output format: a figure
// from the sim backend is a prediction of the model, never a measurement.
// nx-report collects the backends of everything it shows (profiles, runs,
// the baseline's too) and labels the document's header and each chart, or
// adds a column to record formats; sim beside measured inputs is flagged.
#pragma once

#include <set>
#include <string>

#include "common/records/backend_words.h"
#include "common/report/document.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"

namespace nx {

class Provenance {
public:
    void add(const std::string& backend);
    void add(const ReportInput& input);
    // Some figure is a prediction (backend_words.h: predicts).
    bool predicted() const;
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
    std::string measured() const;   // the backends that measure, "cpu, neuron"
    std::string predicting() const;  // the labels of those that predict, "predicted by the model (sim)"
    std::set<std::string> backends_;
};

}  // namespace nx
