// A streaming (SAX) reader for the JSON shapes profile tools write:
//
//   {"section": [ {record}, {record}, ... ], "other": {record}, "key": scalar}
//   [ {record}, {record}, ... ]                       (bare array: section "")
//
// For each record it fills typed slots for the fields the format knows (by a
// field id the format chooses) and writes every other field, nested values
// included, into an "args" JSON object, so unknown fields are kept without
// being parsed twice.  Memory is bounded by the largest single record.
#pragma once

#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/io/input.h"

namespace nx {

struct Slot {
    enum Kind : uint8_t { none, integer, unsigned_big, real, string, boolean, null, json };
    Kind kind = none;
    int64_t i = 0;      // integer (also set for unsigned values that fit)
    uint64_t u = 0;     // unsigned_big: above INT64_MAX
    double d = 0;       // real (and integer/unsigned as double)
    bool b = false;
    std::string s;      // string text, or JSON text of a nested value (json); with
                        // RecordFormat::numbers_as_text, a number's text as written

    bool present() const { return kind != none && kind != null; }
    bool is_number() const { return kind == integer || kind == unsigned_big || kind == real; }
};

// What a format tells the reader.
class RecordFormat {
public:
    virtual ~RecordFormat() = default;
    enum class SectionMode { records, carry, skip };
    // How to treat the value of top-level key `section` ("" for a bare array).
    // Asked as the value starts, so before field_id for any of its records.
    virtual SectionMode section_mode(std::string_view section) = 0;
    // Slot index (0..kMaxSlots-1) for a known field of a record of `section`,
    // -1 to put the field into args, or kSkipField to drop it unread (a
    // pass that needs only some fields).
    virtual int field_id(std::string_view section, std::string_view key) = 0;
    // What the reader asks: field_id, for formats that also look at the
    // slots the record's earlier fields filled (a pass that needs a field of
    // some records only).  Such a format says so in keys_by_slots().
    virtual int field_id_after(std::string_view section, std::string_view key, const std::vector<Slot>& filled) {
        (void)filled;
        return field_id(section, key);
    }
    // False: field_id_after answers the same for a section's key whatever
    // the record holds, so the reader asks once per key and position and
    // keeps the answer while the section's records repeat their keys.
    virtual bool keys_by_slots() const { return false; }
    // A complete record.  `args_json` is "{...}" or empty when there were no
    // other fields.  `line` is where the record starts.  `error` is set when
    // the record was malformed structurally (invalid UTF-8...).
    virtual void record(std::string_view section, const std::vector<Slot>& slots, std::string_view args_json,
                        int64_t line, const std::string& error) = 0;
    // A carried top-level value (SectionMode::carry), or a top-level scalar
    // of a records section, as JSON text.
    virtual void carried(std::string_view /*section*/, std::string_view /*json*/) {}
    // The top-level container started ('{' or '[').
    virtual void top_level(bool /*is_object*/) {}
    // True: number slots also keep the number's source text in Slot::s, so
    // a format can convert decimals exactly (Chrome's fractional µs).
    virtual bool numbers_as_text() const { return false; }
};

// Runs the reader over the whole input.  Throws Error(where, line) on a JSON
// syntax error, an empty input, or a top-level value that is neither an object
// nor an array.
void read_records(InputSource& in, RecordFormat& format, size_t slot_count);

// Largest field id a format may use.
constexpr size_t kMaxSlots = 32;
// RecordFormat::field_id: neither a slot nor args.
constexpr int kSkipField = -2;

}  // namespace nx
