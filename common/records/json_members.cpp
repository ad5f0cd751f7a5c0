// Writing keys, text and carried members of records (json_members.h).
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

}  // namespace nx
