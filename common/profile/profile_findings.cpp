// A profile's findings, assembled once (profile_findings.h).
#include "common/profile/profile_findings.h"

#include "common/profile/gemv_advice.h"
#include "common/profile/matmul_free_advice.h"

namespace nx {

std::vector<Finding> rule_findings(const ProfileInfo& info, const ProfileSummary& summary,
                                   const RuleThresholds* thresholds, std::vector<std::string>* missing) {
    std::vector<Finding> findings = evaluate_rules(summary, missing, thresholds);
    fit_findings_to_workload(findings, info);
    fit_findings_to_matmul_free(findings, summary);  // ranks again where it changes a severity
    return findings;
}

std::vector<Finding> profile_findings(const ProfileInfo& info, const ProfileSummary& summary,
                                      const RuleThresholds* thresholds) {
    std::vector<Finding> findings = source_findings(info);
    for (Finding& f : findings) {
        f.start_ns = summary.start_ns;
        f.end_ns = summary.end_ns;
    }
    for (Finding& f : rule_findings(info, summary, thresholds)) findings.push_back(std::move(f));
    return findings;
}

}  // namespace nx
