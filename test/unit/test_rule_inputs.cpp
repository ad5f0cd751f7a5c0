// The inputs of Neuron Explorer's 2.29+ rules and nx's small-DMA, throttling
// and tensor-repeat rules (common/profile/rule_inputs.h), through
// ProfileMetrics from hand-made events, and the rules they feed
// (common/profile/rules.h) with thresholds set per run.  Every expected value
// is worked out in the comment next to it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/profile.h"
#include "common/profile/profile_metrics.h"
#include "common/profile/rule_inputs.h"
#include "common/profile/rules.h"
#include "test/unit/test_support.h"

namespace {

using nx::Engine;
using nx::Event;
using nx::EventType;

Event instr(Engine engine, int64_t ts, int64_t dur, std::string_view args = {}) {
    Event e = nx_test::make_event(EventType::instruction, engine, {}, ts, dur, "MATMUL");
    e.args_json = args;
    return e;
}

Event region(std::string_view track, int64_t ts, int64_t dur, std::string_view name, std::string_view args = {}) {
    Event e = nx_test::make_event(EventType::region, Engine::none, track, ts, dur);
    e.name = name;
    e.args_json = args;
    return e;
}

Event dma(int64_t ts, int64_t bytes, std::string_view queue_type) {
    Event e = nx_test::make_event(EventType::dma, Engine::dma, "q0", ts, 10);
    e.bytes = bytes;
    e.queue_type = queue_type;
    return e;
}

nx::ProfileInfo trn1() {
    nx::ProfileInfo info;
    info.id = "p_test";
    info.name = "test";
    info.target = "trn1";
    info.dtype = "bf16";
    return info;
}

nx::ProfileSummary summarize(const std::vector<Event>& events, const nx::ProfileInfo& info = trn1()) {
    nx::ProfileMetrics pm;
    for (const Event& e : events) pm.add(e);
    return pm.finish(info);
}

const nx::Finding* find_rule(const std::vector<nx::Finding>& findings, std::string_view rule,
                             std::string_view metric = {}) {
    for (const nx::Finding& f : findings)
        if (f.rule == rule && (metric.empty() || f.metric == metric)) return &f;
    return nullptr;
}

constexpr double kTrn1Peak = 128.0 * 128 * 2 * 2.8e9;  // FLOP/s, bf16

}  // namespace

TEST(JsonField, FindsStringAndNumberValuesOfAKey) {
    std::string_view args = R"({"queue_type":"hardware_dynamic","k": 7,"n":8,"x":null,"nki_source_location":""})";
    EXPECT_EQ(nx::json_field(args, "queue_type"), "hardware_dynamic");
    EXPECT_EQ(nx::json_field(args, "k"), "7");
    EXPECT_EQ(nx::json_field(args, "n"), "8");
    EXPECT_EQ(nx::json_field(args, "x"), "");
    EXPECT_EQ(nx::json_field(args, "nki_source_location"), "");
    EXPECT_EQ(nx::json_field(args, "missing"), "");
    // A key inside another key's value is not the key.
    EXPECT_EQ(nx::json_field(R"({"a":"queue_type","queue_type":"data"})", "queue_type"), "data");
}

TEST(RuleInputs, ActiveFlopsArePeakTimesTensorBusyTime) {
    // TensorMatrix busy 1000 ns on trn1: 1e-6 s x 9.17504e13 = 9.17504e7 FLOPs.
    auto s = summarize({instr(Engine::tensor_matrix, 0, 1000)});
    ASSERT_NE(s.find("active_flops"), nullptr);
    EXPECT_NEAR(s.find("active_flops")->value, kTrn1Peak * 1e-6, 1);
}

TEST(RuleInputs, ThrottledFlopsAreTensorBusyTimeUnderTheLimit) {
    // Tensor busy [0, 1000); throttled at 3/4 over [500, 1500): 500 ns of busy
    // time lose a quarter each = 125 ns at peak = 12.5% of the busy time.
    // Throttled 1000 of the 1500 ns span = 66.7%; mean limit 75%.
    auto s = summarize({instr(Engine::tensor_matrix, 0, 1000), region("ham", 500, 1000, "ham", R"({"k":3,"n":4})"),
                        region("ham", 1500, 0, "ham", R"({"k":1,"n":1})")});
    EXPECT_NEAR(s.find("throttled_flops_percent")->value, 12.5, 1e-9);
    EXPECT_NEAR(s.find("throttled_flops")->value, 125e-9 * kTrn1Peak, 1);
    EXPECT_NEAR(s.find("throttle_active_time_percent")->value, 100.0 * 1000 / 1500, 1e-9);
    EXPECT_NEAR(s.find("throttle_avg_util_limit_percent")->value, 75, 1e-9);
    auto findings = nx::evaluate_rules(s);
    ASSERT_NE(find_rule(findings, "flops_throttled"), nullptr);
    ASSERT_NE(find_rule(findings, "throttling"), nullptr);
}

