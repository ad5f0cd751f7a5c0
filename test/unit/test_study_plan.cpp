// Unit tests for the study planner's range parsing and workload validation
// (common/study_plan, common/workload_record): the bounds that keep a typo
// from overflowing or planning a billion workloads.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "common/io/error.h"
#include "common/workload/study_plan.h"
#include "common/workload/workload_record.h"

namespace {

using V = std::vector<int64_t>;

TEST(ParseRange, ListsRangesAndSteps) {
    EXPECT_EQ(nx::parse_range("128:1024", "M"), (V{128, 256, 512, 1024}));
    EXPECT_EQ(nx::parse_range("100:130:+10,7", "M"), (V{100, 110, 120, 130, 7}));
    EXPECT_EQ(nx::parse_range("3:20:x3", "M"), (V{3, 9}));
}

// Found by fuzz_workloads: the doubling step overflowed int64_t before the
// loop compared it with the end of the range.
TEST(ParseRange, HugeEndStopsWithoutOverflow) {
    V v = nx::parse_range("4611686018427387904:9223372036854775807:x2", "M");
    EXPECT_EQ(v, (V{4611686018427387904}));
    v = nx::parse_range("9223372036854775806:9223372036854775807:+5", "M");
    EXPECT_EQ(v, (V{9223372036854775806}));
}

TEST(ParseRange, RefusesWhatCannotBeAShape) {
    for (const char* bad : {"0", "-4", "abc", "128:77777777777777777777777:x2", "99999999999999999999", "64:32",
                            "1:100:x1", "1:100:+0", "1:1000000:+1", ""})
        EXPECT_THROW(nx::parse_range(bad, "M"), nx::UsageError) << bad;
}

TEST(ValidateWorkload, RefusesDimensionsBeyondAnyDevice) {
    nx::Workload w;
    w.name = "huge";
    w.op = "matmul";
    w.dtype = "bf16";
    w.M = w.K = w.N = 128;
    EXPECT_NO_THROW(nx::validate_workload(w));
    w.K = nx::kMaxDimension + 1;
    try {
        nx::validate_workload(w);
        FAIL() << "accepted K beyond kMaxDimension";
    } catch (const nx::Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("huge: K", 0), 0u) << e.what();
    }
    EXPECT_FALSE(nx::workload_tiles(w).has_value());
}

// ---- the workload's tables (workload.h): fields and ops in one place each

TEST(WorkloadTables, EveryFieldRoundTripsThroughARecord) {
    nx::Workload w;
    int64_t n = 1;
    for (const nx::WorkloadField& f : nx::workload_fields()) {
        if (f.text) w.*f.text = std::string("v_") + f.name;
        else w.*f.number = n++;
    }
    w.op = "matmul";
    rapidjson::Document d;
    d.Parse(nx::workload_record_json(w).c_str());
    ASSERT_TRUE(d.IsObject());
    nx::Workload back = nx::workload_from_record(d);
    for (const nx::WorkloadField& f : nx::workload_fields()) {
        if (f.text) EXPECT_EQ(back.*f.text, w.*f.text) << f.name;
        else EXPECT_EQ(back.*f.number, w.*f.number) << f.name;
    }
    EXPECT_TRUE(back.carried_json.empty()) << back.carried_json;  // nothing of the table carried twice
}

TEST(WorkloadTables, AnOpsDefaultsAreFilledAndWrittenOut) {
    rapidjson::Document d;
    d.Parse(R"({"kind":"workload","name":"c","op":"conv2d","channels":8,"out_channels":8,"height":16,"width":16})");
    nx::Workload w = nx::workload_from_record(d);
    EXPECT_EQ(w.filter, 3);
    EXPECT_EQ(w.batch, 1);
    EXPECT_EQ(w.pool, 1);
    EXPECT_NE(nx::workload_record_json(w).find("\"filter\":3"), std::string::npos);
    nx::Workload loop;
    loop.op = "pattern";
    loop.pattern = "for_loop";
    loop = nx::with_defaults(loop);
    EXPECT_EQ(loop.size, "small");
    EXPECT_EQ(loop.iterations, 3);
}

TEST(WorkloadTables, OneValidationForEveryBackend) {
    nx::Workload w;
    w.name = "m";
    w.op = "mlp";
    w.batch = 1;
    w.hidden = w.intermediate = 8;
    try {
        nx::validate_workload(w);
        FAIL() << "accepted seq 0";
    } catch (const nx::Error& e) {
        EXPECT_STREQ(e.what(), "m: seq must be positive, got 0");
    }
    w.op = "conv";
    try {
        nx::validate_workload(w);
        FAIL() << "accepted op conv";
    } catch (const nx::Error& e) {
        EXPECT_EQ(std::string(e.what()), "m: unknown op 'conv' (known: " + nx::workload_op_names() + ")");
    }
    EXPECT_EQ(nx::workload_op_names(), "matmul, mlp, pattern, elementwise, conv2d, pool2d, ssm_scan, dwconv1d");
}

}  // namespace
