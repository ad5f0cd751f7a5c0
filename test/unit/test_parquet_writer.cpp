// ParquetWriter (common/parquet/parquet_writer.h) read back by nx's own
// reader: every type, nulls, several row groups and pages, dictionary and
// plain strings, each codec, the footer's metadata; and that nothing is left
// behind when a writer is not committed.  DuckDB and arrow-rs read what the
// writer makes of a dataset in test/crosscheck/dataset_duckdb.mjs.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/parquet/parquet_file.h"
#include "common/parquet/parquet_writer.h"
#include "common/parquet/string_bounds.h"
#include "common/parquet/table_reader.h"

namespace {

using namespace nx::parquet;
namespace fs = std::filesystem;

std::string temp_path(const std::string& name) { return testing::TempDir() + "nx_writer_" + name + ".parquet"; }

const std::vector<WriterColumn> kColumns = {
    {"id", ValueType::int64, false},   {"i32", ValueType::int32, true},  {"f64", ValueType::float64, true},
    {"f32", ValueType::float32, true}, {"b", ValueType::boolean, true},  {"name", ValueType::string, true},
    {"text", ValueType::string, false},
};

// Row k's values: a null every 7th row in the nullable columns, a name from
// five (a dictionary), a text unique to the row (plain).
bool null_at(int64_t k) { return k % 7 == 3; }
std::string name_of(int64_t k) { return "engine_" + std::to_string(k % 5); }
std::string text_of(int64_t k) { return "row " + std::to_string(k) + std::string(static_cast<size_t>(k % 13), 'x'); }

// Rows k in [from, from + n), row by row.
void write_rows_from(ParquetWriter& w, int64_t from, int64_t n) {
    for (int64_t k = from; k < from + n; ++k) {
        w.set_int64(0, k * 1000 - 5);
        if (null_at(k)) {
            w.set_null(1);  // explicit null; the others are left unset
        } else {
            w.set_int32(1, static_cast<int32_t>(-k));
            w.set_double(2, k * 0.5);
            w.set_float(3, static_cast<float>(k) / 4.0f);
            w.set_bool(4, k % 2 == 0);
            w.set_string(5, name_of(k));
        }
        w.set_string(6, text_of(k));
        w.end_row();
    }
}

void write_rows(ParquetWriter& w, int64_t n) { write_rows_from(w, 0, n); }

void expect_rows(const std::string& path, int64_t n) {
    TableReader r({path}, {"id", "i32", "f64", "f32", "b", "name", "text"});
    int64_t k = 0;
    while (r.next()) {
        ASSERT_LT(k, n);
        EXPECT_EQ(r.column(0)->i64(), k * 1000 - 5) << "row " << k;
        for (size_t c = 1; c <= 5; ++c) EXPECT_EQ(r.column(c)->is_null(), null_at(k)) << "row " << k << " column " << c;
        if (!null_at(k)) {
            EXPECT_EQ(r.column(1)->i64(), -k);
            EXPECT_DOUBLE_EQ(r.column(2)->f64(), k * 0.5);
            EXPECT_FLOAT_EQ(static_cast<float>(r.column(3)->f64()), static_cast<float>(k) / 4.0f);
            EXPECT_EQ(r.column(4)->i64(), k % 2 == 0 ? 1 : 0);
            EXPECT_EQ(r.column(5)->str(), name_of(k));
        }
        EXPECT_EQ(r.column(6)->str(), text_of(k)) << "row " << k;
        ++k;
    }
    EXPECT_EQ(k, n);
}

TEST(ParquetWriter, EveryTypeWithNullsReadsBackAcrossRowGroupsAndPages) {
    for (Codec codec : {Codec::zstd, Codec::snappy, Codec::uncompressed})
    for (bool delta : {false, true}) {
        std::string path = temp_path("types");
        WriterOptions o;
        o.codec = codec;
        o.row_group_rows = 1000;  // 2500 rows: three row groups, the last partial
        o.page_values = 300;      // four pages per full row group, the last partial
        // The integers PLAIN, or as deltas (the INT32 one with nulls between).
        std::vector<WriterColumn> columns = kColumns;
        columns[0].delta = columns[1].delta = delta;
        {
            ParquetWriter w(path, columns, o);
            write_rows(w, 2500);
            w.commit();
        }
        SCOPED_TRACE(to_string(codec) + (delta ? ", integers as deltas" : ""));
        expect_rows(path, 2500);
        auto file = ParquetFile::open(path);
    const ParquetFile& f = *file;
        EXPECT_EQ(f.num_rows(), 2500);
        ASSERT_EQ(f.row_groups(), 3u);
        EXPECT_EQ(f.metadata().row_groups[2].num_rows, 500);
        // The repeating names are a dictionary, the unique texts plain.
        const auto& name = *f.metadata().row_groups[0].columns[5].meta;
        const auto& text = *f.metadata().row_groups[0].columns[6].meta;
        EXPECT_TRUE(name.dictionary_page_offset.has_value());
        EXPECT_FALSE(text.dictionary_page_offset.has_value());
        EXPECT_EQ(name.codec, codec);
        for (size_t c : {0, 1}) {
            const auto& e = f.metadata().row_groups[0].columns[c].meta->encodings;
            EXPECT_EQ(std::count(e.begin(), e.end(), Encoding::delta_binary_packed), delta ? 1 : 0) << "column " << c;
            EXPECT_EQ(std::count(e.begin(), e.end(), Encoding::plain), delta ? 0 : 1) << "column " << c;
        }
        fs::remove(path);
    }
}

// A delta column's page of nulls only has no values to take deltas of: it
// is PLAIN (empty), the pages around it DELTA_BINARY_PACKED, and the chunk
// names both; values jumping by up to 2^20 (20-bit miniblocks) read back.
TEST(ParquetWriter, ADeltaColumnsPagesOfNullsArePlainAndTheRestDeltas) {
    std::string path = temp_path("delta_nulls");
    WriterOptions o;
    o.page_values = 100;
    const std::vector<WriterColumn> columns = {{"ts", ValueType::int64, false, true, true},
                                               {"v", ValueType::int32, true, true, true}};
    auto value = [](int64_t k) { return static_cast<int32_t>((k * 7919) % (1 << 20)) - (1 << 19); };
    auto null_v = [](int64_t k) { return k >= 100 && k < 300; };  // rows 100..299: two pages of nulls
    {
        ParquetWriter w(path, columns, o);
        for (int64_t k = 0; k < 500; ++k) {
            w.set_int64(0, 1'700'000'000'000'000'000 + k * 1000);
            if (!null_v(k)) w.set_int32(1, value(k));
            w.end_row();
        }
        w.commit();
    }
    TableReader r({path}, {"ts", "v"});
    int64_t k = 0;
    while (r.next()) {
        EXPECT_EQ(r.column(0)->i64(), 1'700'000'000'000'000'000 + k * 1000) << "row " << k;
        ASSERT_EQ(r.column(1)->is_null(), null_v(k)) << "row " << k;
        if (!null_v(k)) {
            EXPECT_EQ(r.column(1)->i64(), value(k)) << "row " << k;
        }
        ++k;
    }
    EXPECT_EQ(k, 500);
    auto file = ParquetFile::open(path);
    const auto& ts = file->metadata().row_groups[0].columns[0].meta->encodings;
    const auto& v = file->metadata().row_groups[0].columns[1].meta->encodings;
    EXPECT_EQ(ts, (std::vector<Encoding>{Encoding::rle, Encoding::delta_binary_packed}));
    EXPECT_EQ(v, (std::vector<Encoding>{Encoding::plain, Encoding::rle, Encoding::delta_binary_packed}));
    fs::remove(path);
}

TEST(ParquetWriter, OnlyIntegerColumnsTakeDeltas) {
    std::string path = temp_path("delta_text");
    EXPECT_THROW(ParquetWriter(path, {{"name", ValueType::string, true, true, true}}), nx::Error);
    EXPECT_FALSE(fs::exists(path));
}

// Long strings (a profile's args text) bound the writer's memory by bytes:
// the text column ends its pages early, alone (its pages hold other rows than
// the other columns'), and a row group ends when its compressed pages reach
// row_group_bytes, before row_group_rows.
TEST(ParquetWriter, LongStringsEndPagesAndRowGroupsByBytes) {
    std::string path = temp_path("bytes");
    WriterOptions o;
    o.codec = Codec::uncompressed;  // compressed bytes = the values': predictable
    o.row_group_rows = 100000;
    o.page_values = 1000;
    o.page_bytes = 256;              // a text page every few rows
    o.row_group_bytes = 8 << 10;     // 2500 rows of ~20 B of text pages: about six groups
    {
        ParquetWriter w(path, kColumns, o);
        write_rows(w, 2500);
        w.commit();
    }
    expect_rows(path, 2500);
    auto file = ParquetFile::open(path);
    const ParquetFile& f = *file;
    EXPECT_EQ(f.num_rows(), 2500);
    EXPECT_GE(f.row_groups(), 4u);
    int64_t rows = 0;
    for (const auto& g : f.metadata().row_groups) {
        EXPECT_LT(g.num_rows, 2500);
        rows += g.num_rows;
    }
    EXPECT_EQ(rows, 2500);
    fs::remove(path);
}

TEST(ParquetWriter, TheSchemaSaysWhichColumnsAreNullableAndWhichAreText) {
    std::string path = temp_path("schema");
    WriterOptions o;
    o.key_value = {{"nx.table", "events"}};
    o.created_by = "nx test";
    {
        ParquetWriter w(path, kColumns, o);
        write_rows(w, 3);
        w.commit();
    }
    auto file = ParquetFile::open(path);
    const ParquetFile& f = *file;
    ASSERT_EQ(f.columns().size(), kColumns.size());
    EXPECT_FALSE(f.find_column("id")->nullable());
    EXPECT_TRUE(f.find_column("i32")->nullable());
    EXPECT_FALSE(f.find_column("text")->nullable());
    EXPECT_EQ(f.metadata().created_by, "nx test");
    ASSERT_EQ(f.metadata().key_value.size(), 1u);
    EXPECT_EQ(f.metadata().key_value[0].second, "events");
    bool name_is_string = false;
    for (const SchemaElement& e : f.metadata().schema)
        if (e.name == "name") name_is_string = e.logical_string;
    EXPECT_TRUE(name_is_string);
    fs::remove(path);
}

TEST(ParquetWriter, AnEmptyTableIsAValidFileWithItsSchema) {
    std::string path = temp_path("empty");
    {
        ParquetWriter w(path, kColumns);
        w.commit();
    }
    auto file = ParquetFile::open(path);
    const ParquetFile& f = *file;
    EXPECT_EQ(f.num_rows(), 0);
    EXPECT_EQ(f.columns().size(), kColumns.size());
    TableReader r({path}, {"id"});
    EXPECT_FALSE(r.next());
    fs::remove(path);
}

TEST(ParquetWriter, AStringColumnNullOnItsFirstPageIsPlainThereAndADictionaryAfter) {
    // A chunk's dictionary page comes first: a page of nulls before the first
    // value must not claim dictionary encoding without one (arrow-rs refuses).
    std::string path = temp_path("nullfirst");
    WriterOptions o;
    o.page_values = 10;
    {
        ParquetWriter w(path, {{"s", ValueType::string, true}}, o);
        for (int k = 0; k < 100; ++k) {
            if (k >= 10) w.set_string(0, k % 2 ? "x" : "y");
            w.end_row();
        }
        w.commit();
    }
    auto file = ParquetFile::open(path);
    EXPECT_TRUE(file->metadata().row_groups[0].columns[0].meta->dictionary_page_offset.has_value());
    TableReader r({path}, {"s"});
    int k = 0;
    while (r.next()) {
        EXPECT_EQ(r.column(0)->is_null(), k < 10);
        if (k >= 10) {
            EXPECT_EQ(r.column(0)->str(), k % 2 ? "x" : "y");
        }
        ++k;
    }
    EXPECT_EQ(k, 100);
    fs::remove(path);
}

TEST(ParquetWriter, AllNullColumnsAndLongRunsReadBack) {
    // Long runs of equal definition levels and dictionary indices are RLE
    // runs; short ones bit-packed: both, in one page.
    std::string path = temp_path("runs");
    std::vector<WriterColumn> cols = {{"v", ValueType::int64, true}, {"s", ValueType::string, true},
                                      {"never", ValueType::float64, true}};
    std::vector<int> pattern;
    for (int k = 0; k < 5000; ++k) pattern.push_back((k / 37) % 3 == 0 ? 0 : (k % 3 == 0 ? 1 : 2));
    {
        ParquetWriter w(path, cols);
        for (int k = 0; k < 5000; ++k) {
            if (pattern[k] != 0) {
                w.set_int64(0, k);
                w.set_string(1, pattern[k] == 1 ? "a" : "b");
            }
            w.end_row();
        }
        w.commit();
    }
    TableReader r({path}, {"v", "s", "never"});
    int k = 0;
    while (r.next()) {
        EXPECT_TRUE(r.column(2)->is_null());
        ASSERT_EQ(r.column(0)->is_null(), pattern[k] == 0) << "row " << k;
        if (pattern[k] != 0) {
            EXPECT_EQ(r.column(0)->i64(), k);
            EXPECT_EQ(r.column(1)->str(), pattern[k] == 1 ? "a" : "b");
        }
        ++k;
    }
    EXPECT_EQ(k, 5000);
    fs::remove(path);
}

TEST(ParquetWriter, ExtremeValuesAndEmptyStringsSurvive) {
    std::string path = temp_path("extremes");
    std::vector<WriterColumn> cols = {{"i", ValueType::int64, false}, {"d", ValueType::float64, false},
                                      {"s", ValueType::string, false}};
    const std::vector<int64_t> ints = {INT64_MIN, -1, 0, INT64_MAX};
    const std::vector<double> reals = {-INFINITY, -0.0, 1e-300, INFINITY};
    const std::vector<std::string> strs = {"", std::string("nul\0byte", 8), "\xc3\xa9t\xc3\xa9", ""};
    {
        ParquetWriter w(path, cols);
        for (size_t k = 0; k < ints.size(); ++k) {
            w.set_int64(0, ints[k]);
            w.set_double(1, reals[k]);
            w.set_string(2, strs[k]);
            w.end_row();
        }
        w.commit();
    }
    TableReader r({path}, {"i", "d", "s"});
    size_t k = 0;
    while (r.next()) {
        EXPECT_EQ(r.column(0)->i64(), ints[k]);
        EXPECT_EQ(r.column(1)->f64(), reals[k]);
        EXPECT_EQ(std::string(r.column(2)->str()), strs[k]);
        ++k;
    }
    EXPECT_EQ(k, ints.size());
    fs::remove(path);
}

// The first pages repeat 50 names (a dictionary); then 120,000 distinct ones
// overflow it (65,536 entries): those pages are PLAIN, in the same chunk, and
// every value reads back.  With two lanes the pages interleave in the order
// they fill, but a chunk holds them lane by lane: PLAIN pages of lane 0 come
// before dictionary pages of lane 1.
TEST(ParquetWriter, ADictionaryThatOutgrowsItsLimitGoesOnInPlainPages) {
    WriterOptions o;
    o.page_values = 1000;
    o.row_group_rows = 200000;
    const int n = 140000;
    auto value = [](int k) { return k < 20000 ? "n" + std::to_string(k % 50) : "u" + std::to_string(k); };
    for (int lanes : {1, 2}) {
        std::string path = temp_path("overflow" + std::to_string(lanes));
        {
            ParquetWriter w(path, {{"s", ValueType::string, false}}, o);
            for (int k = 0; k < n; ++k) {
                w.lane(static_cast<size_t>(k % lanes));
                w.set_string(0, value(k));
                w.end_row();
            }
            w.commit();
        }
        auto file = ParquetFile::open(path);
        const ColumnMetaData& m = *file->metadata().row_groups[0].columns[0].meta;
        EXPECT_TRUE(m.dictionary_page_offset.has_value());
        EXPECT_NE(std::find(m.encodings.begin(), m.encodings.end(), Encoding::plain), m.encodings.end());
        TableReader r({path}, {"s"});
        int at = 0;
        while (r.next()) {
            int k = lanes == 1 ? at : at < n / 2 ? 2 * at : 2 * (at - n / 2) + 1;
            ASSERT_EQ(std::string(r.column(0)->str()), value(k)) << lanes << " lanes, row " << at;
            ++at;
        }
        EXPECT_EQ(at, n);
        fs::remove(path);
    }
}

// Readers prune row groups by the footer's min/max, so they must be each
// chunk's true extremes.  A string's are taken as it enters the dictionary
// (a value already in it is not compared again) or, in a PLAIN page, value by
// value: this covers a dictionary chunk whose extremes arrive on later pages,
// and one that overflows mid-page (the page's values before the overflow
// went into the dictionary, those after did not, nor the later PLAIN pages').
TEST(ParquetWriter, StatisticsAreEachChunksTrueMinMaxAndNullCount) {
    std::string path = temp_path("stats");
    WriterOptions o;
    o.page_values = 100;
    o.row_group_rows = 1500;
    const int n = 4000;
    // "dict": few values, the smallest ("a00") and largest ("zz") only late in
    // each row group.  "over": its first page repeats three values (so the
    // chunk is dictionary-encoded), then every row is a distinct 9 KB value:
    // 465 of them fill the dictionary's 4 MiB at row 565, in the middle of
    // the page of rows 500-599, and the chunk's extremes come right after
    // that, at rows 580 (max) and 590 (min).  "num": int64.
    auto dict = [](int k) {
        int r = k % 1500;
        return r == 1234 ? std::string("a00") : r == 1300 ? std::string("zz") : "m" + std::to_string(k % 7);
    };
    auto over = [](int k) {
        int r = k % 1500;
        std::string tail(9000, 'y');
        if (r < 100) return "v" + std::string(1, static_cast<char>('A' + r % 3));
        char digits[8];
        std::snprintf(digits, sizeof digits, "%06d", r);
        return (r == 580 ? "w" : r == 590 ? "u" : "v") + std::string(digits) + tail;
    };
    auto null_here = [](int k) { return k % 11 == 5; };
    {
        ParquetWriter w(path, {{"dict", ValueType::string, true}, {"over", ValueType::string, false},
                               {"num", ValueType::int64, true}}, o);
        for (int k = 0; k < n; ++k) {
            if (!null_here(k)) w.set_string(0, dict(k));
            w.set_string(1, over(k));
            if (!null_here(k)) w.set_int64(2, (k * 7919) % 5003 - 2500);
            w.end_row();
        }
        w.commit();
    }
    auto file = ParquetFile::open(path);
    const auto& groups = file->metadata().row_groups;
    ASSERT_EQ(groups.size(), 3u);
    for (size_t g = 0; g < groups.size(); ++g) {
        int from = static_cast<int>(g) * 1500, to = std::min(n, from + 1500);
        std::string dmin = "~", dmax, omin = "~", omax;
        int64_t nmin = INT64_MAX, nmax = INT64_MIN, nulls = 0;
        for (int k = from; k < to; ++k) {
            omin = std::min(omin, over(k));
            omax = std::max(omax, over(k));
            if (null_here(k)) {
                ++nulls;
                continue;
            }
            dmin = std::min(dmin, dict(k));
            dmax = std::max(dmax, dict(k));
            int64_t v = (k * 7919) % 5003 - 2500;
            nmin = std::min(nmin, v);
            nmax = std::max(nmax, v);
        }
        const ColumnMetaData& d = *groups[g].columns[0].meta;
        const ColumnMetaData& ov = *groups[g].columns[1].meta;
        const ColumnMetaData& nm = *groups[g].columns[2].meta;
        EXPECT_EQ(d.min_value, dmin) << "row group " << g;
        EXPECT_EQ(d.max_value, dmax) << "row group " << g;
        EXPECT_EQ(d.null_count, nulls) << "row group " << g;
        // Longer than statistics keep: a cut below the least, and a cut
        // raised above the greatest, each marked as a bound.
        ASSERT_GT(omin.size(), nx::parquet::kStatBytes);
        EXPECT_EQ(ov.min_value, omin.substr(0, nx::parquet::kStatBytes)) << "row group " << g;
        EXPECT_EQ(ov.max_value, nx::parquet::upper_bound_of(omax)) << "row group " << g;
        EXPECT_LT(omax, *ov.max_value) << "row group " << g;
        EXPECT_EQ(ov.min_value_exact, false);
        EXPECT_EQ(ov.max_value_exact, false);
        EXPECT_FALSE(d.min_value_exact.has_value());
        EXPECT_EQ(ov.null_count, 0) << "row group " << g;
        int64_t lo = 0, hi = 0;
        ASSERT_TRUE(nm.min_value && nm.min_value->size() == 8 && nm.max_value && nm.max_value->size() == 8);
        std::memcpy(&lo, nm.min_value->data(), 8);
        std::memcpy(&hi, nm.max_value->data(), 8);
        EXPECT_EQ(lo, nmin) << "row group " << g;
        EXPECT_EQ(hi, nmax) << "row group " << g;
    }
    // Each "over" chunk has its dictionary and, after it filled, PLAIN pages.
    for (const RowGroup& g : groups) {
        const ColumnMetaData& m = *g.columns[1].meta;
        EXPECT_TRUE(m.dictionary_page_offset.has_value());
        EXPECT_NE(std::find(m.encodings.begin(), m.encodings.end(), Encoding::plain), m.encodings.end());
    }
    fs::remove(path);
}

// Lanes: rows come interleaved (row k to lane k % 3, as a dataset's events
// come from several tracks), and each row group holds lane 0's rows, then
// lane 1's, then lane 2's, each in the order they came.  Pages of four rows
// make every lane encode pages while the others fill theirs, and row groups
// of 50 rows end mid-lane; the dictionary of "name" is shared by the lanes'
// pages of a chunk, and a lane's page of a string column may end early.
TEST(ParquetWriter, LanesKeepEachLanesRowsTogetherInEveryRowGroup) {
    std::string path = temp_path("lanes");
    WriterOptions o;
    o.page_values = 4;
    o.row_group_rows = 50;
    o.sorted_by = {1};
    const int64_t n = 230;
    {
        ParquetWriter w(path, kColumns, o);
        for (int64_t k = 0; k < n; ++k) {
            w.lane(static_cast<size_t>(k % 3));
            w.set_int64(0, k);
            w.set_int32(1, static_cast<int32_t>(k % 3));
            if (!null_at(k)) w.set_string(5, name_of(k));
            w.set_string(6, text_of(k));
            w.end_row();
        }
        w.commit();
    }
    // The expected order: each row group's 50 rows (the last one's 30), by lane.
    std::vector<int64_t> want;
    for (int64_t first = 0; first < n; first += 50) {
        for (int64_t lane = 0; lane < 3; ++lane)
            for (int64_t k = first; k < std::min(first + 50, n); ++k)
                if (k % 3 == lane) want.push_back(k);
    }
    TableReader r({path}, {"id", "i32", "name", "text"});
    size_t at = 0;
    while (r.next()) {
        ASSERT_LT(at, want.size());
        int64_t k = want[at++];
        ASSERT_EQ(r.column(0)->i64(), k) << "row " << at - 1;
        EXPECT_EQ(r.column(1)->i64(), k % 3);
        EXPECT_EQ(r.column(2)->is_null(), null_at(k));
        if (!null_at(k)) {
            EXPECT_EQ(r.column(2)->str(), name_of(k));
        }
        EXPECT_EQ(r.column(3)->str(), text_of(k));
    }
    EXPECT_EQ(at, want.size());
    auto file = ParquetFile::open(path);
    ASSERT_EQ(file->metadata().row_groups.size(), 5u);
    for (const RowGroup& g : file->metadata().row_groups) {
        EXPECT_EQ(g.sorted_by, std::vector<int32_t>{1});
        // Every column chunk counts all its values, whichever lane's pages
        // hold them (readers that go by the count stop there).
        for (const ColumnChunk& c : g.columns) EXPECT_EQ(c.meta->num_values, g.num_rows);
    }
    fs::remove(path);
}

// One lane, as every table but the events' is written: a chunk of several
// pages, one of them a string column's ended early by page_bytes, and a
// row group of an exact number of pages, count every value.
TEST(ParquetWriter, EveryChunkCountsTheValuesOfAllItsPages) {
    std::string path = temp_path("num_values");
    WriterOptions o;
    o.page_values = 100;
    o.page_bytes = 2000;
    o.row_group_rows = 700;
    {
        ParquetWriter w(path, kColumns, o);
        write_rows(w, 1600);
        w.commit();
    }
    auto file = ParquetFile::open(path);
    ASSERT_EQ(file->metadata().row_groups.size(), 3u);
    for (const RowGroup& g : file->metadata().row_groups)
        for (const ColumnChunk& c : g.columns) EXPECT_EQ(c.meta->num_values, g.num_rows);
    expect_rows(path, 1600);
    fs::remove(path);
}

// A caller whose next row would break the order ends the row group first;
// one that cannot says so, and that row group makes no claim.  A lane used
// by no row of a group costs it nothing.
TEST(ParquetWriter, EndGroupAndGroupUnsortedAreWhatTheFooterSays) {
    std::string path = temp_path("groups");
    WriterOptions o;
    o.sorted_by = {0};
    {
        ParquetWriter w(path, {{"id", ValueType::int64, false}}, o);
        auto row = [&](size_t lane, int64_t v) {
            w.lane(lane);
            w.set_int64(0, v);
            w.end_row();
        };
        row(0, 1), row(1, 5), row(0, 2);
        w.end_group();
        w.end_group();  // nothing since: no empty row group
        EXPECT_EQ(w.row_groups(), 1u);
        row(1, 0), row(5, 9);
        w.group_unsorted();
        row(0, 3);
        w.commit();
    }
    auto file = ParquetFile::open(path);
    const auto& groups = file->metadata().row_groups;
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].num_rows, 3);
    EXPECT_EQ(groups[0].sorted_by, std::vector<int32_t>{0});
    EXPECT_EQ(groups[1].num_rows, 3);
    EXPECT_TRUE(groups[1].sorted_by.empty());
    TableReader r({path}, {"id"});
    std::vector<int64_t> got;
    while (r.next()) got.push_back(r.column(0)->i64());
    EXPECT_EQ(got, (std::vector<int64_t>{1, 2, 5, 3, 0, 9}));
    fs::remove(path);
}

