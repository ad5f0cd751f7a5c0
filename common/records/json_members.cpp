// Writing keys, text and carried members of records, and finding carried
// arrays (json_members.h).
#include "common/records/json_members.h"

namespace nx {

void write_key(JsonWriter& w, std::string_view key) {
    w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
}

void write_text(JsonWriter& w, std::string_view text) {
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

void write_other_members(JsonWriter& w, const rapidjson::Value& obj, const OwnMember& own) {
    for (auto& m : obj.GetObject()) {
        std::string_view name(m.name.GetString(), m.name.GetStringLength());
        if (own(name)) continue;
        write_key(w, name);
        m.value.Accept(w);
    }
}

std::string other_members_json(const rapidjson::Value& obj, const OwnMember& own) {
    rapidjson::StringBuffer sb;
    JsonWriter w(sb);
    w.StartObject();
    write_other_members(w, obj, own);
    w.EndObject();
    // "{}": nothing is carried.
    return sb.GetSize() > 2 ? std::string(sb.GetString(), sb.GetSize()) : std::string();
}

const rapidjson::Value* carried_array(std::string_view carried_json, const char* name, rapidjson::Document& doc) {
    // Most records carry no such member: look for its quoted name before
    // parsing.
    if (carried_json.find("\"" + std::string(name) + "\"") == std::string_view::npos) return nullptr;
    doc.Parse(carried_json.data(), carried_json.size());
    if (doc.HasParseError() || !doc.IsObject()) return nullptr;
    auto it = doc.FindMember(name);
    return it != doc.MemberEnd() && it->value.IsArray() ? &it->value : nullptr;
}

}  // namespace nx
