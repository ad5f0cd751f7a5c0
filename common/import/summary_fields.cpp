#include "common/import/summary_fields.h"

#include "common/import/importer.h"
#include "common/records/jsonl.h"

namespace nx {

std::string summary_fields_json(const rapidjson::Value& summary) {
    std::string ids = "{";
    for (auto& m : summary.GetObject()) {
        std::string_view k(m.name.GetString(), m.name.GetStringLength());
        if (m.value.IsNull() || (m.value.IsNumber() && !is_identifier_field(k))) continue;
        if (ids.size() > 1) ids += ",";
        ids += json_quote(k) + ":" + to_json(m.value);
    }
    return ids.size() > 1 ? ids + "}" : "";
}

}  // namespace nx
