// The system-profile half of the Explorer importer (explorer_system.h):
// SystemProfileMetadata, SystemProfileEvents and DeviceProfileList, and the
// link from a device profile back to its system profile.
#include "common/import/explorer_system.h"

#include <algorithm>
#include <charconv>

#include "common/cli/diag.h"
#include "common/import/explorer_tables.h"
#include "common/io/error.h"
#include "common/records/jsonl.h"

namespace nx::explorer {

namespace {

// SystemProfileEvents with the columns nx reads by name.
struct SystemEventTable {
    enum { kStart, kEnd, kDur, kName, kSource, kPid, kTid, kNc, kInstance };
    SystemEventTable(const std::vector<std::string>& files, const SchemaFacts& facts)
        : table(files,
                {{"start_ts", Kind::integer, true}, {"end_ts", Kind::integer}, {"duration_ns", Kind::integer},
                 {"name", Kind::text, true}, {"trace_event_source", Kind::text}, {"process_id", Kind::integer},
                 {"thread_id", Kind::integer}, {"nc_idx", Kind::integer}, {"instance_id", Kind::text}},
                facts, "SystemProfileEvents", true) {}
    bool next() { return table.next(); }
    Table table;
};

// What ties a device profile to the system profile's events: the instance,
// process and logical core that ran it.
std::string exec_key(std::string_view instance, int64_t pid, int64_t nc) {
    return std::string(instance) + "/" + std::to_string(pid) + "/" + std::to_string(nc);
}

// The exec_key of an event row; empty when the row names no core.
std::string exec_key_of(const SystemEventTable& tab) {
    auto nc = tab.table.integer(SystemEventTable::kNc);
    if (!nc) return {};
    return exec_key(tab.table.text(SystemEventTable::kInstance),
                    tab.table.integer(SystemEventTable::kPid).value_or(kNoId), *nc);
}

struct DeviceRow {
    std::string name;      // device_profile_name
    std::string key;       // exec_key()
    std::string row_json;  // every column, as a JSON object
};

std::vector<DeviceRow> read_device_rows(const std::vector<std::string>& files, const SchemaFacts& facts) {
    Table tab(files, {{"device_profile_name", Kind::text, true}, {"instance_id", Kind::text}, {"process_id", Kind::integer},
                      {"nc_id", Kind::integer}},
              facts, "DeviceProfileList", true);
    std::vector<DeviceRow> out;
    while (tab.next())
        out.push_back({std::string(tab.text(0)),
                       exec_key(tab.text(1), tab.integer(2).value_or(kNoId), tab.integer(3).value_or(kNoId)),
                       tab.row_json()});
    return out;
}

// {"a":1} + "\"b\":2" -> {"a":1,"b":2}
std::string with_fields(const std::string& object, const std::string& fields) {
    if (object.size() < 2) return "{" + fields + "}";
    std::string out = object.substr(0, object.size() - 1);
    return out + (out.size() > 1 ? "," : "") + fields + "}";
}

std::string id_text(int64_t id) { return id == kNoId ? "?" : std::to_string(id); }

bool parse_int(std::string_view text, int64_t& out) {
    if (text.empty()) return false;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

void ExecSpans::add(const std::string& key, const Event& e) {
    if (key.empty()) return;
    Span& s = spans_[key];
    s.first = s.count ? std::min(s.first, e.ts_ns) : e.ts_ns;
    s.last = s.count ? std::max(s.last, e.ts_ns + e.dur_ns) : e.ts_ns + e.dur_ns;
    ++s.count;
}

std::string ExecSpans::json(const std::string& key) const {
    auto it = spans_.find(key);
    if (it == spans_.end()) return "\"nc_exec_running\":null";
    return "\"nc_exec_running\":{\"count\":" + std::to_string(it->second.count) +
           ",\"first_start_ns\":" + std::to_string(it->second.first) +
           ",\"last_end_ns\":" + std::to_string(it->second.last) + "}";
}

void read_system_metadata(const std::vector<std::string>& files, const SchemaFacts& facts, double& trace_seconds,
                          std::string& metadata_json) {
    Table tab(files, {{"first_ts_ns", Kind::text}, {"last_ts_ns", Kind::text}}, facts, "SystemProfileMetadata", true);
    if (!tab.next()) return;
    int64_t first = 0, last = 0;
    if (parse_int(tab.text(0), first) && parse_int(tab.text(1), last) && last > first)
        trace_seconds = static_cast<double>(last - first) / 1e9;
    metadata_json = tab.row_json();
}

void import_system_events(const std::vector<std::string>& files, const SchemaFacts& facts, ImportHandler& out,
                          ExecSpans& spans, const BadRow& bad) {
    SystemEventTable tab(files, facts);
    std::string track, process;
    while (tab.next()) {
        Event e;
        size_t column = 0;
        if (const char* why = row_interval(tab.table, SystemEventTable::kStart, SystemEventTable::kEnd,
                                           SystemEventTable::kDur, e, column)) {
            bad(tab.table, column, why);
            continue;
        }
        std::string_view source = tab.table.text(SystemEventTable::kSource);
        e.type = source == "framework" ? EventType::region : EventType::runtime;
        e.name = tab.table.text(SystemEventTable::kName);
        e.pid = tab.table.integer(SystemEventTable::kPid).value_or(kNoId);
        e.tid = tab.table.integer(SystemEventTable::kTid).value_or(kNoId);
        std::string_view instance = tab.table.text(SystemEventTable::kInstance);
        track = std::string(source.empty() ? "host" : source) + " pid " + id_text(e.pid) + " tid " + id_text(e.tid);
        process = "process " + id_text(e.pid) + (instance.empty() ? "" : " on " + std::string(instance));
        e.track = track;
        e.process = process;
        e.args_json = tab.table.other_args();
        if (e.name == "nc_exec_running") spans.add(exec_key_of(tab), e);
        out.event(e);
    }
}

std::string device_profiles_json(const std::vector<std::string>& files, const SchemaFacts& facts,
                                 const std::string& system_dir, const ExecSpans& spans) {
    std::map<std::string, std::string> found = linked_device_dirs(system_dir);
    std::string list = "[";
    std::vector<std::string> missing;
    for (DeviceRow& d : read_device_rows(files, facts)) {
        auto it = found.find(d.name);
        std::string path = it != found.end() ? json_quote(it->second) : "null";
        if (it == found.end()) missing.push_back(d.name);
        list += (list.size() > 1 ? "," : "") + with_fields(d.row_json, "\"path\":" + path + "," + spans.json(d.key));
    }
    if (!missing.empty()) {
        std::string names;
        for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
        print_warning("DeviceProfileList names device profiles nx did not find below the system profile: " + names,
                      system_dir);
    }
    return list + "]";
}

std::string system_profile_link(const std::string& device_dir) {
    std::string name = profile_dir_name(device_dir);
    std::string dir = device_dir;
    for (int up = 0; up < 3; ++up) {
        size_t slash = dir.find_last_of('/');
        if (slash == std::string::npos || slash == 0) return {};
        dir.resize(slash);
        ExplorerTables sys = scan_explorer_dir(dir);
        const std::vector<std::string>* list = sys.find("DeviceProfileList");
        if (!list) continue;
        try {
            for (DeviceRow& d : read_device_rows(*list, {})) {
                if (d.name != name) continue;
                ExecSpans spans;
                if (const std::vector<std::string>* ev = sys.find("SystemProfileEvents")) {
                    SystemEventTable tab(*ev, {});
                    while (tab.next()) {
                        if (tab.table.text(SystemEventTable::kName) != "nc_exec_running") continue;
                        Event e;
                        size_t column = 0;
                        // A broken row of another profile is that profile's
                        // import's business: it only leaves the span out here.
                        if (!row_interval(tab.table, SystemEventTable::kStart, SystemEventTable::kEnd,
                                          SystemEventTable::kDur, e, column))
                            spans.add(exec_key_of(tab), e);
                    }
                }
                return with_fields(d.row_json, "\"path\":" + json_quote(dir) + "," + spans.json(d.key));
            }
        } catch (const Error& e) {
            print_warning(std::string("cannot read the system profile it belongs to: ") + e.what(), dir);
        }
        return {};
    }
    return {};
}

}  // namespace nx::explorer
