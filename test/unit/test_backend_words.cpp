// Unit tests for the backend vocabulary (records/backend_words.h) and the
// report labels built on it (report/provenance.h): every "is this a
// prediction" goes through predicts().
#include <gtest/gtest.h>

#include <string>

#include "common/format/row_format.h"
#include "common/records/backend_words.h"
#include "common/report/document.h"
#include "common/report/provenance.h"

namespace {

TEST(BackendWords, OnlyTheModelPredicts) {
    EXPECT_TRUE(nx::predicts("sim"));
    EXPECT_FALSE(nx::predicts("neuron"));
    EXPECT_FALSE(nx::predicts("cpu"));
    // A backend nx does not know (a user's record) is not a prediction nx made.
    EXPECT_FALSE(nx::predicts("my-cluster"));
    EXPECT_FALSE(nx::predicts(""));
}

TEST(BackendWords, OneLabelAndOnePhrasePerBackend) {
    EXPECT_EQ(nx::provenance_label("sim"), "predicted by the model (sim)");
    EXPECT_EQ(nx::provenance_label("neuron"), "measured on a Neuron device (neuron)");
    EXPECT_EQ(nx::provenance_label("my-cluster"), "from backend my-cluster");
    EXPECT_EQ(nx::provenance_label(""), "unknown backend");
    EXPECT_EQ(nx::backend_phrase("sim"), "sim (predicted by the nx performance model, not measured)");
    EXPECT_EQ(nx::backend_phrase("cpu"), "cpu (measured on the host CPU, not a Neuron device)");
    EXPECT_EQ(nx::backend_phrase("my-cluster"), "my-cluster");
}

TEST(Provenance, PredictionsBesideMeasurementsAreFlaggedAsMixed) {
    nx::Provenance p;
    p.add("neuron");
    EXPECT_FALSE(p.predicted());
    EXPECT_EQ(p.label(), "");
    p.add("sim");
    EXPECT_TRUE(p.predicted());
    EXPECT_TRUE(p.mixed());
    EXPECT_EQ(p.label(), "mixed: predicted by the model (sim) and measured (neuron)");
    nx::Provenance only;
    only.add("sim");
    EXPECT_EQ(only.label(), "predicted by the model (sim)");
    nx::Document doc;
    doc.heading("Runs");
    only.label_document(doc);
    ASSERT_GE(doc.blocks.size(), 2u);
    EXPECT_EQ(doc.blocks[1].text, "Every figure here is predicted by the model (sim), not measured.");
}

}  // namespace
