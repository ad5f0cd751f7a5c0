// Findings (common/profile/rules.h: the rule table of neuron-facts.md section 4) and
// regression gates (common/report/gates.h).
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "common/io/error.h"
#include "common/profile/gemv_advice.h"
#include "common/profile/profile.h"
#include "common/profile/rules.h"
#include "common/report/gates.h"

namespace {

using nx::Severity;

nx::ProfileSummary summary(std::vector<std::pair<std::string, double>> metrics) {
    nx::ProfileSummary s;
    for (auto& [k, v] : metrics) s.metrics.push_back({k, v, true});
    return s;
}

const nx::Finding* find_rule(const std::vector<nx::Finding>& findings, std::string_view rule) {
    for (const nx::Finding& f : findings)
        if (f.rule == rule) return &f;
    return nullptr;
}

std::vector<std::string> rule_ids(const std::vector<nx::Finding>& findings) {
    std::vector<std::string> out;
    for (const nx::Finding& f : findings) out.push_back(f.rule);
    return out;
}

bool has_missing(const std::vector<std::string>& missing, const std::string& text) {
    return std::find(missing.begin(), missing.end(), text) != missing.end();
}

// trn1 ridge point: 9.17504e13 FLOP/s / 4.1e11 B/s = 223.78 FLOP/B.
constexpr double kTrn1Ridge = 128.0 * 128 * 2 * 2.8e9 / (820e9 / 2);

nx::ProfileEntry profile(std::string name, std::string backend, std::string target,
                         std::vector<std::pair<std::string, double>> metrics) {
    nx::ProfileEntry e;
    e.info.name = std::move(name);
    e.info.backend = std::move(backend);
    e.info.target = std::move(target);
    e.summary = summary(std::move(metrics));
    return e;
}

nx::ReportInput with_profiles(std::vector<nx::ProfileEntry> profiles) {
    nx::ReportInput in;
    in.profiles = std::move(profiles);
    return in;
}

rapidjson::Document json(const char* text) {
    rapidjson::Document d;
    d.Parse(text);
    EXPECT_FALSE(d.HasParseError()) << text;
    return d;
}

}  // namespace

// ---- tensor engine rules

TEST(Rules, TensorEngineAt45PercentIsIdleAndUnderused) {
    // 45 < 50 (critical, excess (50-45)/50 = 0.1) and 45 < 70 (warn, 25/70).
    auto findings = nx::evaluate_rules(summary({{"tensor_engine_active_time_percent", 45}}));
    const nx::Finding* idle = find_rule(findings, "tensor_engine_idle");
    const nx::Finding* under = find_rule(findings, "tensor_engine_underused");
    ASSERT_NE(idle, nullptr);
    ASSERT_NE(under, nullptr);
    EXPECT_EQ(idle->severity, Severity::critical);
    EXPECT_EQ(idle->value, 45);
    EXPECT_EQ(idle->threshold, 50);
    EXPECT_DOUBLE_EQ(idle->excess, 0.1);
    EXPECT_EQ(under->severity, Severity::warn);
    EXPECT_EQ(under->threshold, 70);
    EXPECT_DOUBLE_EQ(under->excess, 25.0 / 70);
    // Critical first, though the warning is further past its threshold.
    EXPECT_EQ(findings.front().rule, "tensor_engine_idle");
}

TEST(Rules, FindingMessageStatesTheConditionWithWholeNumbers) {
    auto findings = nx::evaluate_rules(summary({{"tensor_engine_active_time_percent", 45}}));
    const nx::Finding* idle = find_rule(findings, "tensor_engine_idle");
    ASSERT_NE(idle, nullptr);
    EXPECT_NE(idle->message.find("[tensor_engine_active_time_percent = 45 < 50]"), std::string::npos) << idle->message;
    EXPECT_FALSE(idle->action.empty());
}

