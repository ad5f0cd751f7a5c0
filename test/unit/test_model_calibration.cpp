// The calibration as tests: the shipped points stay where the last fit left
// them (make calibrate-check), the NKI tutorial's kernels keep issue 3's
// goals, the fit recovers parameters from points made with known ones, and
// the data file's errors are reported with file and line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <unistd.h>

#include "common/io/error.h"
#include "common/model/fitted.h"
#include "test/unit/test_model_support.h"

namespace nx::model {
namespace {

std::string temp_file(const std::string& text) {
    char path[] = "/tmp/nx-calibration-XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    close(fd);
    return path;
}

TEST(ModelCalibration, EveryPointIsWhereTheLastFitLeftIt) {
    CalibrationReport report = run_calibration(testing::calibration_data_path());
    for (const std::string& d : report.drifted) ADD_FAILURE() << d;
    EXPECT_TRUE(report.order_ok);
    EXPECT_TRUE(report.targets_order_ok);
    EXPECT_LE(report.mean_abs_error_percent, kGoalMeanPercent);
}

TEST(ModelCalibration, TheNkiTutorialVariantsKeepTheGoalsOfIssue3) {
    CalibrationReport report = run_calibration(testing::calibration_data_path());
    int latencies = 0;
    double sum = 0;
    for (const CalibrationRow& r : report.rows) {
        EXPECT_TRUE(std::isfinite(r.predicted)) << r.name << ' ' << r.metric;
        if (r.name.rfind("nki_matmul_", 0) != 0) continue;
        EXPECT_LE(std::fabs(r.error_percent), 25) << r.name << ' ' << r.metric << " predicted " << r.predicted;
        if (r.metric == "latency_ms") ++latencies, sum += std::fabs(r.error_percent);
    }
    EXPECT_EQ(latencies, 4);
    EXPECT_LE(sum / latencies, 15);
}

TEST(ModelCalibration, TheTableShowsSetsErrorsParametersAndSources) {
    CalibrationReport report = run_calibration(testing::calibration_data_path());
    std::string path = temp_file("");
    std::FILE* f = std::fopen(path.c_str(), "w");
    {
        Output out(f, path);
        print_calibration(report, out);
        out.close();
    }
    std::fclose(f);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    for (const char* s : {"nki_matmul_naive", "51.80", "held_out", "reference", "leave-one-out", "hbm_strided",
                          "NKI matmul tutorial", "trn1 vs trn2"})
        EXPECT_NE(text.find(s), std::string::npos) << s;
}

TEST(ModelCalibration, TheFitRecoversParametersFromPointsMadeWithThem) {
    // Points whose "published" latencies are the model's own with known
    // parameters: the fit, started from the compiled-in values, must find
    // parameters that reproduce them.
    ModelParams truth;
    truth.fixed_ns_v2 = 9000;
    truth.fixed_ns_v3 = 7000;
    truth.dma_issue_ns = 200;
    truth.hbm_contiguous = 0.6;
    truth.hbm_strided = 0.3;
    struct Case {
        const char* name;
        const char* target;
        const char* workload;
    };
    const Case cases[] = {
        {"small_trn1", "trn1", R"({"op":"elementwise","opname":"add","rows":128,"cols":64,"dtype":"fp32"})"},
        {"small_trn2", "trn2", R"({"op":"elementwise","opname":"add","rows":128,"cols":64,"dtype":"fp32"})"},
        {"tiles_trn1", "trn1", R"({"op":"elementwise","opname":"add","rows":6400,"cols":1,"dtype":"fp32"})"},
        {"tiles_trn2", "trn2", R"({"op":"elementwise","opname":"add","rows":6400,"cols":1,"dtype":"fp32"})"},
        {"stream_trn1", "trn1", R"({"op":"elementwise","opname":"add","rows":128,"cols":2000,"dtype":"fp32"})"},
        {"stream2_trn1", "trn1", R"({"op":"elementwise","opname":"add","rows":256,"cols":1500,"dtype":"fp32"})"},
        {"matmul_trn1", "trn1", R"({"op":"matmul","M":512,"K":1024,"N":2048,"dtype":"bf16","variant":"naive"})"},
        {"matmul2_trn1", "trn1", R"({"op":"matmul","M":256,"K":2048,"N":2048,"dtype":"bf16","variant":"hoisted"})"},
    };
    std::string text;
    for (const Case& c : cases) {
        std::string line = std::string("{\"name\":\"") + c.name + "\",\"target\":\"" + c.target + "\",\"set\":\"fit\",\"workload\":" +
                           c.workload + ",\"published\":{\"latency_us\":1},\"tolerance_percent\":40,\"source\":\"test\"}\n";
        text += line;
    }
    std::string path = temp_file(text);
    std::vector<CalibrationPoint> points = read_calibration_points(path);
    std::remove(path.c_str());
    ASSERT_EQ(points.size(), std::size(cases));
    for (CalibrationPoint& p : points)
        p.published[0].second = simulate(p.workload, *find_target(p.target), nullptr, truth).latency_ns / 1e3;
    CalibrationReport report = fit_calibration(points);
    EXPECT_TRUE(report.fitted);
    for (const CalibrationRow& r : report.rows) EXPECT_LE(std::fabs(r.error_percent), 1.0) << r.name;
    EXPECT_NEAR(report.params.fixed_ns_v2, truth.fixed_ns_v2, 0.05 * truth.fixed_ns_v2);
    EXPECT_NEAR(report.params.dma_issue_ns, truth.dma_issue_ns, 0.05 * truth.dma_issue_ns);
    EXPECT_NEAR(report.params.hbm_strided, truth.hbm_strided, 0.05 * truth.hbm_strided);
    EXPECT_LE(report.loo_mean_percent, 5.0);
}

TEST(ModelCalibration, EveryParameterHasItsBoundsAndTheFittedValueIsWithinThem) {
    ASSERT_EQ(model_param_info().size(), 5u);
    for (const ParamInfo& p : model_param_info()) {
        const double v = fitted_params().*p.field;
        EXPECT_GE(v, p.lower) << p.name;
        EXPECT_LE(v, p.upper) << p.name;
    }
}

TEST(ModelCalibration, ErrorBandsComeFromComparablePointsOnly) {
    // The same family, target, dtype and logical core: the trn1 vector adds,
    // the trn2 ones (LNC=2, on one physical core).
    ErrorBand e = error_band({"elementwise", "trn1", "fp32", 1, 1});
    EXPECT_GT(e.points, 0);
    EXPECT_GT(e.percent, 0);
    EXPECT_EQ(e.basis, "elementwise in fp32 on trn1 at LNC=1 (" + std::to_string(e.points) + " points)");
    ErrorBand t2 = error_band({"elementwise", "trn2", "fp32", 2, 1});
    EXPECT_EQ(t2.points, 4);
    EXPECT_NE(t2.basis.find("on one physical core"), std::string::npos) << t2.basis;
    // Nothing else lends its band: another target, dtype, LNC or sharding.
    const BandKey none[] = {{"matmul", "trn2", "bf16", 2, 2},     // no trn2 matmul was measured
                            {"elementwise", "trn2", "fp32", 2, 2},  // nor a sharded kernel
                            {"elementwise", "trn2", "fp32", 1, 1},  // nor trn2 at LNC=1
                            {"matmul", "trn1", "fp32", 1, 1},       // nor an fp32 matmul
                            {"matmul", "trn3", "mxfp8", 2, 2},      // nor anything on trn3
                            {"pattern", "trn2", "fp32", 2, 1}};
    for (const BandKey& k : none) {
        ErrorBand b = error_band(k);
        EXPECT_FALSE(b.known()) << b.basis;
        EXPECT_TRUE(std::isnan(b.percent)) << b.basis;
        EXPECT_EQ(b.basis, "no calibration point is a " + band_key_text(k) + ": no band");
    }
    EXPECT_EQ(band_key_text({"matmul", "trn3", "mxfp8", 2, 2}), "matmul in mxfp8 on trn3 at LNC=2, sharded over 2 physical cores");
}

TEST(ModelCalibration, APointInTwoOrderGroupsIsRankedInBoth) {
    // Three matmuls: 512 columns cost more than 256 and 128.  "a" is in both
    // groups; group "wrong" claims the larger one was faster.
    auto point = [](const char* name, int n, const char* groups, double us) {
        return std::string(R"({"name":")") + name + R"(","target":"trn1","set":"held_out","order_group":)" + groups +
               R"(,"workload":{"op":"matmul","M":128,"K":128,"N":)" + std::to_string(n) +
               R"(},"published":{"latency_us":)" + std::to_string(us) + R"(},"source":"test","tolerance_percent":1000})" + "\n";
    };
    const std::string path = temp_file(point("a", 65536, R"(["right","wrong"])", 100) + point("b", 128, R"("right")", 10) +
                                       point("c", 128, R"("wrong")", 1000));
    const std::vector<CalibrationPoint> points = read_calibration_points(path);
    std::remove(path.c_str());
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(points[0].groups, (std::vector<std::string>{"right", "wrong"}));
    EXPECT_EQ(points[1].groups, std::vector<std::string>{"right"});
    CalibrationReport report = evaluate_calibration(points, fitted_params());
    EXPECT_FALSE(report.order_ok);
    bool right = false, wrong = false;
    for (const std::string& n : report.order_notes) {
        right = right || n == "right: as published (b < a)";
        wrong = wrong || n == "wrong: NOT as published (a < c)";
    }
    EXPECT_TRUE(right && wrong);
}

TEST(ModelCalibration, ABadDataFileIsReportedWithFileAndLine) {
    struct Bad {
        const char* second_line;
        const char* message;
    };
    const Bad bads[] = {
        {R"({"name":"bad","target":"trn1","workload":{"op":"matmul","M":128,"K":128,"N":512},"published":{"speed":5},"source":"test","tolerance_percent":25})",
         "unknown published metric \"speed\""},
        {R"({"name":"bad","target":"trn1","set":"train","workload":{"op":"matmul","M":128,"K":128,"N":512},"published":{"latency_us":5},"source":"test","tolerance_percent":25})",
         "\"set\" must be fit, held_out or reference"},
        {R"({"name":"ok","target":"trn1","workload":{"op":"matmul","M":128,"K":128,"N":512},"published":{"latency_us":5},"source":"test","tolerance_percent":25})",
         "appears twice"},
        {R"({"name":"bad","target":"trn1","set":"fit","workload":{"op":"matmul","M":128,"K":128,"N":512},"published":{"hfu_percent":5},"source":"test","tolerance_percent":25})",
         "a fit point needs exactly one published latency"},
        {R"({"name":"bad","target":"trn1","order_group":["g",3],"workload":{"op":"matmul","M":128,"K":128,"N":512},"published":{"latency_us":5},"source":"test","tolerance_percent":25})",
         "\"order_group\" must be a group's name or an array of names"},
    };
    for (const Bad& b : bads) {
        std::string path = temp_file(
            std::string(R"({"name":"ok","target":"trn1","workload":{"op":"matmul","M":128,"K":128,"N":512},"published":{"latency_us":5},"source":"test","tolerance_percent":25})") +
            "\n" + b.second_line + "\n");
        try {
            read_calibration_points(path);
            ADD_FAILURE() << "expected an error: " << b.message;
        } catch (const Error& e) {
            EXPECT_EQ(e.line(), 2);
            EXPECT_EQ(e.where(), path);
            EXPECT_NE(std::string(e.what()).find(b.message), std::string::npos) << e.what();
        }
        std::remove(path.c_str());
    }
}

}  // namespace
}  // namespace nx::model
