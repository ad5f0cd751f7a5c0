// The system-profile half of the Explorer importer (explorer_system.h):
// SystemProfileMetadata, SystemProfileEvents and DeviceProfileList, and the
// link from a device profile back to its system profile.
#include "common/import/explorer_system.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "common/import/explorer_tables.h"
#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/number_text.h"
#include "common/profile/rule_inputs.h"
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

}  // namespace

void ExecSpans::add(const std::string& key, const Event& e, std::string_view flow_id, std::optional<int64_t> worker_gid) {
    if (key.empty()) return;
    if (worker_gid) worker_gids_.emplace(key, *worker_gid);
    std::vector<Execution>& list = spans_[key];
    int64_t end = e.ts_ns + e.dur_ns;
    if (!flow_id.empty())
        for (Execution& x : list)
            if (x.flow_id == flow_id) {  // the other physical core's row of one execution
                x.start = std::min(x.start, e.ts_ns);
                x.end = std::max(x.end, end);
                return;
            }
    list.push_back({e.ts_ns, end, std::string(flow_id)});
}

const std::vector<ExecSpans::Execution>* ExecSpans::executions(const std::string& key) const {
    auto it = spans_.find(key);
    return it == spans_.end() ? nullptr : &it->second;
}

std::string ExecSpans::json(const std::string& key) const {
    const std::vector<Execution>* list = executions(key);
    auto gid = worker_gids_.find(key);
    std::string worker = gid == worker_gids_.end() ? "" : ",\"worker_gid\":" + std::to_string(gid->second);
    if (!list || list->empty()) return "\"nc_exec_running\":null" + worker;
    int64_t first = list->front().start, last = list->front().end;
    for (const Execution& x : *list) {
        first = std::min(first, x.start);
        last = std::max(last, x.end);
    }
    return "\"nc_exec_running\":{\"count\":" + std::to_string(list->size()) + ",\"first_start_ns\":" +
           std::to_string(first) + ",\"last_end_ns\":" + std::to_string(last) + "}" + worker;
}

namespace {

// The first id of an event's flow_id list (LIST<STRING> of integers as
// text, kept in its args as ["100"]); empty when it has none.
std::string_view first_flow_id(std::string_view args) {
    size_t at = args.find("\"flow_id\":[\"");
    if (at == std::string_view::npos) return {};
    at += 12;
    size_t end = args.find('"', at);
    return end == std::string_view::npos ? std::string_view() : args.substr(at, end - at);
}

// The row's worker_gid, read from its args (the column stays there, as
// every column nx does not map does).
std::optional<int64_t> worker_gid(std::string_view args) { return parse_int64(json_field(args, "worker_gid")); }

// How far two durations of one execution may differ (public scripts: 10 us
// or 0.2%, whichever is larger; trailing NOTIFY / EVENT_SEMAPHORE were seen
// 5.7 us past the recorded end).
int64_t duration_tolerance(int64_t dur) { return std::max<int64_t>(10000, dur / 500); }

// The device side of one execution: where it starts on the device clock and
// how long it lasts.  ExecutionInfo's first execution (relative to the
// profile's start), else the trace's own bounds.
struct DeviceExecution {
    int64_t start = 0, dur = 0;
    const char* from = "";
};

std::optional<DeviceExecution> device_execution(const std::string& device_dir) {
    ExplorerTables t = scan_explorer_dir(device_dir);
    std::optional<int64_t> first, last;
    if (const std::vector<std::string>* md = t.find("Metadata")) {
        Table tab(*md, {{"first_hw_timestamp", Kind::integer}, {"last_hw_timestamp", Kind::integer}}, {}, "Metadata", false);
        if (tab.next()) {
            first = tab.integer(0);
            last = tab.integer(1);
        }
    }
    if (const std::vector<std::string>* ei = t.find("ExecutionInfo")) {
        Table tab(*ei, {{"execution_start_ts", Kind::integer}, {"execution_end_ts", Kind::integer}}, {}, "ExecutionInfo", false);
        if (tab.next() && tab.integer(0) && tab.integer(1) && *tab.integer(1) > *tab.integer(0))
            return DeviceExecution{first.value_or(0) + *tab.integer(0), *tab.integer(1) - *tab.integer(0), "ExecutionInfo"};
    }
    if (first && last && *last > *first) return DeviceExecution{*first, *last - *first, "the trace's length"};
    return std::nullopt;
}

}  // namespace