// Every row of the wording table (the words a --set threshold replaces in
// the rule's message) matches its rule's message: a row that does not is a
// message left saying the default threshold while the rule uses another.
TEST(Rules, EveryThresholdWordingRowMatchesItsRulesMessage) {
    std::vector<std::string> bad = nx::threshold_wording_mismatches();
    std::string all;
    for (const std::string& b : bad) all += b + "\n";
    EXPECT_TRUE(bad.empty()) << all;
}

TEST(Rules, TopFindingsKeepsOnlyTheCriticalOneForAMetric) {
    auto findings = nx::evaluate_rules(summary({{"tensor_engine_active_time_percent", 45}}));
    auto top = nx::top_findings(findings, 5);
    ASSERT_EQ(top.size(), 1u);
    EXPECT_EQ(top[0]->rule, "tensor_engine_idle");
}

TEST(Rules, TensorEngineAt60PercentIsOnlyUnderused) {
    auto findings = nx::evaluate_rules(summary({{"tensor_engine_active_time_percent", 60}}));
    EXPECT_EQ(rule_ids(findings), std::vector<std::string>{"tensor_engine_underused"});
}

TEST(Rules, TensorEngineAt70PercentFiresNothing) {
    // The threshold is "< 70": exactly 70 is fine.
    auto findings = nx::evaluate_rules(summary({{"tensor_engine_active_time_percent", 70}}));
    EXPECT_TRUE(findings.empty());
}

// ---- unnamed instructions

TEST(Rules, UnnamedInstructionsOverOnePercentAreAWarningThatNamesTheNeffCheck) {
    auto f = nx::evaluate_rules(summary({{"unnamed_instruction_percent", 3.15}}));
    const nx::Finding* u = find_rule(f, "unnamed_instructions");
    ASSERT_NE(u, nullptr);
    EXPECT_EQ(u->severity, Severity::warn);
    EXPECT_NE(u->message.find("more than 1% of the NeuronCore instructions"), std::string::npos) << u->message;
    EXPECT_NE(u->message.find("[unnamed_instruction_percent = 3.15 > 1]"), std::string::npos) << u->message;
    EXPECT_NE(u->action.find("the NEFF it was captured from"), std::string::npos) << u->action;
    // Every instruction named, or a stray one a viewer does not know: quiet,
    // and evaluated (not missing).
    std::vector<std::string> missing;
    EXPECT_EQ(find_rule(nx::evaluate_rules(summary({{"unnamed_instruction_percent", 0}}), &missing),
                        "unnamed_instructions"),
              nullptr);
    EXPECT_EQ(find_rule(nx::evaluate_rules(summary({{"unnamed_instruction_percent", 1}})), "unnamed_instructions"),
              nullptr);
    EXPECT_FALSE(has_missing(missing, "unnamed_instructions (needs unnamed_instruction_percent)"));
    std::vector<std::string> without;
    nx::evaluate_rules(summary({}), &without);
    EXPECT_TRUE(has_missing(without, "unnamed_instructions (needs unnamed_instruction_percent)"));
    // A run's own threshold is stated in the message.
    nx::RuleThresholds t;
    t.values["unnamed_instructions"] = 0;
    auto at0 = nx::evaluate_rules(summary({{"unnamed_instruction_percent", 0.5}}), nullptr, &t);
    ASSERT_NE(find_rule(at0, "unnamed_instructions"), nullptr);
    EXPECT_NE(find_rule(at0, "unnamed_instructions")->message.find("more than 0% of the NeuronCore"), std::string::npos)
        << find_rule(at0, "unnamed_instructions")->message;
    t.values["unnamed_instructions"] = 5;
    EXPECT_EQ(find_rule(nx::evaluate_rules(summary({{"unnamed_instruction_percent", 3.15}}), nullptr, &t),
                        "unnamed_instructions"),
              nullptr);
}

// ---- two-condition rule

TEST(Rules, DmaFragmentedNeedsSmallAndManyTransfers) {
    // 1000 B average < 32768 and 5000 transfers >= 1000.
    auto f = nx::evaluate_rules(summary({{"dma_transfer_average_bytes", 1000}, {"dma_transfer_count", 5000}}));
    const nx::Finding* frag = find_rule(f, "dma_fragmented");
    ASSERT_NE(frag, nullptr);
    EXPECT_EQ(frag->metric, "dma_transfer_average_bytes");
    EXPECT_EQ(frag->value, 1000);
    EXPECT_EQ(frag->threshold, 32768);
}

