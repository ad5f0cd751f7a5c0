// TableReader (common/parquet/table_reader.h) on the Parquet fixtures (run
// from the repository root, as test/run does): the columns it reads and how
// often it opens a file; the union of a split table's columns; Parquet as Go
// writers make it (unsigned integers) and as Java writers do (data pages v2
// of nulls with no body).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/parquet/file_metadata.h"
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

// ---- unsigned integers (a Go writer's uint fields): exact whatever the encoding

const std::string kPq = "test/fixtures/parquet/";

TEST(TableReader, UnsignedIntegersReadExactInPlainDeltaAndDictionaryPages) {
    // The same rows three ways (make.mjs): DuckDB PLAIN (ConvertedType only),
    // DuckDB DELTA_BINARY_PACKED, arrow-rs dictionary pages v2 (LogicalType too).
    for (const char* f : {"encoding/duckdb_unsigned.parquet", "encoding/duckdb_unsigned_v2.parquet",
                          "encoding/arrowrs_unsigned_v2_snappy.parquet"}) {
        SCOPED_TRACE(f);
        TableReader r({kPq + f}, {"row_id", "u8", "u16", "u32", "u64"});
        std::vector<std::vector<uint64_t>> got;  // rows 0..5: u8, u16, u32, u64
        for (int k = 0; k < 6 && r.next(); ++k) {
            for (size_t c = 1; c <= 4; ++c) {
                ASSERT_NE(r.column(c), nullptr);
                EXPECT_TRUE(r.column(c)->is_unsigned());
            }
            if (r.column(1)->is_null()) {
                got.push_back({});
                continue;
            }
            got.push_back({r.column(1)->u64(), r.column(2)->u64(), r.column(3)->u64(), r.column(4)->u64()});
            // INT32 zero-extended: i64() is the value itself.
            EXPECT_EQ(static_cast<uint64_t>(r.column(3)->i64()), r.column(3)->u64());
        }
        constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
        const std::vector<std::vector<uint64_t>> want = {
            {0, 0, 0, 0},
            {255, 65535, 4294967295u, kMax},
            {},
            {128, 32768, 2147483648u, uint64_t{1} << 63},
            {200, 40000, 3000000000u, (uint64_t{1} << 63) + 12345},
            {127, 32767, 2147483647u, (uint64_t{1} << 63) - 1},
        };
        EXPECT_EQ(got, want);
        EXPECT_FALSE(r.column(0)->is_unsigned());  // row_id: a plain INT64
    }
}

// ---- data pages v2 with an empty body (parquet-java, Spark: pages of nulls)

TEST(TableReader, ADataPageV2OfNullsWithNoBodyReadsAsNulls) {
    TableReader r({kPq + "encoding/handmade_v2_empty_body.parquet"}, {"row_id", "opt_i64", "opt_s", "all_null"});
    std::vector<std::string> got;
    while (r.next()) {
        std::string row = std::to_string(r.column(0)->i64());
        row += r.column(1)->is_null() ? " -" : " " + std::to_string(r.column(1)->i64() - 1000000000000);
        row += r.column(2)->is_null() ? " -" : " " + std::string(r.column(2)->str());
        EXPECT_TRUE(r.column(3)->is_null());
        got.push_back(row);
    }
    const std::vector<std::string> want = {"0 - -", "1 - -", "2 - -", "3 - -", "4 4000 v4_b", "5 5000 -", "6 - v6_α",
                                           "7 7000 v7_b", "8 - -", "9 - -", "10 - -", "11 - -"};
    EXPECT_EQ(got, want);
}

TEST(TableReader, AnEmptyV2BodyThatClaimsValueBytesIsAnError) {
    // The fixture with opt_i64's first page (all null, 0-byte body) claiming
    // 8 bytes of values uncompressed: still an error, naming the page.
    const std::string src = kPq + "encoding/handmade_v2_empty_body.parquet";
    std::ifstream in(src, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto file = pq::ParquetFile::open(src);
    const int64_t at = file->metadata().row_groups[0].columns[1].meta->data_page_offset;
    size_t used = 0;
    pq::PageHeader h = pq::decode_page_header(bytes.data() + at, bytes.size() - static_cast<size_t>(at), used);
    ASSERT_TRUE(h.data_v2);
    ASSERT_EQ(h.compressed_page_size, h.data_v2->definition_levels_byte_length);  // no value bytes
    pq::PageHeader claims = h;
    claims.uncompressed_page_size += 8;
    const std::vector<uint8_t> header = pq::encode_page_header(claims);
    ASSERT_EQ(header.size(), used);  // the same length: the file's offsets stay right
    std::copy(header.begin(), header.end(), bytes.begin() + at);
    const std::string bad = testing::TempDir() + "nx_v2_claims_values.parquet";
    std::ofstream(bad, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    TableReader r({bad}, {"opt_i64"});
    try {
        while (r.next()) {
        }
        ADD_FAILURE() << "no error";
    } catch (const nx::Error& e) {
        EXPECT_EQ(e.where(), bad);
        EXPECT_NE(std::string(e.what()).find("column opt_i64: data page v2 at byte " + std::to_string(at) +
                                             " has no value bytes but claims 8 uncompressed"),
                  std::string::npos)
            << e.what();
    }
    std::remove(bad.c_str());
}

// ---- a split table's columns: the union of its files'

const std::vector<std::string> kSession = {kPq + "explorer/session@latest/Instruction_0.parquet",
                                           kPq + "explorer/session@latest/Instruction_1.parquet"};

TEST(TableReader, AColumnOnlyALaterFileHasIsATableColumnNullInTheOthers) {
    // Instruction_0 lacks nki_source_location; Instruction_1 has it on every
    // row (810 of each, session@latest.expected.json).
    TableReader r(kSession, {"id"}, TableReader::Others::add);
    const auto& names = r.names();
    auto it = std::find(names.begin(), names.end(), "nki_source_location");
    ASSERT_NE(it, names.end());
    EXPECT_EQ(it, names.end() - 1);  // after the first file's columns
    size_t h = static_cast<size_t>(it - names.begin());
    ASSERT_NE(r.info(h), nullptr);
    EXPECT_TRUE(r.info(h)->is_string);
    int64_t rows = 0, in_first = 0, values = 0;
    while (r.next()) {
        ++rows;
        if (r.file() == kSession[0]) {
            ++in_first;
            EXPECT_EQ(r.column(h), nullptr);
        } else if (r.column(h) && !r.column(h)->is_null()) {
            EXPECT_EQ(r.column(h)->str().substr(0, 7), "kernel_");
            ++values;
        }
    }
    EXPECT_EQ(rows, 1620);
    EXPECT_EQ(in_first, 810);
    EXPECT_EQ(values, 810);
    // Asked for by name, without the others: known before a row is read.
    TableReader named(kSession, {"nki_source_location"});
    EXPECT_EQ(&named.first_file(), &named.first_file());
    ASSERT_NE(named.info(0), nullptr);
    ASSERT_TRUE(named.seek(1000));
    ASSERT_NE(named.column(0), nullptr);
    EXPECT_FALSE(named.column(0)->is_null());
    ASSERT_TRUE(named.seek(5));
    EXPECT_EQ(named.column(0), nullptr);
}

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