TEST(RuleInputs, ExplorerThrottleRowsCountLikeTheJsonRows) {
    nx::ProfileMetrics pm;
    pm.add(instr(Engine::tensor_matrix, 0, 1000));
    nx::SourceRows rows;
    rows.table = "Throttle";
    rows.rows = {R"({"timestamp":0,"duration":1000,"k":1,"n":2,"type":"x"})",
                 R"({"timestamp":0,"duration":1000,"k":2,"n":2,"type":"none"})"};
    pm.add_source_rows(rows);
    auto s = pm.finish(trn1());
    // All 1000 busy ns at half rate: 50% of the active FLOPs.
    EXPECT_NEAR(s.find("throttled_flops_percent")->value, 50, 1e-9);
}

TEST(RuleInputs, NoThrottleDataMeansNoThrottleMetricsAndTheRuleSaysSo) {
    auto s = summarize({instr(Engine::tensor_matrix, 0, 1000)});
    EXPECT_EQ(s.find("throttled_flops_percent"), nullptr);
    std::vector<std::string> missing;
    nx::evaluate_rules(s, &missing);
    auto absent = nx::explorer_rules_missing(missing);
    EXPECT_NE(std::find(absent.begin(), absent.end(), "flops_throttled"), absent.end());
    // nx's own throttling rule is not an Explorer rule.
    EXPECT_EQ(std::find(absent.begin(), absent.end(), "throttling"), absent.end());
}

TEST(RuleInputs, NkiCoverageIsPerEngineAndOnlyWithNkiAttribution) {
    // Tensor: 1 of 4 instructions from NKI (25%); Vector: 2 of 2 (100%).
    std::string_view nki = R"({"nki_source_location":"kernel.py:33"})";
    std::string_view compiler = R"({"nki_source_location":""})";
    auto s = summarize({instr(Engine::tensor_matrix, 0, 10, nki), instr(Engine::tensor_matrix, 10, 10, compiler),
                        instr(Engine::tensor, 20, 10, compiler), instr(Engine::tensor, 30, 10, compiler),
                        instr(Engine::vector, 0, 10, nki), instr(Engine::vector, 10, 10, nki)});
    EXPECT_NEAR(s.find("tensor_engine_nki_instruction_percent")->value, 25, 1e-9);
    EXPECT_NEAR(s.find("vector_engine_nki_instruction_percent")->value, 100, 1e-9);
    auto findings = nx::evaluate_rules(s);
    const nx::Finding* f = find_rule(findings, "nki_coverage", "tensor_engine_nki_instruction_percent");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->message.find("tensor engine:"), std::string::npos) << f->message;
    EXPECT_EQ(find_rule(findings, "nki_coverage", "vector_engine_nki_instruction_percent"), nullptr);
    // Without any NKI instruction, a compiled model is not "poorly covered".
    auto plain = summarize({instr(Engine::vector, 0, 10, compiler)});
    EXPECT_EQ(plain.find("vector_engine_nki_instruction_percent"), nullptr);
}

TEST(RuleInputs, CollectiveOutlierIsTheWorstOverItsGroupMedian) {
    // all-reduce of 1024 bytes: 100, 100, 120, 500 ns -> median 110, worst 500/110.
    // all-gather has only two: no group figure of its own.
    std::vector<Event> ev;
    int64_t t = 0;
    for (int64_t d : {100, 100, 120, 500}) {
        Event e = region("collectives", t, d, "all-reduce");
        e.bytes = 1024;
        ev.push_back(e);
        t += 1000;
    }
    ev.push_back(region("collectives", t, 5000, "all-gather"));
    ev.push_back(region("collectives", t + 10000, 10, "all-gather"));
    auto s = summarize(ev);
    EXPECT_NEAR(s.find("collective_outlier_ratio")->value, 500.0 / 110, 1e-9);
    EXPECT_EQ(s.find("collective_op_count")->value, 6);
    ASSERT_NE(find_rule(nx::evaluate_rules(s), "collective_outlier"), nullptr);
}

TEST(RuleInputs, SmallDmaCountsHardwareDgeTransfersUnder4KiB) {
    // 150 hardware-DGE transfers: 120 of 2 KiB, 30 of 4 KiB (not small) -> 80%;
    // software-DGE transfers do not count.
    std::vector<Event> ev;
    for (int i = 0; i < 120; ++i) ev.push_back(dma(i * 10, 2048, "hardware_dynamic"));
    for (int i = 0; i < 30; ++i) ev.push_back(dma(2000 + i * 10, 4096, "hardware_dynamic"));
    for (int i = 0; i < 50; ++i) ev.push_back(dma(5000 + i * 10, 64, "software_dynamic"));
    auto s = summarize(ev);
    EXPECT_EQ(s.find("hardware_dge_transfer_count")->value, 150);
    EXPECT_EQ(s.find("small_dma_transfer_count")->value, 120);
    EXPECT_NEAR(s.find("small_dma_transfer_percent")->value, 80, 1e-9);
    ASSERT_NE(find_rule(nx::evaluate_rules(s), "small_dma"), nullptr);
}