TEST(Rules, DmaFragmentedIsQuietWithFewTransfers) {
    auto f = nx::evaluate_rules(summary({{"dma_transfer_average_bytes", 1000}, {"dma_transfer_count", 999}}));
    EXPECT_EQ(find_rule(f, "dma_fragmented"), nullptr);
}

TEST(Rules, DmaFragmentedIsQuietWithLargeTransfers) {
    auto f = nx::evaluate_rules(summary({{"dma_transfer_average_bytes", 32768}, {"dma_transfer_count", 5000}}));
    EXPECT_EQ(find_rule(f, "dma_fragmented"), nullptr);
}

TEST(Rules, DmaFragmentedWithoutACountIsReportedMissing) {
    std::vector<std::string> missing;
    auto f = nx::evaluate_rules(summary({{"dma_transfer_average_bytes", 1000}}), &missing);
    EXPECT_EQ(find_rule(f, "dma_fragmented"), nullptr);
    EXPECT_TRUE(has_missing(missing, "dma_fragmented (needs dma_transfer_count)"));
}

// ---- roofline

TEST(Rules, IntensityBelowTheRidgePointIsMemoryBound) {
    auto f = nx::evaluate_rules(summary({{"mm_arithmetic_intensity", 100}, {"peak_flops_bandwidth_ratio", kTrn1Ridge}}));
    const nx::Finding* mem = find_rule(f, "memory_bound_roofline");
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(mem->severity, Severity::warn);
    EXPECT_DOUBLE_EQ(mem->threshold, kTrn1Ridge);
    EXPECT_EQ(find_rule(f, "compute_bound_roofline"), nullptr);
}

TEST(Rules, IntensityAtOrAboveTheRidgePointIsComputeBound) {
    auto above = nx::evaluate_rules(summary({{"mm_arithmetic_intensity", 300}, {"peak_flops_bandwidth_ratio", kTrn1Ridge}}));
    EXPECT_NE(find_rule(above, "compute_bound_roofline"), nullptr);
    EXPECT_EQ(find_rule(above, "memory_bound_roofline"), nullptr);
    auto at = nx::evaluate_rules(summary({{"mm_arithmetic_intensity", 222}, {"peak_flops_bandwidth_ratio", 222}}));
    EXPECT_NE(find_rule(at, "compute_bound_roofline"), nullptr);  // ">=": the ridge itself is compute-bound
}

// ---- ratios and missing inputs

TEST(Rules, WeightsReloadedComparesTheRatio) {
    // 300 / 100 = 3 > 2.
    auto f = nx::evaluate_rules(summary({{"weight_queue_bytes", 300}, {"weight_size_bytes", 100}}));
    const nx::Finding* w = find_rule(f, "weights_reloaded");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->metric, "weight_queue_bytes/weight_size_bytes");
    EXPECT_DOUBLE_EQ(w->value, 3);
}

TEST(Rules, ZeroDivisorCountsAsMissing) {
    std::vector<std::string> missing;
    auto f = nx::evaluate_rules(summary({{"weight_queue_bytes", 300}, {"weight_size_bytes", 0}}), &missing);
    EXPECT_EQ(find_rule(f, "weights_reloaded"), nullptr);
    EXPECT_TRUE(has_missing(missing, "weights_reloaded (needs weight_size_bytes)"));
}

TEST(Rules, RulesWithoutTheirMetricsAreListedAsMissing) {
    std::vector<std::string> missing;
    nx::evaluate_rules(summary({{"tensor_engine_active_time_percent", 90}, {"mm_arithmetic_intensity", 10}}), &missing);
    EXPECT_TRUE(has_missing(missing, "dma_wait (needs dma_wait_percent)"));
    EXPECT_TRUE(has_missing(missing, "memory_bound_roofline (needs peak_flops_bandwidth_ratio)"));
    EXPECT_FALSE(has_missing(missing, "tensor_engine_idle (needs tensor_engine_active_time_percent)"));
}