// Many lanes of a few rows each (a profile's many small tracks) share their
// pages: the file is about the size of the same rows in one lane, not a page
// per lane and column.  And past lanes_bytes, every lane's page is encoded
// and its memory freed, the rows all still there in lane order.
TEST(ParquetWriter, SmallLanesShareAPageAndTheLanesMemoryIsBounded) {
    auto write = [](const std::string& path, size_t lanes, int64_t lanes_bytes) {
        WriterOptions o;
        o.page_values = 4096;
        o.lanes_bytes = lanes_bytes;
        ParquetWriter w(path, kColumns, o);
        for (int64_t k = 0; k < 3000; ++k) {
            w.lane(static_cast<size_t>(k) % lanes);
            w.set_int64(0, k);
            w.set_string(5, name_of(k));
            w.set_string(6, text_of(k));
            w.end_row();
        }
        w.commit();
        return fs::file_size(path);
    };
    std::string one = temp_path("one_lane"), many = temp_path("many_lanes"), tight = temp_path("tight_lanes");
    auto one_bytes = write(one, 1, int64_t{16} << 20);
    auto many_bytes = write(many, 1000, int64_t{16} << 20);
    EXPECT_LT(many_bytes, one_bytes * 12 / 10) << "one lane " << one_bytes << " bytes, 1000 lanes " << many_bytes;
    write(tight, 1000, 4096);
    for (const std::string& path : {many, tight}) {
        TableReader r({path}, {"id", "name"});
        int64_t at = 0;
        while (r.next()) {
            // Lane L holds L, L + 1000, L + 2000.
            int64_t want = (at % 3) * 1000 + at / 3;
            ASSERT_EQ(r.column(0)->i64(), want) << path << " row " << at;
            EXPECT_EQ(r.column(1)->str(), name_of(want));
            ++at;
        }
        EXPECT_EQ(at, 3000) << path;
        fs::remove(path);
    }
    fs::remove(one);
}

