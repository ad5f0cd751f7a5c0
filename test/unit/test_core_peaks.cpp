// The peaks a profile is divided by (core_peaks.h) and the instance types
// that name its target (targets.h), checked against the figures real
// profiles print (shared/reference/real-samples, by hand).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "common/profile/core_peaks.h"
#include "common/target/targets.h"

namespace {

using Source = std::map<std::string, double, std::less<>>;

TEST(InstanceTypes, EveryDocumentedTypeNamesItsTarget) {
    for (const nx::InstanceType& t : nx::instance_types()) EXPECT_EQ(nx::target_of_instance(t.name), t.target) << t.name;
}

TEST(InstanceTypes, Trn3UltraServerAndUndocumentedSizesFollowTheirFamily) {
    EXPECT_EQ(nx::target_of_instance("trn3pds98.48xlarge"), "trn3");  // a real summary-json's instance_type
    EXPECT_EQ(nx::target_of_instance("trn3u.48xlarge"), "trn3");
    EXPECT_EQ(nx::target_of_instance("trn2u.48xlarge"), "trn2");
    EXPECT_EQ(nx::target_of_instance("trn1n.32xlarge"), "trn1");
    EXPECT_EQ(nx::target_of_instance("inf1.xlarge"), "");  // no NeuronCore-v2: nx has no target
    EXPECT_EQ(nx::target_of_instance("m5.large"), "");
}

TEST(CorePeaks, Inf2FromItsMetadataIsTheProfilersRidgePoint) {
    // Real inf2 JSON: peak_flops_bandwidth_ratio 223.78 = 91.75 TFLOP/s / 410 GB/s.
    nx::CoreFacts f{1, 128, 128, 2.8, 410e9, "profile metadata", "profile metadata", "profile metadata"};
    auto p = nx::core_peaks(nx::find_target("inf2"), f);
    ASSERT_TRUE(p);
    EXPECT_NEAR(p->ridge_point(), 223.78146341463415, 1e-9);
    EXPECT_DOUBLE_EQ(p->flops_per_s, 2.0 * 128 * 128 * 2.8e9);
}

TEST(CorePeaks, Trn2UnderLnc2IsTwoPhysicalCores) {
    // Real trn2 JSON (num_physical_cores 2): HFU 0.0588 of 352,321,536 FLOP in
    // 38.0916 us is a peak of 157.3 TFLOP/s; its ridge point 109.84.
    nx::CoreFacts f{2, 128, 128, 2.4, 716e9, "m", "m", "m"};
    auto p = nx::core_peaks(nx::find_target("trn2"), f);
    ASSERT_TRUE(p);
    EXPECT_NEAR(352321536 / (38.091607e-6 * p->flops_per_s), 0.05880560369407623, 1e-7);  // the profiler keeps time in float32
    EXPECT_NEAR(p->ridge_point(), 109.83687150837989, 1e-9);
}

TEST(CorePeaks, WithoutMetadataTheTargetsDefaultsAreUsedAndSaid) {
    auto p = nx::core_peaks(nx::find_target("trn2"), {});
    ASSERT_TRUE(p);
    EXPECT_EQ(p->physical_cores, 2);
    EXPECT_DOUBLE_EQ(p->flops_per_s, 2 * 79e12);
    EXPECT_NE(p->basis.find("the trn2 default LNC"), std::string::npos) << p->basis;
    EXPECT_FALSE(nx::core_peaks(nullptr, {}));
}

TEST(CorePeaks, ASummaryWithoutMetadataImpliesItsCoresByItsOwnHfu) {
    // Real trn3 summary-json (neuron-explorer 2.32): HFU 0.0067 of 30.04e9
    // BF16-equivalent FLOP in 57.02 ms is one physical core at 78.6 TFLOP/s;
    // its MBU 0.000982 of 65.98 MB is 1178 GB/s.
    Source s = {{"total_time", 0.057019004241}, {"hfu_estimated_percent", 0.6700090992469436},
                {"hardware_flops", 7738045038}, {"adjusted_hardware_flops", 30044260224},
                {"mbu_estimated_percent", 0.098236695789687}, {"hbm_read_bytes", 54510084}, {"hbm_write_bytes", 11473920}};
    nx::CoreFacts f;
    nx::infer_core_facts(s, nx::find_target("trn3"), f);
    EXPECT_EQ(f.physical_cores, 1);
    EXPECT_EQ(f.cores_from, "the profiler's own HFU");
    EXPECT_NEAR(f.hbm_bytes_per_s, 1178e9, 1e6);
    // Real trn2 summary of neuron-profile 2.28 (raw FLOPs only): two cores.
    Source t = {{"total_time", 3.8091607e-05}, {"hfu_estimated_percent", 5.880560369407623}, {"hardware_flops", 352321536}};
    nx::CoreFacts g;
    nx::infer_core_facts(t, nx::find_target("trn2"), g);
    EXPECT_EQ(g.physical_cores, 2);
}

TEST(CorePeaks, AnHfuThatImpliesNoWholeCoreCountInfersNothing) {
    Source s = {{"total_time", 1.0}, {"hfu_estimated_percent", 50}, {"hardware_flops", 79e12 * 0.5 * 1.5}};
    nx::CoreFacts f;
    nx::infer_core_facts(s, nx::find_target("trn2"), f);
    EXPECT_EQ(f.physical_cores, 0);
}

TEST(Bf16Equivalent, Fp32WeighsFourAndFp8HalfOnTrn2) {
    EXPECT_DOUBLE_EQ(nx::bf16_equivalent_flops(10, *nx::find_target("trn2"), nx::DType::fp32), 40);
    EXPECT_DOUBLE_EQ(nx::bf16_equivalent_flops(10, *nx::find_target("trn2"), nx::DType::fp8), 5);
    EXPECT_DOUBLE_EQ(nx::bf16_equivalent_flops(10, *nx::find_target("trn1"), nx::DType::fp8), 10);
    EXPECT_DOUBLE_EQ(nx::bf16_equivalent_flops(10, *nx::find_target("inf2"), nx::DType::bf16), 10);
}

}  // namespace
