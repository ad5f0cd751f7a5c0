// The report's view of system <-> device profile links (system_links.h).
#include "common/report/system_links.h"

#include <rapidjson/document.h>

#include "common/profile/profile_record.h"
#include "common/report/units.h"

namespace nx {

namespace {

std::string text_of(const rapidjson::Value& o, const char* key) {
    auto it = o.FindMember(key);
    if (it == o.MemberEnd()) return {};
    if (it->value.IsString()) return it->value.GetString();
    if (it->value.IsInt64()) return std::to_string(it->value.GetInt64());
    return {};
}

// The core's nc_exec_running span: {count, first_start_ns, last_end_ns}.
struct Exec {
    int64_t count = 0, first = 0, last = 0;
};
Exec exec_of(const rapidjson::Value& o) {
    Exec e;
    auto it = o.FindMember("nc_exec_running");
    if (it == o.MemberEnd() || !it->value.IsObject()) return e;
    const rapidjson::Value& x = it->value;
    auto num = [&](const char* k) {
        auto m = x.FindMember(k);
        return m != x.MemberEnd() && m->value.IsInt64() ? m->value.GetInt64() : 0;
    };
    e.count = num("count");
    e.first = num("first_start_ns");
    e.last = num("last_end_ns");
    return e;
}

std::string where_it_ran(const rapidjson::Value& o) {
    return "instance " + text_of(o, "instance_id") + ", process " + text_of(o, "process_id") + ", core " +
           text_of(o, "nc_id");
}

}  // namespace

void add_device_profiles(Document& doc, const ProfileInfo& info, int64_t profile_start_ns) {
    if (info.carried_json.find("\"device_profiles\"") == std::string::npos) return;
    rapidjson::Document d = carried_document(info);
    auto list = d.FindMember("device_profiles");
    if (list == d.MemberEnd() || !list->value.IsArray()) return;
    TableBlock t;
    t.columns = {"device profile", "ran on", "executions", "from", "for", "found at"};
    t.numeric = {false, false, true, true, true, false};
    for (const auto& p : list->value.GetArray()) {
        if (!p.IsObject()) continue;
        Exec e = exec_of(p);
        std::string path = text_of(p, "path");
        t.rows.push_back({text_of(p, "device_profile_name"), where_it_ran(p),
                          e.count ? format_count(static_cast<double>(e.count)) : "none",
                          e.count ? "+" + format_ns(static_cast<double>(e.first - profile_start_ns)) : "",
                          e.count ? format_ns(static_cast<double>(e.last - e.first)) : "",
                          path.empty() ? "not found below the system profile" : path});
    }
    doc.heading("Device profiles (DeviceProfileList; host time of each core's nc_exec_running)", 2);
    doc.table(t);
}

std::string system_profile_text(const ProfileInfo& info) {
    if (info.carried_json.find("\"system_profile\"") == std::string::npos) return {};
    rapidjson::Document d = carried_document(info);
    auto sp = d.FindMember("system_profile");
    if (sp == d.MemberEnd() || !sp->value.IsObject()) return {};
    std::string out = text_of(sp->value, "path") + " (" + where_it_ran(sp->value) + ")";
    Exec e = exec_of(sp->value);
    if (e.count)
        out += "; on the host from " + std::to_string(e.first) + " ns (Unix epoch) for " +
               format_ns(static_cast<double>(e.last - e.first));
    return out;
}

}  // namespace nx
