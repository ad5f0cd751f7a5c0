#include "common/convert/explain_sink.h"

#include <rapidjson/document.h>

#include <string>

#include "common/format/row_format.h"
#include "common/profile/profile_record.h"

namespace nx {

namespace {

// "  label      first\n             second\n..."
void block(std::string& out, const char* label, const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    std::string pad(13, ' ');
    std::string head = std::string("  ") + label;
    head.resize(13, ' ');
    for (size_t i = 0; i < lines.size(); ++i) out += (i == 0 ? head : pad) + terminal_text(lines[i], false) + "\n";
}

std::vector<std::string> strings(const rapidjson::Value& v) {
    std::vector<std::string> out;
    if (v.IsArray())
        for (const auto& s : v.GetArray())
            if (s.IsString()) out.emplace_back(s.GetString(), s.GetStringLength());
    return out;
}

}  // namespace

void ExplainSink::end_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    std::string out = terminal_text(info.source.empty() ? info.name : info.source, false) + ": " + info.format;
    rapidjson::Document carried = carried_document(info);
    auto schema = carried.FindMember("explorer_schema");
    if (schema == carried.MemberEnd() || !schema->value.IsObject()) {
        out += "\n";
        block(out, "notes", summary.notes);
        out_.write(out + "\n");
        return;
    }
    const rapidjson::Value& s = schema->value;
    auto member = [&](const char* key) -> const rapidjson::Value* {
        auto m = s.FindMember(key);
        return m == s.MemberEnd() ? nullptr : &m->value;
    };
    std::string version = member("schema_version") && member("schema_version")->IsString()
                              ? member("schema_version")->GetString()
                              : "";
    bool known = member("version_known") && member("version_known")->IsBool() && member("version_known")->GetBool();
    out += ", schema " + (version.empty() ? std::string("not given") : version) +
           (known ? "" : " (not one nx knows: 7.x, 12.x; read by the fields it names)") + "\n";
    std::vector<std::string> read, lacked, as_args, as_rows, left_out, unknown;
    if (const rapidjson::Value* used = member("used"); used && used->IsObject())
        for (const auto& table : used->GetObject()) {
            std::string line = std::string(table.name.GetString()) + ":";
            for (const auto& f : table.value.GetObject()) {
                std::string field = f.name.GetString(), actual = f.value.IsString() ? f.value.GetString() : "";
                line += " " + field + (actual == field ? "" : " (as " + actual + ")") + ",";
            }
            line.pop_back();
            read.push_back(line);
        }
    if (const rapidjson::Value* l = member("lacked"); l && l->IsArray())
        for (const auto& f : l->GetArray())
            if (f.IsObject() && f.HasMember("field") && f.HasMember("costs") && f["field"].IsString() && f["costs"].IsString())
                lacked.push_back(std::string(f["field"].GetString()) + ": no " + f["costs"].GetString());
    if (const rapidjson::Value* t = member("tables_left_out"); t && t->IsObject())
        for (const auto& f : t->GetObject())
            left_out.push_back(std::string(f.name.GetString()) + ": " + (f.value.IsString() ? f.value.GetString() : ""));
    if (const rapidjson::Value* u = member("unknown_values"); u && u->IsObject())
        for (const auto& v : u->GetObject()) {
            int64_t rows = v.value.IsObject() && v.value.HasMember("rows") && v.value["rows"].IsInt64() ? v.value["rows"].GetInt64() : 0;
            std::string kept = v.value.IsObject() && v.value.HasMember("kept") && v.value["kept"].IsString() ? v.value["kept"].GetString() : "";
            unknown.push_back(std::string(v.name.GetString()) + ": " + std::to_string(rows) + " rows, kept " + kept);
        }
    if (const rapidjson::Value* c = member("columns_kept_as_args"); c && c->IsObject())
        for (const auto& table : c->GetObject()) {
            std::string line = std::string(table.name.GetString()) + ":";
            for (const std::string& col : strings(table.value)) line += " " + col + ",";
            line.pop_back();
            as_args.push_back(line);
        }
    as_rows = member("tables_kept_as_rows") ? strings(*member("tables_kept_as_rows")) : std::vector<std::string>{};
    std::vector<std::string> units = member("units") ? strings(*member("units")) : std::vector<std::string>{};
    std::vector<std::string> retyped = member("retyped") ? strings(*member("retyped")) : std::vector<std::string>{};
    block(out, "read", read);
    block(out, "lacked", lacked);
    block(out, "not read", left_out);
    block(out, "units", units);
    block(out, "retyped", retyped);
    block(out, "unknown", unknown);
    block(out, "as args", as_args);
    if (!as_rows.empty()) {
        std::string line;
        for (const std::string& t : as_rows) line += (line.empty() ? "" : ", ") + t;
        block(out, "as rows", {line + " (the study database's explorer_<Table> views)"});
    }
    out_.write(out + "\n");
}

}  // namespace nx