TEST(ParquetWriter, AWriterNotCommittedLeavesNothing) {
    std::string path = temp_path("abandoned");
    fs::remove(path);
    {
        ParquetWriter w(path, kColumns);
        write_rows(w, 10);
    }
    EXPECT_FALSE(fs::exists(path));
    for (const auto& e : fs::directory_iterator(testing::TempDir()))
        EXPECT_EQ(e.path().filename().string().find("nx_writer_abandoned"), std::string::npos) << e.path();
}

// Rows k in [from, from + m) a column at a time, as write_rows() sets them.
void put_rows(ParquetWriter& w, int64_t from, size_t m) {
    std::vector<int64_t> id(m);
    std::vector<int32_t> i32(m);
    std::vector<double> f64(m);
    std::vector<float> f32(m);
    std::vector<uint8_t> b(m), present(m);
    std::vector<std::string> names(m), texts(m);
    std::vector<std::string_view> name(m), text(m);
    for (size_t j = 0; j < m; ++j) {
        int64_t k = from + static_cast<int64_t>(j);
        id[j] = k * 1000 - 5;
        present[j] = !null_at(k);
        i32[j] = static_cast<int32_t>(-k);
        f64[j] = k * 0.5;
        f32[j] = static_cast<float>(k) / 4.0f;
        b[j] = k % 2 == 0;
        names[j] = name_of(k);
        texts[j] = text_of(k);
        name[j] = names[j];
        text[j] = texts[j];
    }
    w.begin_rows(m);
    w.put_string(6, text.data());
    w.put_int64(0, id.data());
    w.put_int32(1, i32.data(), present.data());
    w.put_double(2, f64.data(), present.data());
    w.put_float(3, f32.data(), present.data());
    w.put_bool(4, b.data(), present.data());
    w.put_string(5, name.data(), present.data());
    w.end_rows();
}

