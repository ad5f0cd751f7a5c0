// SQL over Parquet files (common/store/parquet_table.h): a column a file
// lacks reads NULL there, and the files that lacked a column a query asked
// for are counted, so that a dataset written partly by an older nx can say
// which of its NULLs mean "not known".
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/parquet/parquet_writer.h"
#include "common/store/parquet_table.h"
#include "common/store/sqlite_db.h"

namespace {

using nx::parquet::ValueType;
using nx::parquet::WriterColumn;

std::string write_file(const std::string& name, const std::vector<WriterColumn>& columns, int64_t rows) {
    std::string path = testing::TempDir() + "nx_ptable_" + name + ".parquet";
    nx::parquet::ParquetWriter w(path, columns, nx::parquet::WriterOptions{});
    for (int64_t k = 0; k < rows; ++k) {
        for (size_t c = 0; c < columns.size(); ++c) w.set_int64(c, k * 10 + static_cast<int64_t>(c));
        w.end_row();
    }
    w.commit();
    return path;
}

std::vector<std::string> rows_of(nx::SqliteDb& db, const std::string& sql) {
    std::vector<std::string> out;
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db.handle());
    while (sqlite3_step(st) == SQLITE_ROW) {
        std::string row;
        for (int c = 0; c < sqlite3_column_count(st); ++c) {
            const unsigned char* t = sqlite3_column_text(st, c);
            row += std::string(c ? "|" : "") + (t ? reinterpret_cast<const char*>(t) : "NULL");
        }
        out.push_back(row);
    }
    sqlite3_finalize(st);
    return out;
}

TEST(ParquetTable, AColumnAFileLacksReadsNullAndTheFilesThatLackedItAreCounted) {
    // The older file has x only; the newer one x and y; an empty older file
    // is read without a row, so it lacks nothing a query saw.
    std::string older = write_file("older", {{"x", ValueType::int64, false}}, 2);
    std::string newer = write_file("newer", {{"x", ValueType::int64, false}, {"y", ValueType::int64, true}}, 2);
    std::string empty = write_file("empty", {{"x", ValueType::int64, false}}, 0);
    nx::SqliteDb db(":memory:", nx::SqliteDb::Mode::create);
    nx::ParquetTableSpec spec;
    spec.name = "t";
    spec.columns = {"x", "y"};
    spec.types = {"INTEGER", "INTEGER"};
    for (const std::string& p : {older, newer, empty}) spec.files.push_back({p, {}, {}});
    auto missing = std::make_shared<nx::MissingColumns>();
    spec.missing = missing;
    nx::create_parquet_table(db.handle(), std::move(spec));

    EXPECT_EQ(rows_of(db, "SELECT x FROM t ORDER BY x"), (std::vector<std::string>{"0", "0", "10", "10"}));
    EXPECT_TRUE(missing->files_by_column.empty());  // y was not asked for
    EXPECT_EQ(rows_of(db, "SELECT x, y FROM t ORDER BY x, y"),
              (std::vector<std::string>{"0|NULL", "0|1", "10|NULL", "10|11"}));
    ASSERT_EQ(missing->files_by_column.size(), 1u);
    EXPECT_EQ(missing->files_by_column["y"], (std::set<size_t>{0}));  // the older file, once however often read
    rows_of(db, "SELECT a.y FROM t a, t b");
    EXPECT_EQ(missing->files_by_column["y"], (std::set<size_t>{0}));
    for (const std::string& p : {older, newer, empty}) std::filesystem::remove(p);
}

TEST(ParquetTable, AnUnsignedValueAboveInt64MaxIsItsExactDigitsAsText) {
    // duckdb_unsigned.parquet (test/fixtures/parquet/make.mjs): UINTEGER and
    // UBIGINT.  SQLite has no uint64: what fits is INTEGER, the rest TEXT.
    nx::SqliteDb db(":memory:", nx::SqliteDb::Mode::create);
    nx::ParquetTableSpec spec;
    spec.name = "u";
    spec.columns = {"row_id", "u32", "u64"};
    spec.types = {"INTEGER", "INTEGER", "INTEGER"};
    spec.files.push_back({"test/fixtures/parquet/encoding/duckdb_unsigned.parquet", {}, {}});
    nx::create_parquet_table(db.handle(), std::move(spec));
    EXPECT_EQ(rows_of(db, "SELECT row_id, u32, typeof(u32), u64, typeof(u64) FROM u WHERE row_id IN (1, 3, 4, 5, 6) ORDER BY row_id"),
              (std::vector<std::string>{"1|4294967295|integer|18446744073709551615|text",
                                        "3|2147483648|integer|9223372036854775808|text",
                                        "4|3000000000|integer|9223372036854788153|text",
                                        "5|2147483647|integer|9223372036854775807|integer",
                                        "6|3|integer|4|integer"}));
}

}  // namespace
