// TableReader (common/parquet/table_reader.h) on the Parquet fixtures (run
// from the repository root, as test/run does): the columns it reads and how
// often it opens a file; the union of a split table's columns.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/parquet/parquet_writer.h"
#include "common/parquet/table_reader.h"

namespace {

using nx::parquet::TableReader;
namespace pq = nx::parquet;

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

// ---- a split table's columns: the union of its files'

std::string write_part(const std::string& name, const std::vector<pq::WriterColumn>& columns) {
    std::string path = testing::TempDir() + "nx_union_" + name + ".parquet";
    pq::ParquetWriter w(path, columns, pq::WriterOptions{});
    for (size_t c = 0; c < columns.size(); ++c) {
        if (columns[c].type == pq::ValueType::string) w.set_string(c, "s");
        else if (columns[c].type == pq::ValueType::int32) w.set_int32(c, 7);
        else w.set_int64(c, 7);
    }
    w.end_row();
    w.commit();
    return path;
}

TEST(TableReader, OneColumnOfTwoTypesInTwoPartsIsAnErrorNamingBoth) {
    std::string a = write_part("a", {{"x", pq::ValueType::int64, false}});
    std::string b = write_part("b", {{"y", pq::ValueType::int32, false}, {"x", pq::ValueType::string, false}});
    for (bool add : {true, false}) {
        try {
            TableReader r({a, b}, {"x"}, add ? TableReader::Others::add : TableReader::Others::skip);
            r.next();
            ADD_FAILURE() << "no error";
        } catch (const nx::Error& e) {
            EXPECT_EQ(e.where(), b);
            EXPECT_EQ(std::string(e.what()), "column x is BYTE_ARRAY here but INT64 in " + a + " (parts of one table must agree)");
        }
    }
    // Compatible parts: the second's own column joins the table.
    std::string c = write_part("c", {{"y", pq::ValueType::int32, true}, {"x", pq::ValueType::int64, false}});
    TableReader r({a, c}, {}, TableReader::Others::add);
    EXPECT_EQ(r.names(), (std::vector<std::string>{"x", "y"}));
    std::vector<std::string> got;
    while (r.next()) got.push_back(r.column(1) ? std::to_string(r.column(1)->i64()) : "none");
    EXPECT_EQ(got, (std::vector<std::string>{"none", "7"}));
    for (const std::string& p : {a, b, c}) std::remove(p.c_str());
}

}  // namespace