// Rows a column at a time make the file row by row makes, byte for byte:
// runs of every length up to where the lane's page or the row group ends,
// in one lane and in three; a string column's page ended by page_bytes in
// the middle of a run.
TEST(ParquetWriter, RowsAColumnAtATimeMakeTheSameFileAsRowByRow) {
    struct Case {
        int64_t page_values, row_group_rows, page_bytes;
        size_t lanes;
    };
    for (Case c : {Case{300, 1000, int64_t{1} << 20, 1}, Case{4, 50, 256, 1}, Case{64, 700, 256, 3},
                   Case{7, 100000, 100, 3}}) {
        SCOPED_TRACE(std::to_string(c.page_values) + " " + std::to_string(c.row_group_rows) + " " +
                     std::to_string(c.page_bytes) + " " + std::to_string(c.lanes));
        WriterOptions o;
        o.page_values = c.page_values;
        o.row_group_rows = c.row_group_rows;
        o.page_bytes = c.page_bytes;
        const int64_t n = 2500;
        std::string by_row = temp_path("by_row"), by_column = temp_path("by_column");
        // Lane of row k: runs of 37 rows take turns.
        auto lane_of = [&](int64_t k) { return static_cast<size_t>((k / 37) % static_cast<int64_t>(c.lanes)); };
        {
            ParquetWriter w(by_row, kColumns, o);
            for (int64_t k = 0; k < n; ++k) {
                w.lane(lane_of(k));
                write_rows_from(w, k, 1);
            }
            w.commit();
        }
        {
            ParquetWriter w(by_column, kColumns, o);
            const size_t runs[] = {1, 5, 37, 2, 300, 64, 9};
            size_t r = 0;
            for (int64_t k = 0; k < n;) {
                w.lane(lane_of(k));
                int64_t lane_end = (k / 37 + 1) * 37;
                size_t m = std::min({runs[r++ % 7], static_cast<size_t>(std::min(n, lane_end) - k), w.rows_to_boundary()});
                put_rows(w, k, m);
                k += static_cast<int64_t>(m);
            }
            w.commit();
        }
        std::ifstream a(by_row, std::ios::binary), b(by_column, std::ios::binary);
        std::string x((std::istreambuf_iterator<char>(a)), {}), y((std::istreambuf_iterator<char>(b)), {});
        EXPECT_GT(x.size(), 1000u);
        EXPECT_TRUE(x == y) << by_row << " (" << x.size() << " bytes) and " << by_column << " (" << y.size()
                            << " bytes) differ";
        fs::remove(by_row);
        fs::remove(by_column);
    }
}

