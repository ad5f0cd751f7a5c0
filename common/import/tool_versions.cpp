#include "common/import/tool_versions.h"

#include "common/records/jsonl.h"

namespace nx {

void add_versions(const rapidjson::Value& obj, std::span<const VersionField> fields, std::string& versions) {
    if (!obj.IsObject()) return;
    for (const VersionField& f : fields) {
        auto it = obj.FindMember(rapidjson::Value(rapidjson::StringRef(f.field.data(), f.field.size())));
        if (it == obj.MemberEnd() || it->value.IsNull()) continue;
        std::string key = json_quote(f.name) + ":";
        if (versions.find(key) != std::string::npos) continue;
        versions += (versions.size() > 1 ? "," : "") + key + to_json(it->value);
    }
}

}  // namespace nx
