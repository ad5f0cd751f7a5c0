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

TEST(TableReader, SeekFindsEveryRowThroughSplitFilesAndRowGroupsInAnyOrder) {
    // The fixture twice as a split table: 100 rows, three row groups each;
    // row_id counts 0..49 in each part.
    TableReader r({kFixture, kFixture}, {"row_id"});
    for (int64_t row : {0, 17, 18, 49, 50, 51, 99, 3, 60, 60, 61, 20, 0, 98}) {
        ASSERT_TRUE(r.seek(row)) << row;
        EXPECT_EQ(r.table_row(), row);
        ASSERT_NE(r.column(0), nullptr);
        EXPECT_EQ(r.column(0)->i64(), row % 50) << row;
    }
    EXPECT_FALSE(r.seek(100));
    EXPECT_FALSE(r.seek(-1));
    // And next() goes on from a sought row, through the next file.
    ASSERT_TRUE(r.seek(48));
    std::vector<int64_t> after;
    for (int i = 0; i < 3 && r.next(); ++i) after.push_back(r.column(0)->i64());
    EXPECT_EQ(after, (std::vector<int64_t>{49, 0, 1}));
    EXPECT_EQ(r.table_row(), 51);
}

TEST(TableReader, SeekBackToTheFirstFileReopensIt) {
    // The first file's footer is read for its columns, then the second
    // file's rows; a seek back to a row of the first must read the first
    // file again, not the one open.
    const std::string other = "test/fixtures/parquet/encoding/arrowrs_byte_stream_split_v1.parquet";
    TableReader fresh({kFixture}, {"f64"});
    ASSERT_TRUE(fresh.seek(10));
    TableReader r({kFixture, other}, {"f64"}, TableReader::Others::add);
    ASSERT_TRUE(r.seek(55));
    ASSERT_TRUE(r.seek(10));
    EXPECT_EQ(r.file(), kFixture);
    EXPECT_EQ(r.column(0)->f64(), fresh.column(0)->f64());
}

}  // namespace