TEST(ParquetWriter, RowsAColumnAtATimeRefuseMisuse) {
    std::string path = temp_path("misuse_rows");
    WriterOptions o;
    o.page_values = 10;
    ParquetWriter w(path, kColumns, o);
    EXPECT_EQ(w.rows_to_boundary(), 10u);
    EXPECT_THROW(w.begin_rows(11), nx::Error);  // past the page
    EXPECT_THROW(w.begin_rows(0), nx::Error);
    const int64_t ids[2] = {1, 2};
    EXPECT_THROW(w.put_int64(0, ids), nx::Error);  // no begin_rows
    w.begin_rows(2);
    EXPECT_THROW(w.begin_rows(2), nx::Error);
    EXPECT_THROW(w.end_row(), nx::Error);
    EXPECT_THROW(w.lane(1), nx::Error);
    const uint8_t some_null[2] = {1, 0};
    EXPECT_THROW(w.put_int64(0, ids, some_null), nx::Error);  // a required column's null
    EXPECT_THROW(w.put_double(0, nullptr), nx::Error);        // of another type
    w.put_int64(0, ids);
    EXPECT_THROW(w.put_int64(0, ids), nx::Error);  // twice
    EXPECT_THROW(w.end_rows(), nx::Error);         // the required text unset
    // Row by row does not mix in: a column a value short, a group half filled.
    EXPECT_THROW(w.set_int32(1, 7), nx::Error);
    EXPECT_THROW(w.set_string(5, "x"), nx::Error);
    EXPECT_THROW(w.set_null(2), nx::Error);
    EXPECT_THROW(w.end_group(), nx::Error);
    EXPECT_THROW(w.commit(), nx::Error);
    const std::string_view texts[2] = {"a", ""};
    w.put_string(6, texts);
    w.end_rows();
    EXPECT_EQ(w.rows(), 2);
    EXPECT_EQ(w.rows_to_boundary(), 8u);
    EXPECT_THROW(w.end_rows(), nx::Error);
}

