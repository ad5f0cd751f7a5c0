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
    EXPECT_EQ(nx::with_band("93.2 us", b.percent), "~93.2 us (+-35%)");
}

TEST(PredictionBand, AMeasuredProfileHasNoneEvenWithACopiedPredictedObject) {
    EXPECT_FALSE(nx::prediction_band(profile("neuron", R"j({"predicted":{"error_band_percent":20}})j")).known());
    EXPECT_FALSE(nx::prediction_band(profile("", R"j({"predicted":{"error_band_percent":20}})j")).known());
    EXPECT_EQ(nx::with_band("4 us", NAN), "4 us");
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
