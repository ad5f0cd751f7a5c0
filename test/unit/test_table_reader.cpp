// TableReader (common/parquet/table_reader.h) on the Parquet fixtures (run
// from the repository root, as test/run does): the columns it reads and how
// often it opens a file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/parquet/table_reader.h"

namespace {

using nx::parquet::TableReader;

const std::string kFixture = "test/fixtures/parquet/encoding/duckdb_rowgroups_v1_snappy.parquet";

TEST(TableReader, EveryOtherColumnFollowsTheAskedOnesInFileOrder) {
    TableReader r({kFixture}, {"s", "row_id", "no_such_column"}, TableReader::Others::add);
    const std::vector<std::string> want = {"s",  "row_id", "no_such_column", "b",  "i32", "i64", "f32", "f64",
                                           "cat", "opt_s", "opt_i64",       "li", "ls",  "fixed"};
    EXPECT_EQ(r.names(), want);
    size_t rows = 0;
    while (r.next()) {
        ASSERT_NE(r.column(1), nullptr);
        EXPECT_EQ(r.column(1)->i64(), static_cast<int64_t>(rows));
        EXPECT_EQ(r.column(2), nullptr);  // the file lacks it: null
        ++rows;
    }
    EXPECT_EQ(rows, 50u);  // three row groups, the cursors reused from one to the next
}

TEST(TableReader, OnlyTheAskedColumnsWithoutOthers) {
    TableReader r({kFixture}, {"f64"});
    EXPECT_EQ(r.names(), std::vector<std::string>{"f64"});
}

TEST(TableReader, TheFirstFileIsOpenedOnceForItsColumnsAndItsRows) {
    // Listing the columns opens the file; reading the rows must use that
    // same open file: removed in between, a second open would fail.
    std::string copy = testing::TempDir() + "nx_table_reader_once.parquet";
    std::filesystem::copy_file(kFixture, copy, std::filesystem::copy_options::overwrite_existing);
    TableReader r({copy}, {}, TableReader::Others::add);
    ASSERT_EQ(unlink(copy.c_str()), 0);
    size_t rows = 0;
    EXPECT_NO_THROW(while (r.next()) ++rows);
    EXPECT_EQ(rows, 50u);
    EXPECT_EQ(r.first_file().num_rows(), 50);
}

}  // namespace
