// The report's view of system <-> device profile links (system_links.h).
#include "common/report/system_links.h"

#include <rapidjson/document.h>

#include "common/profile/profile_record.h"
#include "common/format/units.h"

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

// "device time + 1763999000000399000 ns = host time (+-500 ns: ExecutionInfo's
// 95 us against flow 201's 95.5 us)", or why there is no alignment.
std::string alignment_text(const rapidjson::Value& o) {
    auto it = o.FindMember("host_alignment");
    if (it == o.MemberEnd() || !it->value.IsObject()) return {};
    const rapidjson::Value& a = it->value;
    auto off = a.FindMember("offset_ns");
    if (off == a.MemberEnd() || !off->value.IsInt64()) {
        std::string why = text_of(a, "why");
        return why.empty() ? std::string() : "not aligned to host time: " + why;
    }
    auto num = [&](const char* k) {
        auto m = a.FindMember(k);
        return m != a.MemberEnd() && m->value.IsInt64() ? m->value.GetInt64() : 0;
    };
    std::string out = "host time = device time + " + std::to_string(off->value.GetInt64()) + " ns (+-" +
                      format_ns(static_cast<double>(num("uncertainty_ns"))) + ": " + text_of(a, "device_duration_from") +
                      "'s " + format_ns(static_cast<double>(num("device_duration_ns"))) + " against the host's " +
                      format_ns(static_cast<double>(num("host_duration_ns")));
    if (std::string flow = text_of(a, "flow_id"); !flow.empty()) out += " (flow " + flow + ")";
    if (int64_t n = num("candidates"); n > 1) out += "; " + std::to_string(n) + " executions matched, the closest taken";
    return out + ")";
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
    t.columns = {"device profile", "ran on", "executions", "from", "for", "found at", "clock"};
    t.numeric = {false, false, true, true, true, false, false};
    for (const auto& p : list->value.GetArray()) {
        if (!p.IsObject()) continue;
        Exec e = exec_of(p);
        std::string path = text_of(p, "path");
        t.rows.push_back({text_of(p, "device_profile_name"), where_it_ran(p),
                          e.count ? format_count(static_cast<double>(e.count)) : "none",
                          e.count ? "+" + format_ns(static_cast<double>(e.first - profile_start_ns)) : "",
                          e.count ? format_ns(static_cast<double>(e.last - e.first)) : "",
                          path.empty() ? "not found below, beside or under the data path" : path, alignment_text(p)});
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
    if (std::string clock = alignment_text(sp->value); !clock.empty()) out += "; " + clock;
    return out;
}

}  // namespace nx
