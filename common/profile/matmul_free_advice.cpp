// Findings fitted to a kernel that runs no matmul (matmul_free_advice.h).
#include "common/profile/matmul_free_advice.h"

#include <string>

namespace nx {

namespace {

bool about_tensor_engine_use(const std::string& rule) {
    return rule == "tensor_engine_idle" || rule == "tensor_engine_underused";
}

}  // namespace

bool runs_no_matmul(const ProfileSummary& s) {
    const MetricValue* matmuls = s.find("matmul_instruction_count");
    if (!matmuls || matmuls->value != 0) return false;
    const MetricValue* flops = s.find("hardware_flops");
    return !flops || flops->value == 0;
}

void fit_findings_to_matmul_free(std::vector<Finding>& findings, const ProfileSummary& s) {
    bool any = false;
    for (const Finding& f : findings) any = any || about_tensor_engine_use(f.rule);
    if (!any || !runs_no_matmul(s)) return;
    for (Finding& f : findings) {
        if (!about_tensor_engine_use(f.rule)) continue;
        f.severity = Severity::info;
        // Keep the condition with its numbers ("[metric = v < t]"); the cause
        // before it no longer applies.
        size_t cond = f.message.rfind(" [");
        std::string numbers = cond == std::string::npos ? std::string() : f.message.substr(cond);
        f.message = "the tensor engine is idle because no matmul runs here (matmul_instruction_count = 0): nothing "
                    "to restructure" + numbers;
        f.action = "none on TensorE: the time is on the engines and DMA queues that do the work (see the engine "
                   "table and the DMA figures)";
    }
    rank_findings(findings);  // a critical finding became info: it no longer leads
}

}  // namespace nx