TEST(Rules, EmptySummaryFiresNothingAndMissesEveryRule) {
    std::vector<std::string> missing;
    auto f = nx::evaluate_rules(summary({}), &missing);
    EXPECT_TRUE(f.empty());
    EXPECT_EQ(missing.size(), nx::rule_table().size());
}

// ---- ranking

TEST(Rules, RankingIsSeverityThenExcess) {
    // warn dma_wait: 45 > 15, excess 30/15 = 2.0
    // warn spill_reloads: 50/100 = 0.5 > 0.25, excess 0.25/0.25 = 1.0
    // warn tensor_engine_underused: 60 < 70, excess 10/70 = 0.14
    // info compute_bound_mix: 80 > 70, excess 10/70 = 0.14
    auto f = nx::evaluate_rules(summary({{"dma_wait_percent", 45},
                                         {"spill_reload_bytes", 50},
                                         {"hbm_read_bytes", 100},
                                         {"tensor_engine_active_time_percent", 60},
                                         {"compute_instruction_percent", 80}}));
    EXPECT_EQ(rule_ids(f), (std::vector<std::string>{"dma_wait", "spill_reloads", "tensor_engine_underused",
                                                     "compute_bound_mix"}));
}

TEST(Rules, RankFindingsSortsHandMadeFindings) {
    std::vector<nx::Finding> f = {
        {"a", Severity::info, "m1", 0, 0, "", "", 9.0},
        {"b", Severity::warn, "m2", 0, 0, "", "", 0.5},
        {"c", Severity::critical, "m3", 0, 0, "", "", 0.1},
        {"d", Severity::warn, "m4", 0, 0, "", "", 2.0},
    };
    nx::rank_findings(f);
    EXPECT_EQ(rule_ids(f), (std::vector<std::string>{"c", "d", "b", "a"}));
}

TEST(Rules, TopFindingsStopsAtTheLimit) {
    std::vector<nx::Finding> f = {
        {"a", Severity::critical, "m1", 0, 0, "", "", 1},
        {"b", Severity::warn, "m2", 0, 0, "", "", 1},
        {"c", Severity::warn, "m3", 0, 0, "", "", 1},
    };
    auto top = nx::top_findings(f, 2);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(top[0]->rule, "a");
    EXPECT_EQ(top[1]->rule, "b");
}

TEST(Rules, RuleTableDescribesBothConditionsOfDmaFragmented) {
    auto table = nx::rule_table();
    auto it = std::find_if(table.begin(), table.end(), [](const nx::RuleInfo& r) { return r.id == "dma_fragmented"; });
    ASSERT_NE(it, table.end());
    EXPECT_EQ(it->severity, "warn");
    EXPECT_EQ(it->condition, "dma_transfer_average_bytes < 32768 and dma_transfer_count >= 1000");
}

// ---- classify_bound

TEST(ClassifyBound, RooflineIsPreferredOverTheInstructionMix) {
    // The mix says memory-bound, the roofline says compute-bound: roofline wins.
    auto v = nx::classify_bound(summary({{"mm_arithmetic_intensity", 300},
                                         {"peak_flops_bandwidth_ratio", kTrn1Ridge},
                                         {"memory_instruction_percent", 90},
                                         {"compute_instruction_percent", 10}}));
    EXPECT_EQ(v.verdict, "compute-bound");
    EXPECT_NE(v.evidence.find("arithmetic intensity"), std::string::npos) << v.evidence;
}

TEST(ClassifyBound, RooflineBelowTheRidgeIsMemoryBound) {
    auto v = nx::classify_bound(summary({{"mm_arithmetic_intensity", 50}, {"peak_flops_bandwidth_ratio", kTrn1Ridge}}));
    EXPECT_EQ(v.verdict, "memory-bound");
}

