// Findings fitted to a kernel that runs no matmul (common/profile/matmul_free_advice.h):
// the tensor-engine utilisation findings say TensorE has nothing to do, at info
// severity, and stop leading the ranking; a kernel with matmuls, or a profile
// that does not say, keeps the rules' own findings.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/profile/matmul_free_advice.h"
#include "common/profile/rules.h"

namespace {

nx::ProfileSummary summary(std::vector<std::pair<std::string, double>> metrics) {
    nx::ProfileSummary s;
    for (auto& [k, v] : metrics) s.metrics.push_back({k, v, false});
    return s;
}

// TensorE 0.5% busy and DMA fragmented: tensor_engine_idle (critical) leads.
std::vector<std::pair<std::string, double>> idle_tensor_engine() {
    return {{"tensor_engine_active_time_percent", 0.5}, {"dma_transfer_average_bytes", 64}, {"dma_transfer_count", 4800}};
}

TEST(MatmulFreeAdvice, NoMatmulMakesTheTensorEngineFindingsInfoThatSayWhy) {
    auto m = idle_tensor_engine();
    m.push_back({"matmul_instruction_count", 0});
    nx::ProfileSummary s = summary(m);
    ASSERT_TRUE(nx::runs_no_matmul(s));
    std::vector<nx::Finding> f = nx::evaluate_rules(s);
    ASSERT_EQ(f.front().rule, "tensor_engine_idle");
    nx::fit_findings_to_matmul_free(f, s);
    // The warning leads now; the two TensorE findings are info and keep their numbers.
    EXPECT_EQ(f.front().rule, "dma_fragmented");
    int rewritten = 0;
    for (const nx::Finding& x : f) {
        if (x.rule != "tensor_engine_idle" && x.rule != "tensor_engine_underused") continue;
        ++rewritten;
        EXPECT_EQ(x.severity, nx::Severity::info);
        EXPECT_EQ(x.message.rfind("the tensor engine is idle because no matmul runs here", 0), 0u) << x.message;
        EXPECT_NE(x.message.find("[tensor_engine_active_time_percent = 0.5 < "), std::string::npos) << x.message;
        EXPECT_EQ(x.action.rfind("none on TensorE", 0), 0u) << x.action;
    }
    EXPECT_EQ(rewritten, 2);
}

TEST(MatmulFreeAdvice, MatmulsHardwareFlopsOrNoWordKeepTheRulesFindings) {
    for (auto extra : std::vector<std::vector<std::pair<std::string, double>>>{
             {{"matmul_instruction_count", 12}},                               // a matmul kernel
             {{"matmul_instruction_count", 0}, {"hardware_flops", 1e6}},       // TensorE FLOPs all the same
             {}}) {                                                            // a summary that does not say
        auto m = idle_tensor_engine();
        m.insert(m.end(), extra.begin(), extra.end());
        nx::ProfileSummary s = summary(m);
        EXPECT_FALSE(nx::runs_no_matmul(s));
        std::vector<nx::Finding> f = nx::evaluate_rules(s);
        std::vector<nx::Finding> before = f;
        nx::fit_findings_to_matmul_free(f, s);
        ASSERT_EQ(f.size(), before.size());
        for (size_t i = 0; i < f.size(); ++i) {
            EXPECT_EQ(f[i].rule, before[i].rule);
            EXPECT_EQ(f[i].severity, before[i].severity);
            EXPECT_EQ(f[i].message, before[i].message);
        }
        EXPECT_EQ(f.front().severity, nx::Severity::critical);
    }
}

}  // namespace
