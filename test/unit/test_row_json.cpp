// RowJson (common/parquet/row_json.h) against rapidjson::Writer: the args of
// Explorer events must keep their exact text now that they are written
// without a Writer.  The reference below is how the importer wrote values
// before; rows come from the Parquet fixtures (run from the repository root,
// as test/run does), so every physical type, encoding, list layout and the
// float extremes go through both.
#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/io/utf8.h"
#include "common/parquet/row_json.h"
#include "common/parquet/table_reader.h"

namespace {

using nx::parquet::ColumnCursor;
using nx::parquet::PhysicalType;
using nx::parquet::RowJson;
using nx::parquet::TableReader;
using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

const std::string kFixtures = "test/fixtures/parquet/";

std::string writer_string(std::string_view s) {
    rapidjson::StringBuffer b;
    Writer w(b);
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    return b.GetString();
}

void ref_string(Writer& w, std::string_view s, bool text) {
    if (text && nx::is_valid_utf8(s)) {
        w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
        return;
    }
    std::string h = nx::hex_bytes(s);
    w.String(h.c_str(), static_cast<rapidjson::SizeType>(h.size()));
}

void ref_real(Writer& w, double v) {
    if (std::isfinite(v)) w.Double(v);
    else w.Null();
}

void ref_value(Writer& w, const ColumnCursor& c) {
    bool text = c.info().is_string || c.info().type == PhysicalType::byte_array;
    if (c.info().is_list) {
        w.StartArray();
        for (size_t k = 0; k < c.list_size(); ++k) {
            if (c.element_null(k)) w.Null();
            else if (c.holds_integers() && c.is_unsigned()) w.Uint64(c.element_u64(k));
            else if (c.holds_integers()) w.Int64(c.element_i64(k));
            else if (c.holds_reals()) ref_real(w, c.element_f64(k));
            else ref_string(w, c.element_str(k), text);
        }
        w.EndArray();
    } else if (c.holds_integers()) {
        if (c.info().type == PhysicalType::boolean) w.Bool(c.i64() != 0);
        else if (c.is_unsigned()) w.Uint64(c.u64());
        else w.Int64(c.i64());
    } else if (c.holds_reals()) {
        ref_real(w, c.f64());
    } else {
        ref_string(w, c.str(), text);
    }
}

// The non-null columns from `first` on, as the importer wrote them with a Writer.
std::string ref_row(const TableReader& r, size_t first) {
    rapidjson::StringBuffer b;
    Writer w(b);
    w.StartObject();
    size_t n = 0;
    for (size_t h = first; h < r.names().size(); ++h) {
        const ColumnCursor* c = r.column(h);
        if (!c || c->is_null()) continue;
        w.Key(r.names()[h].c_str(), static_cast<rapidjson::SizeType>(r.names()[h].size()));
        ref_value(w, *c);
        ++n;
    }
    w.EndObject();
    return n ? b.GetString() : "";
}

// Every row of `files` through RowJson and through the reference; returns the rows compared.
size_t compare_rows(const std::vector<std::string>& files) {
    TableReader r(files, {}, TableReader::Others::add);
    RowJson json(r.names());
    size_t rows = 0;
    while (r.next()) {
        for (size_t first : {size_t{0}, r.names().size() / 2}) {
            std::string want = ref_row(r, first);
            EXPECT_EQ(std::string(json.write(r, first)), want) << files[0] << " row " << rows << " from column " << first;
            if (std::string(json.write(r, first)) != want) return rows;
        }
        ++rows;
    }
    return rows;
}

TEST(RowJson, StringsAreEscapedAsRapidJsonWriterEscapesThem) {
    for (int b = 0; b < 256; ++b) {
        std::string s = "a";
        s += static_cast<char>(b);
        s += "z";
        std::string got;
        RowJson::append_string(got, s);
        EXPECT_EQ(got, writer_string(s)) << "byte " << b;
    }
    std::string mixed = std::string("tab\there \"q\" back\\slash\n\x01\x1f end \xc3\xa9 \xf0\x9f\x9a\x80");
    std::string got;
    RowJson::append_string(got, mixed);
    EXPECT_EQ(got, writer_string(mixed));
    got.clear();
    RowJson::append_string(got, "");
    EXPECT_EQ(got, "\"\"");
}

TEST(RowJson, EveryTypeEncodingAndListLayoutWritesWhatRapidJsonWriterWrites) {
    for (const char* f : {"encoding/arrowrs_plain_v1.parquet", "encoding/arrowrs_dict_v2.parquet",
                          "encoding/arrowrs_rle_bool_v1.parquet", "encoding/arrowrs_byte_stream_split_v2.parquet",
                          "encoding/arrowrs_delta_byte_array_v1.parquet", "encoding/handmade_legacy_list_2level.parquet",
                          "encoding/duckdb_v2_zstd.parquet", "encoding/duckdb_slices_v1_snappy.parquet",
                          "encoding/arrowrs_slices_delta_v2_zstd.parquet", "codec/duckdb_snappy_v1.parquet",
                          "encoding/duckdb_unsigned.parquet", "encoding/duckdb_unsigned_v2.parquet",
                          "encoding/arrowrs_unsigned_v2_snappy.parquet", "encoding/handmade_v2_empty_body.parquet"})
        EXPECT_GT(compare_rows({kFixtures + f}), 0u) << f;
}

TEST(RowJson, UnsignedIntegersAreExactUnsignedNumbers) {
    // Row 1 holds each type's maximum, row 4 a UBIGINT of 2^63 + 12345
    // (make.mjs): no sign, no rounding, whether written per row or from the
    // dictionary's rendered entries.
    for (const char* f : {"encoding/duckdb_unsigned.parquet", "encoding/arrowrs_unsigned_v2_snappy.parquet"}) {
        TableReader r({kFixtures + f}, {}, TableReader::Others::add);
        RowJson json(r.names());
        std::vector<std::string> rows;
        while (r.next()) rows.emplace_back(json.write(r, 0));
        ASSERT_GE(rows.size(), 5u) << f;
        EXPECT_EQ(rows[1], R"({"row_id":1,"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615})") << f;
        EXPECT_EQ(rows[4], R"({"row_id":4,"u8":200,"u16":40000,"u32":3000000000,"u64":9223372036854788153})") << f;
    }
}

TEST(RowJson, DictionaryEntriesAreNotReusedAcrossDictionaries) {
    // One table of two files (and, in the second, three row groups): each
    // chunk has its own dictionary, with the same column names.
    EXPECT_EQ(compare_rows({kFixtures + "encoding/arrowrs_slices_dict_v1_snappy.parquet",
                            kFixtures + "encoding/duckdb_slices_v1_snappy.parquet"}),
              2600u);
    EXPECT_EQ(compare_rows({kFixtures + "encoding/arrowrs_rowgroups_v1_snappy.parquet"}), 50u);
}

}  // namespace