TEST(ClassifyBound, InstructionMixWithoutRoofline) {
    EXPECT_EQ(nx::classify_bound(summary({{"memory_instruction_percent", 80}, {"compute_instruction_percent", 20}})).verdict,
              "memory-bound");
    EXPECT_EQ(nx::classify_bound(summary({{"memory_instruction_percent", 20}, {"compute_instruction_percent", 80}})).verdict,
              "compute-bound");
    EXPECT_EQ(nx::classify_bound(summary({{"memory_instruction_percent", 50}, {"compute_instruction_percent", 50}})).verdict,
              "balanced");
}

TEST(ClassifyBound, ZeroRidgePointFallsBackToTheMix) {
    auto v = nx::classify_bound(summary({{"mm_arithmetic_intensity", 300},
                                         {"peak_flops_bandwidth_ratio", 0},
                                         {"memory_instruction_percent", 80},
                                         {"compute_instruction_percent", 20}}));
    EXPECT_EQ(v.verdict, "memory-bound");
}

TEST(ClassifyBound, NothingToGoOnIsUnknown) {
    EXPECT_EQ(nx::classify_bound(summary({{"total_time", 1}})).verdict, "unknown");
}

// ---- parse_gate

TEST(ParseGate, RelativeRise) {
    nx::Gate g = nx::parse_gate("total_time>5%");
    EXPECT_EQ(g.text, "total_time>5%");
    EXPECT_EQ(g.metric, "total_time");
    EXPECT_TRUE(g.greater);
    EXPECT_TRUE(g.relative);
    EXPECT_DOUBLE_EQ(g.limit, 0.05);
}

TEST(ParseGate, RelativeFall) {
    nx::Gate g = nx::parse_gate("mfu_estimated_percent<-5%");
    EXPECT_EQ(g.metric, "mfu_estimated_percent");
    EXPECT_FALSE(g.greater);
    EXPECT_TRUE(g.relative);
    EXPECT_DOUBLE_EQ(g.limit, -0.05);
}

TEST(ParseGate, AbsoluteChange) {
    nx::Gate g = nx::parse_gate("total_time>0.001");
    EXPECT_EQ(g.metric, "total_time");
    EXPECT_FALSE(g.relative);
    EXPECT_DOUBLE_EQ(g.limit, 0.001);
}

TEST(ParseGate, ToleratesSpacesAndAnEqualsSign) {
    nx::Gate g = nx::parse_gate("latency_us.median >= 10%");
    EXPECT_EQ(g.metric, "latency_us.median");
    EXPECT_TRUE(g.greater);
    EXPECT_DOUBLE_EQ(g.limit, 0.10);
}

TEST(ParseGate, MalformedExpressionsAreUsageErrors) {
    for (const char* bad : {"", "total_time", ">5%", "total_time>", "total_time>%", "total_time>abc",
                            "total_time>5%%", "total_time>inf", "total_time>nan", "total_time<>5"}) {
        EXPECT_THROW(nx::parse_gate(bad), nx::UsageError) << "'" << bad << "'";
    }
}

TEST(ParseGate, UsageErrorQuotesTheExpression) {
    try {
        nx::parse_gate("total_time>abc");
        FAIL() << "no error";
    } catch (const nx::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("'total_time>abc'"), std::string::npos) << e.what();
    }
}

// ---- check_baseline

TEST(CheckBaseline, RelativeRiseBeyondTheLimitTrips) {
    // total_time 1.00 -> 1.10: +10 % > 5 %.
    auto base = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1.00}})});
    auto cur = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1.10}})});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("total_time>5%")}, match);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].record, "mm");
    EXPECT_EQ(checks[0].metric, "total_time");
    EXPECT_EQ(checks[0].baseline, 1.00);
    EXPECT_EQ(checks[0].current, 1.10);
    EXPECT_NEAR(checks[0].change, 0.10, 1e-12);
    EXPECT_TRUE(checks[0].relative);
    EXPECT_EQ(checks[0].gate, "total_time>5%");
    EXPECT_TRUE(checks[0].tripped);
    EXPECT_TRUE(match.unmatched.empty());
}