std::string host_alignment_json(const ExecSpans& spans, const std::string& key, const std::string& device_dir) {
    auto none = [](const std::string& why) { return "\"host_alignment\":{\"offset_ns\":null,\"why\":" + json_quote(why) + "}"; };
    const std::vector<ExecSpans::Execution>* list = spans.executions(key);
    if (!list || list->empty()) return none("no nc_exec_running event of this core in the system profile");
    std::optional<DeviceExecution> dev;
    try {
        dev = device_execution(device_dir);
    } catch (const Error& e) {
        return none(std::string("cannot read the device profile's execution: ") + e.what());
    }
    if (!dev) return none("the device profile gives no execution length (ExecutionInfo, Metadata)");
    const ExecSpans::Execution* best = nullptr;
    int matches = 0;
    for (const ExecSpans::Execution& x : *list) {
        int64_t diff = std::llabs((x.end - x.start) - dev->dur);
        if (diff > duration_tolerance(dev->dur)) continue;
        ++matches;
        if (!best || diff < std::llabs((best->end - best->start) - dev->dur)) best = &x;
    }
    if (!best)
        return none("no nc_exec_running of this core lasts as long as the device's execution (" + std::to_string(dev->dur) +
                    " ns, from " + dev->from + ") within max(10 us, 0.2%)");
    int64_t uncertainty = std::llabs((best->end - best->start) - dev->dur);
    std::string out = "\"host_alignment\":{\"offset_ns\":" + std::to_string(best->start - dev->start) +
                      ",\"uncertainty_ns\":" + std::to_string(uncertainty) + ",\"host_start_ns\":" +
                      std::to_string(best->start) + ",\"host_duration_ns\":" + std::to_string(best->end - best->start) +
                      ",\"device_duration_ns\":" + std::to_string(dev->dur) + ",\"device_duration_from\":" +
                      json_quote(dev->from);
    if (!best->flow_id.empty()) out += ",\"flow_id\":" + json_quote(best->flow_id);
    if (matches > 1) out += ",\"candidates\":" + std::to_string(matches);
    return out + "}";
}

void read_system_metadata(const std::vector<std::string>& files, const SchemaFacts& facts, double& trace_seconds,
                          std::string& metadata_json) {
    Table tab(files, {{"first_ts_ns", Kind::text}, {"last_ts_ns", Kind::text}}, facts, "SystemProfileMetadata", true);
    if (!tab.next()) return;
    std::optional<int64_t> first = parse_int64(tab.text(0)), last = parse_int64(tab.text(1));
    if (first && last && *last > *first) trace_seconds = static_cast<double>(*last - *first) / 1e9;
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
        if (e.name == "nc_exec_running") spans.add(exec_key_of(tab), e, first_flow_id(e.args_json), worker_gid(e.args_json));
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
        std::string fields = "\"path\":" + path + "," + spans.json(d.key);
        if (it != found.end()) fields += "," + host_alignment_json(spans, d.key, it->second);
        list += (list.size() > 1 ? "," : "") + with_fields(d.row_json, fields);
    }
    if (!missing.empty()) {
        std::string names;
        for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
        print_warning("DeviceProfileList names device profiles nx did not find below the system profile, beside it, "
                      "or under its data path: " + names,
                      system_dir);
    }
    return list + "]";
}

std::string system_profile_link(const std::string& device_dir) {
    std::string name = profile_dir_name(device_dir);
    for (const std::string& dir : system_profiles_near(device_dir)) {
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
                                          SystemEventTable::kDur, e, column)) {
                            std::string_view args = tab.table.other_args();
                            spans.add(exec_key_of(tab), e, first_flow_id(args), worker_gid(args));
                        }
                    }
                }
                return with_fields(d.row_json, "\"path\":" + json_quote(dir) + "," + spans.json(d.key) + "," +
                                                   host_alignment_json(spans, d.key, device_dir));
            }
        } catch (const Error& e) {
            print_warning(std::string("cannot read the system profile it belongs to: ") + e.what(), dir);
        }
    }
    return {};
}

}  // namespace nx::explorer