TEST(ParquetWriter, ABooleanPutAsAnyNonZeroByteIsStoredAsSetBoolStoresTrue) {
    const std::vector<WriterColumn> cols = {{"b", ValueType::boolean, true}};
    std::string by_row = temp_path("bool_row"), by_column = temp_path("bool_column");
    {
        ParquetWriter w(by_row, cols);
        for (bool v : {true, false, true}) {
            w.set_bool(0, v);
            w.end_row();
        }
        w.commit();
    }
    {
        ParquetWriter w(by_column, cols);
        const uint8_t v[3] = {2, 0, 255};
        w.begin_rows(3);
        w.put_bool(0, v);
        w.end_rows();
        w.commit();
    }
    std::ifstream a(by_row, std::ios::binary), b(by_column, std::ios::binary);
    std::string x((std::istreambuf_iterator<char>(a)), {}), y((std::istreambuf_iterator<char>(b)), {});
    EXPECT_TRUE(x == y);
    fs::remove(by_row);
    fs::remove(by_column);
}

TEST(ParquetWriter, MisuseIsAnErrorNotACorruptFile) {
    std::string path = temp_path("misuse");
    ParquetWriter w(path, kColumns);
    EXPECT_THROW(w.set_string(0, "not an int"), nx::Error);
    w.set_int64(0, 1);
    EXPECT_THROW(w.set_int64(0, 2), nx::Error);  // twice in a row
    w.set_string(6, "t");
    w.end_row();
    EXPECT_THROW(w.end_row(), nx::Error);  // required columns unset
    EXPECT_THROW(ParquetWriter(temp_path("none"), {}), nx::Error);
}

}  // namespace