TEST(CheckBaseline, RiseWithinTheLimitDoesNotTrip) {
    auto base = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1.00}})});
    auto cur = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1.10}})});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("total_time>20%")}, match);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_FALSE(checks[0].tripped);
}

TEST(CheckBaseline, RelativeFallTrips) {
    // mfu 40 -> 36: -10 % < -5 %.
    auto base = with_profiles({profile("mm", "neuron", "trn1", {{"mfu_estimated_percent", 40}})});
    auto cur = with_profiles({profile("mm", "neuron", "trn1", {{"mfu_estimated_percent", 36}})});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("mfu_estimated_percent<-5%")}, match);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_NEAR(checks[0].change, -0.10, 1e-12);
    EXPECT_TRUE(checks[0].tripped);
}

TEST(CheckBaseline, AbsoluteGatesCompareDifferences) {
    // total_time 1.00 -> 1.10: +0.10 s; trips "> 0.05", not "> 0.2".
    auto base = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1.00}})});
    auto cur = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1.10}})});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("total_time>0.05"), nx::parse_gate("total_time>0.2")},
                                     match);
    ASSERT_EQ(checks.size(), 2u);
    EXPECT_FALSE(checks[0].relative);
    EXPECT_NEAR(checks[0].change, 0.10, 1e-12);
    EXPECT_TRUE(checks[0].tripped);
    EXPECT_FALSE(checks[1].tripped);
}

TEST(CheckBaseline, ProfilesMatchByNameBackendAndTarget) {
    // Same name on another target or backend is a different record.
    auto base = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1}}),
                               profile("mm", "sim", "trn2", {{"total_time", 2}})});
    auto cur = with_profiles({profile("mm", "sim", "trn2", {{"total_time", 2.2}}),
                              profile("mm", "neuron", "trn2", {{"total_time", 9}}),
                              profile("other", "neuron", "trn1", {{"total_time", 1}})});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("total_time>5%")}, match);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].baseline, 2);  // the sim/trn2 baseline, not neuron/trn1
    EXPECT_TRUE(checks[0].tripped);    // 2 -> 2.2: +10 %
    EXPECT_EQ(match.unmatched, (std::vector<std::string>{"mm", "other"}));
}

TEST(CheckBaseline, MissingGateMetricIsListedAsUnmatched) {
    auto base = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1}})});
    auto cur = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1}})});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("mbu_estimated_percent<-5%")}, match);
    EXPECT_TRUE(checks.empty());
    EXPECT_EQ(match.unmatched, (std::vector<std::string>{"mm (no mbu_estimated_percent)"}));
}

TEST(CheckBaseline, WithoutGatesReportsTheHeadlineMetricUntripped) {
    auto base = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 2}, {"mfu_estimated_percent", 30}})});
    auto cur = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 3}, {"mfu_estimated_percent", 10}})});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {}, match);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].metric, "total_time");
    EXPECT_DOUBLE_EQ(checks[0].change, 0.5);  // 2 -> 3
    EXPECT_EQ(checks[0].gate, "");
    EXPECT_FALSE(checks[0].tripped);
}

// Two baseline profiles of one name, backend and target are two different
// figures: which one is "the" baseline cannot be guessed, so none is compared
// and the record is reported unmatched (a gate then fails for lack of checks).
TEST(CheckBaseline, SeveralBaselineProfilesOfOneNameAreAmbiguous) {
    auto base = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 1}}),
                               profile("mm", "neuron", "trn1", {{"total_time", 2}})});
    auto cur = with_profiles({profile("mm", "neuron", "trn1", {{"total_time", 2}})});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("total_time>5%")}, match);
    EXPECT_TRUE(checks.empty());
    ASSERT_EQ(match.unmatched.size(), 1u);
    EXPECT_NE(match.unmatched[0].find("ambiguous"), std::string::npos) << match.unmatched[0];
}

