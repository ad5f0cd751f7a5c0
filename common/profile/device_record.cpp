#include "common/profile/device_record.h"

#include <cmath>
#include <string_view>
#include <utility>

#include "common/records/json_members.h"

namespace nx {

namespace {

// Each object's fields, named once for writing and reading.
template <class T>
using IntFields = std::initializer_list<std::pair<const char*, int64_t T::*>>;
template <class T>
using RealFields = std::initializer_list<std::pair<const char*, double T::*>>;

const IntFields<DeviceTimes> kTimes = {
    {"span_ns", &DeviceTimes::span_ns},          {"busy_ns", &DeviceTimes::busy_ns},
    {"computation_ns", &DeviceTimes::computation_ns}, {"communication_ns", &DeviceTimes::communication_ns},
    {"memory_ns", &DeviceTimes::memory_ns},      {"other_ns", &DeviceTimes::other_ns},
    {"overlap_ns", &DeviceTimes::overlap_ns},    {"exposed_ns", &DeviceTimes::exposed_ns},
    {"idle_ns", &DeviceTimes::idle_ns}};
const IntFields<DeviceStreamStat> kStreamInts = {
    {"stream", &DeviceStreamStat::stream},           {"events", &DeviceStreamStat::events},
    {"busy_ns", &DeviceStreamStat::busy_ns},         {"host_wait_ns", &DeviceStreamStat::host_wait_ns},
    {"kernel_wait_ns", &DeviceStreamStat::kernel_wait_ns}, {"other_wait_ns", &DeviceStreamStat::other_wait_ns},
    {"queue_points", &DeviceStreamStat::queue_points}, {"queue_min", &DeviceStreamStat::queue_min},
    {"queue_max", &DeviceStreamStat::queue_max},     {"queue_at_max_ns", &DeviceStreamStat::queue_at_max_ns},
    {"queue_full_ns", &DeviceStreamStat::queue_full_ns}};
const RealFields<DeviceStreamStat> kStreamReals = {
    {"queue_mean", &DeviceStreamStat::queue_mean}, {"queue_std", &DeviceStreamStat::queue_std},
    {"queue_p25", &DeviceStreamStat::queue_p25},   {"queue_p50", &DeviceStreamStat::queue_p50},
    {"queue_p75", &DeviceStreamStat::queue_p75}};
const IntFields<DeviceLaunchStat> kLaunches = {
    {"launches", &DeviceLaunchStat::launches},         {"cpu_sum_ns", &DeviceLaunchStat::cpu_sum_ns},
    {"cpu_max_ns", &DeviceLaunchStat::cpu_max_ns},     {"gpu_sum_ns", &DeviceLaunchStat::gpu_sum_ns},
    {"gpu_max_ns", &DeviceLaunchStat::gpu_max_ns},     {"delay_sum_ns", &DeviceLaunchStat::delay_sum_ns},
    {"delay_max_ns", &DeviceLaunchStat::delay_max_ns}, {"cpu_outliers", &DeviceLaunchStat::cpu_outliers},
    {"delay_outliers", &DeviceLaunchStat::delay_outliers}};
const IntFields<DeviceStep> kStep = {
    {"step", &DeviceStep::step}, {"start_ns", &DeviceStep::start_ns}, {"end_ns", &DeviceStep::end_ns}};
const IntFields<DeviceSummary> kSummary = {
    {"events", &DeviceSummary::events},           {"counted", &DeviceSummary::counted},
    {"left_late", &DeviceSummary::left_late},     {"left_unlaunched", &DeviceSummary::left_unlaunched},
    {"left_step", &DeviceSummary::left_step},     {"window_start_ns", &DeviceSummary::window_start_ns},
    {"window_end_ns", &DeviceSummary::window_end_ns}};

template <class T>
void write_ints(JsonWriter& w, const T& obj, IntFields<T> fields) {
    for (auto [name, member] : fields) {
        write_key(w, name);
        w.Int64(obj.*member);
    }
}
template <class T>
void read_ints(const rapidjson::Value& v, T& obj, IntFields<T> fields) {
    for (auto [name, member] : fields)
        if (std::optional<int64_t> x = get_int(v, name)) obj.*member = *x;
}

void write_percents(JsonWriter& w, const char* name, const std::vector<double>& values) {
    write_key(w, name);
    w.StartArray();
    for (double v : values) w.Double(std::round(v * 100) / 100);
    w.EndArray();
}
void read_percents(const rapidjson::Value& v, const char* name, std::vector<double>& out) {
    if (const rapidjson::Value* a = find_member(v, name); a && a->IsArray())
        for (auto& x : a->GetArray()) out.push_back(x.IsNumber() ? x.GetDouble() : 0);
}

}  // namespace

void write_device_summary(JsonWriter& w, const DeviceSummary& d) {
    w.StartObject();
    write_key(w, "family");
    w.String(d.family.c_str());
    write_ints(w, d, kSummary);
    write_key(w, "times");
    w.StartObject();
    write_ints(w, d.times, kTimes);
    w.EndObject();
    write_key(w, "kernel_types");
    w.StartArray();
    for (const DeviceKernelType& t : d.kernel_types) {
        w.StartObject();
        write_key(w, "type");
        w.String(t.type.c_str());
        write_key(w, "ns");
        w.Int64(t.ns);
        w.EndObject();
    }
    w.EndArray();
    write_key(w, "streams");
    w.StartArray();
    for (const DeviceStreamStat& s : d.streams) {
        w.StartObject();
        write_ints(w, s, kStreamInts);
        for (auto [name, member] : kStreamReals) {
            write_key(w, name);
            w.Double(std::round(s.*member * 1e6) / 1e6);
        }
        w.EndObject();
    }
    w.EndArray();
    write_key(w, "launches");
    w.StartObject();
    write_ints(w, d.launches, kLaunches);
    w.EndObject();
    write_key(w, "steps");
    w.StartArray();
    for (const DeviceStep& s : d.steps) {
        w.StartObject();
        write_ints(w, s, kStep);
        write_ints(w, s.times, kTimes);
        w.EndObject();
    }
    w.EndArray();
    write_percents(w, "compute_percent", d.compute_percent);
    write_percents(w, "collective_percent", d.collective_percent);
    w.EndObject();
}

std::optional<DeviceSummary> read_device_summary(const rapidjson::Value& v) {
    if (!v.IsObject()) return std::nullopt;
    DeviceSummary d;
    d.family = get_string(v, "family").value_or("");
    read_ints(v, d, kSummary);
    if (const rapidjson::Value* t = find_member(v, "times"); t && t->IsObject()) read_ints(*t, d.times, kTimes);
    if (const rapidjson::Value* a = find_member(v, "kernel_types"); a && a->IsArray())
        for (auto& t : a->GetArray())
            if (t.IsObject()) d.kernel_types.push_back({get_string(t, "type").value_or(""), get_int(t, "ns").value_or(0)});
    if (const rapidjson::Value* a = find_member(v, "streams"); a && a->IsArray())
        for (auto& x : a->GetArray()) {
            if (!x.IsObject()) continue;
            DeviceStreamStat s;
            read_ints(x, s, kStreamInts);
            for (auto [name, member] : kStreamReals)
                if (const rapidjson::Value* r = find_member(x, name); r && r->IsNumber()) s.*member = r->GetDouble();
            d.streams.push_back(s);
        }
    if (const rapidjson::Value* l = find_member(v, "launches"); l && l->IsObject()) read_ints(*l, d.launches, kLaunches);
    if (const rapidjson::Value* a = find_member(v, "steps"); a && a->IsArray())
        for (auto& x : a->GetArray()) {
            if (!x.IsObject()) continue;
            DeviceStep s;
            read_ints(x, s, kStep);
            read_ints(x, s.times, kTimes);
            d.steps.push_back(s);
        }
    read_percents(v, "compute_percent", d.compute_percent);
    read_percents(v, "collective_percent", d.collective_percent);
    return d;
}

}  // namespace nx