TEST(RuleInputs, QueueTypeComesFromTheArgsWhenNoColumnGaveIt) {
    // neuron-profile JSON keeps queue_type among the DMA packet's fields.
    Event e = dma(0, 100, {});
    e.args_json = R"({"queue_type":"hardware_dynamic"})";
    auto s = summarize({e});
    EXPECT_EQ(s.find("small_dma_transfer_count")->value, 1);
}

TEST(RuleInputs, TensorRepeatFactorsFromNeffNodeAndTensorInfo) {
    nx::ProfileMetrics pm;
    pm.add(instr(Engine::vector, 0, 10));
    nx::SourceRows rows;
    rows.table = "TensorInfo";
    rows.rows = {R"({"variable_name":"w","load_to_sbuf_repeat_factor":3.0})", R"({"variable_name":"x"})"};
    pm.add_source_rows(rows);
    nx::ProfileInfo info = trn1();
    info.carried_json = R"({"neff_node":[{"variable_name":"a","load_to_sbuf_repeat_factor":"2"},)"
                        R"({"variable_name":"b","load_to_sbuf_repeat_factor":1}]})";
    auto s = pm.finish(info);
    EXPECT_EQ(s.find("max_tensor_repeat_factor")->value, 3);
    EXPECT_EQ(s.find("repeated_tensor_count")->value, 2);
    ASSERT_NE(find_rule(nx::evaluate_rules(s), "tensor_repeat"), nullptr);
}

TEST(Rules, ModelFlopsLowComparesModelWithActiveFlops) {
    nx::ProfileSummary s;
    s.metrics = {{"model_flops", 40, true}, {"active_flops", 100, false}};
    auto findings = nx::evaluate_rules(s);
    const nx::Finding* f = find_rule(findings, "model_flops_low");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->metric, "model_flops/active_flops");
    EXPECT_DOUBLE_EQ(f->value, 0.4);
    EXPECT_DOUBLE_EQ(f->threshold, 0.5);
}

TEST(RuleThresholds, ASetThresholdChangesTheRuleAndIsShownInTheFinding) {
    nx::ProfileSummary s;
    s.metrics = {{"tensor_engine_active_time_percent", 60, true}};
    s.start_ns = 5;
    s.end_ns = 50;
    nx::RuleThresholds t;
    ASSERT_FALSE(t.set("tensor_engine_idle.threshold=65"));
    auto findings = nx::evaluate_rules(s, nullptr, &t);
    const nx::Finding* f = find_rule(findings, "tensor_engine_idle");
    ASSERT_NE(f, nullptr);
    EXPECT_DOUBLE_EQ(f->threshold, 65);
    EXPECT_NE(f->message.find("< 65]"), std::string::npos) << f->message;
    EXPECT_EQ(f->region, "profile");
    EXPECT_EQ(f->start_ns, 5);
    EXPECT_EQ(f->end_ns, 50);
    // Without the setting the default (50) does not fire at 60.
    EXPECT_EQ(find_rule(nx::evaluate_rules(s), "tensor_engine_idle"), nullptr);
}

TEST(RuleThresholds, BadSettingsSayWhatIsWrong) {
    nx::RuleThresholds t;
    EXPECT_EQ(t.set("nope.threshold=1").value_or(""), "unknown rule 'nope' (nx-report --list rules lists them)");
    EXPECT_EQ(t.set("dma_wait=1").value_or(""), "expected RULE.threshold=VALUE, got 'dma_wait=1'");
    EXPECT_EQ(t.set("dma_wait.threshold=fast").value_or(""), "threshold of 'dma_wait' is not a number: 'fast'");
    EXPECT_NE(t.set("memory_bound_roofline.threshold=3").value_or("").find("no threshold to set"), std::string::npos);
    EXPECT_TRUE(t.values.empty());
}

TEST(RuleThresholds, ARulesFileNamesTheBadLine) {
    std::string path = testing::TempDir() + "nx_rules_test.txt";
    {
        std::ofstream f(path);
        f << "# thresholds for the nightly run\n\ndma_wait.threshold=20   # looser\nsmall_dma.threshold=x\n";
    }
    nx::RuleThresholds t;
    EXPECT_EQ(t.read_file(path).value_or(""), path + ":4: threshold of 'small_dma' is not a number: 'x'");
    EXPECT_EQ(t.values.at("dma_wait"), 20);
    std::remove(path.c_str());
}

TEST(Rules, RuleTableSaysWhichRuleSetEachRuleComesFrom) {
    int explorer29 = 0;
    for (const nx::RuleInfo& r : nx::rule_table()) {
        EXPECT_FALSE(r.origin.empty()) << r.id;
        if (r.origin == "Explorer 2.29") ++explorer29;
    }
    // The six of Explorer 2.29: model FLOPs, NKI coverage, throttling,
    // transposes, collectives, spill reloads.
    EXPECT_EQ(explorer29, 6);
}