// Ranks of one multi-worker capture share a name: each is matched with its rank.
TEST(CheckBaseline, RanksOfOneProfileAreMatchedRankByRank) {
    auto ranked = [](int rank, double t) {
        nx::ProfileEntry p = profile("mm", "neuron", "trn1", {{"total_time", t}});
        p.info.rank = rank;
        return p;
    };
    auto base = with_profiles({ranked(0, 1), ranked(1, 1)});
    auto cur = with_profiles({ranked(0, 1), ranked(1, 2)});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("total_time>5%")}, match);
    ASSERT_EQ(checks.size(), 2u);
    EXPECT_FALSE(checks[0].tripped);
    EXPECT_TRUE(checks[1].tripped);
    EXPECT_EQ(checks[1].record, "mm (rank 1)");
    EXPECT_TRUE(match.unmatched.empty());
}

namespace {

// A run record of study "s" on sim/trn1 with this median latency.
rapidjson::Document run_record(const std::string& name, double median_us) {
    std::string text = R"({"kind":"run","study":"s","name":")" + name +
                       R"(","backend":"sim","target":"trn1","latency_us":{"median":)" + std::to_string(median_us) + "}}";
    return json(text.c_str());
}

}  // namespace

TEST(CheckBaseline, RunRecordsGateOnNestedFields) {
    // latency_us.median 100 -> 120: +20 %.
    nx::ReportInput base, cur;
    base.runs.push_back(run_record("r", 100));
    cur.runs.push_back(run_record("r", 120));
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("latency_us.median>10%")}, match);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_NEAR(checks[0].change, 0.20, 1e-12);
    EXPECT_TRUE(checks[0].tripped);
}

TEST(CheckBaseline, RiseFromZeroIsAnInfiniteRelativeChange) {
    auto base = with_profiles({profile("mm", "neuron", "trn1", {{"dma_wait_percent", 0}})});
    auto cur = with_profiles({profile("mm", "neuron", "trn1", {{"dma_wait_percent", 3}})});
    nx::BaselineMatch match;
    auto checks = nx::check_baseline(cur, base, {nx::parse_gate("dma_wait_percent>5%")}, match);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_TRUE(std::isinf(checks[0].change));
    EXPECT_TRUE(checks[0].tripped);
}

// A misspelled gate metric is a usage error that names the metric and the
// nearest one the records have, not a record "without a baseline".
TEST(CheckBaseline, UnknownGateMetricIsAUsageErrorWithASuggestion) {
    nx::ReportInput base, cur;
    base.runs.push_back(run_record("r", 100));
    cur.runs.push_back(run_record("r", 120));
    nx::BaselineMatch match;
    try {
        nx::check_baseline(cur, base, {nx::parse_gate("latency_us.medain>10%")}, match);
        FAIL() << "no error";
    } catch (const nx::UsageError& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("unknown metric 'latency_us.medain'"), std::string::npos) << what;
        EXPECT_NE(what.find("did you mean 'latency_us.median'"), std::string::npos) << what;
    }
    // Even with nothing to compare against (the first night), the gate is checked.
    nx::ReportInput empty;
    EXPECT_THROW(nx::check_baseline(cur, empty, {nx::parse_gate("latency_us.medain>10%")}, match), nx::UsageError);
}

// The first night of a history: the baseline has none of the records.
TEST(CheckBaseline, CountsTheRecordsTheBaselineHas) {
    nx::ReportInput base, cur;
    base.runs.push_back(run_record("a", 100));
    cur.runs.push_back(run_record("a", 100));
    cur.runs.push_back(run_record("b", 100));
    nx::BaselineMatch match;
    nx::check_baseline(cur, base, {nx::parse_gate("latency_us.median>10%")}, match);
    EXPECT_EQ(match.records, 2u);
    EXPECT_EQ(match.matched, 1u);
    nx::BaselineMatch none;
    nx::check_baseline(cur, nx::ReportInput{}, {nx::parse_gate("latency_us.median>10%")}, none);
    EXPECT_EQ(none.matched, 0u);
}

