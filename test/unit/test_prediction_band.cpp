// The model's error band on a predicted time (common/report/prediction_band.h):
// only a sim profile has one, read from the "predicted" object its run record
// carried; anything else in its place reads as no band.
#include <gtest/gtest.h>

#include <string>

#include "common/profile/profile.h"
#include "common/report/prediction_band.h"

namespace {

nx::ProfileInfo profile(const std::string& backend, const std::string& carried) {
    nx::ProfileInfo i;
    i.backend = backend;
    i.carried_json = carried;
    return i;
}

TEST(PredictionBand, ASimProfileCarriesItsRunsBandAndBasis) {
    auto b = nx::prediction_band(profile(
        "sim", R"j({"predicted":{"device_us":93.2,"error_band_percent":35.1,"error_band_basis":"elementwise on trn1 (5 points)"}})j"));
    ASSERT_TRUE(b.known());
    EXPECT_DOUBLE_EQ(b.percent, 35.1);
    EXPECT_EQ(b.basis, "elementwise on trn1 (5 points)");
    EXPECT_EQ(nx::with_band("93.2 us", b), "~93.2 us (+-35%)");
}

TEST(PredictionBand, APredictionWithoutAComparablePointSaysSoAndIsStillAPrediction) {
    auto b = nx::prediction_band(profile(
        "sim", R"j({"predicted":{"device_us":9.5,"error_band_basis":"no calibration point is a matmul in mxfp8 on trn3 at LNC=2, sharded over 2 physical cores: no band"}})j"));
    EXPECT_FALSE(b.known());
    EXPECT_TRUE(b.predicted);
    EXPECT_EQ(b.basis.rfind("no calibration point is a matmul in mxfp8", 0), 0u) << b.basis;
    EXPECT_EQ(nx::with_band("9.5 us", b), "~9.5 us (no band)");
}

TEST(PredictionBand, AMeasuredProfileHasNoneEvenWithACopiedPredictedObject) {
    auto measured = nx::prediction_band(profile("neuron", R"j({"predicted":{"error_band_percent":20}})j"));
    EXPECT_FALSE(measured.known());
    EXPECT_FALSE(measured.predicted);
    EXPECT_FALSE(nx::prediction_band(profile("", R"j({"predicted":{"error_band_percent":20}})j")).known());
    EXPECT_EQ(nx::with_band("4 us", measured), "4 us");
}

TEST(PredictionBand, AMalformedBandReadsAsNone) {
    for (const char* carried : {R"j({"predicted":{"error_band_percent":"20"}})j", R"j({"predicted":{"error_band_percent":-1}})j",
                                R"j({"predicted":[1,2]})j", R"j({"error_band_percent":20})j", R"j({"predicted":{"error_band_percent":)j",
                                ""}) {
        EXPECT_FALSE(nx::prediction_band(profile("sim", carried)).known()) << carried;
    }
    // A band without a basis still shows.
    auto b = nx::prediction_band(profile("sim", R"j({"predicted":{"error_band_percent":19}})j"));
    ASSERT_TRUE(b.known());
    EXPECT_TRUE(b.basis.empty());
}

}  // namespace
