// What a record's "backend" means, said one way everywhere: whether its
// figures are predictions of a model or measurements, the label every report,
// chart, sink and record column puts on them, and the phrase that says what
// the backend is.  This is nx's central promise (predictions are never
// presented as measurements) as one table: every "is this a prediction" goes
// through predicts(), so a second model-based backend is one row here with
// predicts = true, and every report labels it.
#pragma once

#include <string>
#include <string_view>

namespace nx {

struct BackendWords {
    std::string_view name;    // "sim"
    bool predicts;            // its figures come from a model, not a measurement
    std::string_view label;   // on its figures: "predicted by the model (sim)"
    std::string_view phrase;  // what it is, after its name: "predicted by the nx performance model, not measured"
};

// nullptr for a backend nx does not know (a record a user wrote).
const BackendWords* backend_words(std::string_view backend);
// True when the backend's figures are predictions.  An unknown backend is
// not a prediction nx made.
bool predicts(std::string_view backend);
// The label of its figures: the row's, "from backend X" for an unknown one,
// "unknown backend" without one.
std::string provenance_label(std::string_view backend);
// "sim (predicted by the nx performance model, not measured)", "neuron
// (measured on a Neuron device)", the name alone for an unknown backend.
std::string backend_phrase(std::string_view backend);

}  // namespace nx