TEST(Rules, MessageStatesTheThresholdTheRunSet) {
    // The table's threshold: the table's words.
    auto plain = nx::evaluate_rules(summary({{"tensor_engine_active_time_percent", 45},
                                             {"transpose_flops", 30}, {"hardware_flops", 100}}));
    const nx::Finding* idle = find_rule(plain, "tensor_engine_idle");
    const nx::Finding* tr = find_rule(plain, "transposes");
    ASSERT_NE(idle, nullptr);
    ASSERT_NE(tr, nullptr);
    EXPECT_NE(idle->message.find("busy less than half the time"), std::string::npos) << idle->message;
    EXPECT_NE(tr->message.find("take more than 10% of"), std::string::npos) << tr->message;
    // Set thresholds: the message says them (a percent metric, a ratio as a percent).
    nx::RuleThresholds t;
    ASSERT_FALSE(t.set("tensor_engine_idle.threshold=60"));
    ASSERT_FALSE(t.set("transposes.threshold=0.25"));
    auto set = nx::evaluate_rules(summary({{"tensor_engine_active_time_percent", 45},
                                           {"transpose_flops", 30}, {"hardware_flops", 100}}), nullptr, &t);
    idle = find_rule(set, "tensor_engine_idle");
    tr = find_rule(set, "transposes");
    ASSERT_NE(idle, nullptr);
    ASSERT_NE(tr, nullptr);
    EXPECT_NE(idle->message.find("busy less than 60% of the time"), std::string::npos) << idle->message;
    EXPECT_EQ(idle->message.find("half"), std::string::npos) << idle->message;
    EXPECT_NE(idle->message.find("[tensor_engine_active_time_percent = 45 < 60]"), std::string::npos) << idle->message;
    EXPECT_NE(tr->message.find("take more than 25% of"), std::string::npos) << tr->message;
    EXPECT_EQ(tr->message.find("10%"), std::string::npos) << tr->message;
}

namespace {

nx::ProfileInfo workload_info(const std::string& carried) {
    nx::ProfileInfo i;
    i.dtype = "bf16";
    i.carried_json = carried;
    return i;
}

}  // namespace

TEST(GemvAdvice, OneRowMatmulIsAGemvWithItsWeightBytes) {
    auto g = nx::gemv_of(workload_info(R"({"op":"matmul","tiles":{"M":9},"M":1,"K":4096,"N":1024})"));
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->M, 1);
    EXPECT_EQ(g->weight_bytes, 4096 * 1024 * 2);
}

TEST(GemvAdvice, FullTileMatmulIsNotAGemvUnlessItIsADecodePhase) {
    EXPECT_FALSE(nx::gemv_of(workload_info(R"({"op":"matmul","M":128,"K":512,"N":512})")).has_value());
    EXPECT_TRUE(nx::gemv_of(workload_info(R"({"op":"matmul","M":128,"K":512,"N":512,"phase":"decode"})")).has_value());
    EXPECT_FALSE(nx::gemv_of(workload_info(R"({"op":"add","M":1,"K":512,"N":512})")).has_value());
    EXPECT_FALSE(nx::gemv_of(workload_info("")).has_value());
    EXPECT_FALSE(nx::gemv_of(workload_info(R"({"op":"matmul","M":1,"K":)")).has_value());
}

TEST(GemvAdvice, GemvFindingsLoseTheRestructureAdviceOthersKeepIt) {
    auto s = summary({{"tensor_engine_active_time_percent", 20}});
    std::vector<nx::Finding> gemv = nx::evaluate_rules(s), gemm = gemv;
    nx::fit_findings_to_workload(gemv, workload_info(R"({"op":"matmul","M":1,"K":512,"N":512})"));
    nx::fit_findings_to_workload(gemm, workload_info(R"({"op":"matmul","M":512,"K":512,"N":512})"));
    auto idle = [](const std::vector<nx::Finding>& f) {
        return *std::find_if(f.begin(), f.end(), [](const nx::Finding& x) { return x.rule == "tensor_engine_idle"; });
    };
    EXPECT_EQ(idle(gemv).action.find("fewer, larger"), std::string::npos);
    EXPECT_NE(idle(gemv).action.find("batch more requests per weight read"), std::string::npos);
    EXPECT_NE(idle(gemm).action.find("fewer, larger"), std::string::npos);
}
