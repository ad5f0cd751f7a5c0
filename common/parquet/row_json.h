// Parquet rows as JSON objects: the args of imported events (every source
// column no mapping takes) and the rows of tables carried as they are.  This
// runs for every column of every row, so the per-value work is small: each
// key is quoted once, a dictionary entry is rendered once per dictionary
// (most wide-table columns are dictionary-encoded: engines, opcodes, sizes),
// numbers use RapidJSON's own itoa/dtoa without a Writer, and a null costs
// one test.  The text is byte for byte what rapidjson::Writer makes of the
// same values (test_row_json.cpp checks it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/parquet/column_cursor.h"
#include "common/parquet/table_reader.h"

namespace nx::parquet {

class RowJson {
public:
    // `names`: the reader's columns, in handle order.
    explicit RowJson(const std::vector<std::string>& names);

    // The non-null columns of the reader's current row from handle `first`
    // on, as one JSON object; empty when all are null.  Valid until the next
    // call.
    std::string_view write(const TableReader& reader, size_t first);

    // How a value is written: integers (BOOLEAN as true/false, except in
    // lists; unsigned ones as unsigned, exact to 2^64-1), reals (null when not finite), text as a JSON string, bytes
    // that are not UTF-8 text as a string of hex digits; lists as arrays.
    static void append_value(std::string& out, const ColumnCursor& c);
    // s as a JSON string, escaped as rapidjson::Writer escapes (control
    // characters, quote and backslash; other bytes as they are).
    static void append_string(std::string& out, std::string_view s);

private:
    // A column's quoted key and its rendered dictionary entries.
    struct Column {
        std::string key;              // ,"name":
        uint64_t dictionary = 0;      // whose entries `spans` holds
        std::vector<uint64_t> spans;  // entry -> offset << 24 | length in `text`; kUnset until rendered
        std::string text;             // rendered entries, each with the key before it
    };
    static constexpr uint64_t kUnset = ~uint64_t{0};
    // Dictionaries up to this size have their entries rendered once (a
    // cache as large as the dictionary); larger ones are written per row.
    static constexpr size_t kCachedEntries = 1 << 16;

    // out_ holds the object being written in its first n_ bytes.
    [[gnu::always_inline]] char* room(size_t n) {
        if (n_ + n > out_.size()) out_.resize(std::max(out_.size() * 2, n_ + n + 256));
        return out_.data() + n_;
    }
    // Short copies inline: keys and values are mostly a few dozen bytes,
    // where a memcpy call costs more than the copy.
    [[gnu::always_inline]] void put(const char* s, size_t n) {
        char* d = room(n);
        n_ += n;
        if (n >= 16 && n <= 32) {
            std::memcpy(d, s, 16);
            std::memcpy(d + n - 16, s + n - 16, 16);
        } else if (n >= 8 && n < 16) {
            std::memcpy(d, s, 8);
            std::memcpy(d + n - 8, s + n - 8, 8);
        } else if (n < 8) {
            for (size_t i = 0; i < n; ++i) d[i] = s[i];
        } else {
            std::memcpy(d, s, n);
        }
    }
    void put_value(const ColumnCursor& c);
    void put_dictionary_entry(Column& col, const ColumnCursor& c, bool fresh);

    std::vector<Column> columns_;
    std::string out_;
    size_t n_ = 0;
    std::string scratch_;
};

}  // namespace nx::parquet
