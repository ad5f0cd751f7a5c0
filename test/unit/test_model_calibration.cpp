// The calibration table as a test: the NKI matmul tutorial's four kernels
// within the goals of issue 3, and the data file's error handling.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <cstring>
#include <unistd.h>

#include "common/io/error.h"
#include "test/unit/test_model_support.h"

namespace nx::model {
namespace {

TEST(ModelCalibration, TheNkiTutorialVariantsMeetTheCalibrationGoals) {
    CalibrationReport report = run_calibration(testing::calibration_data_path());
    int goal_latencies = 0;
    for (const CalibrationRow& r : report.rows) {
        EXPECT_TRUE(std::isfinite(r.predicted)) << r.name << ' ' << r.metric;
        if (!r.goal) continue;
        EXPECT_LE(std::fabs(r.error_percent), 25) << r.name << ' ' << r.metric << " predicted " << r.predicted;
        EXPECT_TRUE(r.within) << r.name << ' ' << r.metric;
        if (r.metric == "latency_ms") ++goal_latencies;
    }
    EXPECT_EQ(goal_latencies, 4);
    EXPECT_LE(report.mean_abs_error_percent, 15);
    EXPECT_TRUE(report.order_ok);
    EXPECT_TRUE(report.goals_met);
}

TEST(ModelCalibration, TheTableShowsPublishedPredictedAndError) {
    CalibrationReport report = run_calibration(testing::calibration_data_path());
    char path[] = "/tmp/nx-calibration-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    std::FILE* f = fdopen(fd, "w");
    {
        Output out(f, path);
        print_calibration(report, out);
        out.close();
    }
    std::fclose(f);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(path);
    EXPECT_NE(text.find("nki_matmul_naive"), std::string::npos);
    EXPECT_NE(text.find("51.80"), std::string::npos);
    EXPECT_NE(text.find("result: goals met"), std::string::npos);
    EXPECT_NE(text.find("NKI matmul tutorial"), std::string::npos);
}

TEST(ModelCalibration, ABadDataFileIsReportedWithFileAndLine) {
    char path[] = "/tmp/nx-calibration-bad-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    const char* text =
        "{\"name\":\"ok\",\"target\":\"trn1\",\"workload\":{\"op\":\"matmul\",\"M\":128,\"K\":128,\"N\":512},"
        "\"published\":{\"latency_us\":5},\"source\":\"test\",\"tolerance_percent\":25}\n"
        "{\"name\":\"bad\",\"target\":\"trn1\",\"workload\":{\"op\":\"matmul\",\"M\":128,\"K\":128,\"N\":512},"
        "\"published\":{\"speed\":5},\"source\":\"test\",\"tolerance_percent\":25}\n";
    ASSERT_EQ(write(fd, text, std::strlen(text)), static_cast<ssize_t>(std::strlen(text)));
    close(fd);
    try {
        run_calibration(path);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.line(), 2);
        EXPECT_EQ(e.where(), path);
        EXPECT_NE(std::string(e.what()).find("unknown published metric \"speed\""), std::string::npos) << e.what();
    }
    std::remove(path);
}

}  // namespace
}  // namespace nx::model
