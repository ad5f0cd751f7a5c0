// Unit tests for the study planner's range parsing and workload validation
// (common/study_plan, common/workload_record): the bounds that keep a typo
// from overflowing or planning a billion workloads.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace
