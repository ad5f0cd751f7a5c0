// ErrorCounts: what one profile's import added to the process's counters.
#include <gtest/gtest.h>

#include "common/records/error_counts.h"

TEST(ErrorCounts, GrownSinceNamesOnlyTheCountersThatGrew) {
    nx::ErrorCounts c;
    c.count_more(nx::ErrorKind::bad_record, 4);
    nx::ErrorCounts::Snapshot before = c.snapshot();
    EXPECT_EQ(c.grown_since_json(before), "");
    EXPECT_EQ(c.grown_since_text(before), "");
    c.count_more(nx::ErrorKind::bad_record, 2);
    c.count_more(nx::ErrorKind::damaged_table, 1);
    EXPECT_EQ(c.grown_since_json(before), "{\"bad_record\":2,\"damaged_table\":1}");
    EXPECT_EQ(c.grown_since_text(before), "skipped 2 bad records; skipped the rest of 1 damaged table");
    // The process-wide summary still counts everything.
    EXPECT_EQ(c.summary(nx::ErrorKind::bad_record), "skipped 6 bad records");
}
