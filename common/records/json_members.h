// Writing a record's members with RapidJSON's Writer: keys and text given as
// string views, and the members a record carries through unchanged (those its
// writer or reader does not define itself), copied from one object to another
// and looked up in the carried text.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "common/records/jsonl.h"

namespace nx {

void write_key(JsonWriter& w, std::string_view key);
void write_text(JsonWriter& w, std::string_view text);

// Whether a member name is one the record defines itself (not carried).
using OwnMember = std::function<bool(std::string_view name)>;

// Writes each member of the object obj whose name is not own, as it is.
void write_other_members(JsonWriter& w, const rapidjson::Value& obj, const OwnMember& own);
// The members write_other_members writes, as a JSON object's text; empty when
// there are none.
std::string other_members_json(const rapidjson::Value& obj, const OwnMember& own);

// The array member `name` of the object carried_json holds, parsed into doc;
// null when the text is not such an object or has no such array.
const rapidjson::Value* carried_array(std::string_view carried_json, const char* name, rapidjson::Document& doc);

}  // namespace nx
