// JSON Lines: one JSON object per line, UTF-8, '\n'.
// JsonlReader streams records from an InputSource with their line numbers and
// keeps every field (unknown ones included) so tools can pass them through.
// json_* helpers write values with RapidJSON's Writer.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/io/input.h"

namespace nx {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

class JsonlReader {
public:
    explicit JsonlReader(InputSource& source);

    // Reads the next non-blank line into `doc`.  Returns false at end of input.
    // Throws Error("...", file, line) if the line is not a JSON object or is not
    // valid UTF-8.
    bool next(rapidjson::Document& doc);
    // Reads the next non-blank line's raw text (no parsing).  Returns false at end.
    bool next_line(std::string& line);

    int64_t line() const { return line_; }
    const std::string& name() const { return source_.name(); }

private:
    InputSource& source_;
    std::string buffer_;
    size_t pos_ = 0;
    bool eof_ = false;
    int64_t line_ = 0;
    std::string text_;
};

// JSON nested deeper than this many arrays/objects is refused wherever nx
// reads JSON: RapidJSON parses recursively, and 50k levels would overflow the
// stack.  Documented in nx(7) (LIMITS).
constexpr int kMaxJsonDepth = 256;
// The error text for JSON nested deeper than kMaxJsonDepth.
std::string json_depth_message();
// Whether `text` nests arrays/objects deeper than kMaxJsonDepth (brackets in
// strings do not count).  A cheap pre-check before a recursive DOM parse.
bool json_too_deep(std::string_view text);

// Parses one JSON text (a line) into doc; on failure throws Error naming
// where/line and the parser's complaint (nesting deeper than kMaxJsonDepth
// included).
void parse_json_object(rapidjson::Document& doc, std::string_view text, const std::string& where, int64_t line);

// Field access that tolerates absence and reports wrong types clearly.
const rapidjson::Value* find_member(const rapidjson::Value& obj, const char* key);
std::optional<std::string> get_string(const rapidjson::Value& obj, const char* key);
std::optional<double> get_number(const rapidjson::Value& obj, const char* key);
std::optional<int64_t> get_int(const rapidjson::Value& obj, const char* key);

// Value -> compact JSON text.
std::string to_json(const rapidjson::Value& v);
// A JSON string literal (quoted, escaped) for text.
std::string json_quote(std::string_view text);
// A JSON array of strings, and back: the strings of such a text (elements
// that are not strings, and a text that is not an array, give none).
std::string json_string_array(const std::vector<std::string>& strings);
std::vector<std::string> parse_json_string_array(std::string_view text);
// Writes a double the way records want it: integers without ".0", finite only
// (non-finite values become null).
void write_number(JsonWriter& w, double v);

}  // namespace nx
