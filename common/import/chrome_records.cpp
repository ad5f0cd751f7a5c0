#include "common/import/chrome_records.h"

#include <rapidjson/document.h>

#include "common/import/slots.h"
#include "common/profile/event.h"

namespace nx::chrome {

namespace {

constexpr char kSep = '\x1f';  // between the parts of a flow key (not in ids or names people write)

std::string_view trim(std::string_view s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    size_t e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

// An id as flows use it: an integer's decimal digits or a string as written.
bool id_text(const rapidjson::Value& v, std::string& out) {
    if (v.IsInt64()) out = std::to_string(v.GetInt64());
    else if (v.IsUint64()) out = std::to_string(v.GetUint64());
    else if (v.IsString()) out.assign(v.GetString(), v.GetStringLength());
    else return false;
    return true;
}

bool parse_extra(std::string_view extra, rapidjson::Document& doc) {
    if (extra.empty()) return false;
    doc.Parse(extra.data(), extra.size());
    return !doc.HasParseError() && doc.IsObject();
}

}  // namespace

int field_id(std::string_view key) {
    // In Field's order: the name of each field.
    static constexpr std::string_view kNames[kFieldCount] = {"ph", "ts", "dur", "name", "cat", "pid", "tid", "args"};
    for (int f = 0; f < kFieldCount; ++f)
        if (key == kNames[f]) return f;
    return -1;
}

std::string thread_key(const std::vector<Slot>& s, std::string& scratch_pid, std::string& scratch_tid) {
    std::string key(slot_text(s[kPid], scratch_pid));
    key += '/';
    key += slot_text(s[kTid], scratch_tid);
    return key;
}

std::string_view pid_text(const std::vector<Slot>& s, std::string& scratch) { return slot_text(s[kPid], scratch); }

int64_t slot_id(const Slot& s) { return s.kind == Slot::integer ? s.i : kNoId; }

std::string decode_metadata(const std::vector<Slot>& s, Metadata& out) {
    out = {};
    std::string scratch;
    std::string_view what = slot_text(s[kName], scratch);
    Metadata::Kind kind = what == "thread_name" ? Metadata::thread_name
                          : what == "process_name" ? Metadata::process_name
                                                   : Metadata::none;
    if (kind == Metadata::none) return {};
    std::string error = "\"" + std::string(what) + "\" metadata without a string \"args\".\"name\"";
    if (s[kArgs].kind != Slot::json) return error;
    rapidjson::Document doc;
    doc.Parse(s[kArgs].s.c_str());
    if (doc.HasParseError() || !doc.IsObject()) return error;
    auto it = doc.FindMember("name");
    if (it == doc.MemberEnd() || !it->value.IsString()) return error;
    std::string_view name = trim(std::string_view(it->value.GetString(), it->value.GetStringLength()));
    if (name.empty()) return {};  // names nothing
    out.kind = kind;
    out.name.assign(name);
    return {};
}

std::string decode_flow_event(char phase, const std::vector<Slot>& s, std::string_view extra, FlowPoint& out) {
    out = {};
    out.role = phase == 's' ? FlowPoint::start : phase == 't' ? FlowPoint::step : FlowPoint::end;
    std::string scratch;
    out.category.assign(slot_text(s[kCat], scratch));
    out.name.assign(slot_text(s[kName], scratch));
    rapidjson::Document doc;
    bool has = parse_extra(extra, doc);
    std::string scope = "id";
    const rapidjson::Value* id = nullptr;
    if (has && doc.HasMember("id")) {
        id = &doc["id"];
    } else if (has && doc.HasMember("id2")) {
        const rapidjson::Value& id2 = doc["id2"];
        if (!id2.IsObject()) return "expected an object for \"id2\" in a flow event";
        if (id2.HasMember("global")) {
            id = &id2["global"];
            scope = "global";
        } else if (id2.HasMember("local")) {
            id = &id2["local"];
            scope = "local:" + std::string(pid_text(s, scratch));
        } else {
            return "\"id2\" without \"local\" or \"global\" in a flow event";
        }
    } else {
        return "flow event without an \"id\" (or \"id2\")";
    }
    if (!id_text(*id, out.id)) return "expected a whole number or a string for a flow event's id";
    // A flow start always binds to the slice around it; steps and ends to
    // the next slice that begins, unless bp is "e" (the enclosing slice).
    bool enclosing = phase == 's';
    if (has && doc.HasMember("bp") && doc["bp"].IsString() && std::string_view(doc["bp"].GetString()) == "e")
        enclosing = true;
    out.bind_next = !enclosing;
    out.scope = "1";
    for (const std::string* part : {&out.category, &out.name, &scope}) {
        out.scope += kSep;
        out.scope += *part;
    }
    return {};
}

std::string decode_bound_flows(std::string_view extra, std::vector<FlowPoint>& out) {
    out.clear();
    if (extra.find("\"bind_id\"") == std::string_view::npos) return {};
    rapidjson::Document doc;
    if (!parse_extra(extra, doc) || !doc.HasMember("bind_id")) return {};
    FlowPoint p;
    if (!id_text(doc["bind_id"], p.id)) return "expected a whole number or a string for \"bind_id\"";
    p.scope = "2";  // global, and not named: its slices have their own names
    auto flag = [&](const char* key) {
        auto it = doc.FindMember(key);
        return it != doc.MemberEnd() && it->value.IsBool() && it->value.GetBool();
    };
    // An arrow arriving here ends before one leaving starts.
    if (flag("flow_in")) {
        p.role = FlowPoint::end;
        out.push_back(p);
    }
    if (flag("flow_out")) {
        p.role = FlowPoint::start;
        out.push_back(p);
    }
    return {};
}

}  // namespace nx::chrome
