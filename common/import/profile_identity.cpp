#include "common/import/profile_identity.h"

#include <rapidjson/document.h>

#include "common/records/jsonl.h"
#include "common/profile/profile_record.h"

namespace nx {

ProfileIdentity profile_identity(const ProfileInfo& info) {
    ProfileIdentity id{runtime_path_of_source(info.source), std::nullopt, std::nullopt, std::nullopt, {}, {}, {}, {}};
    rapidjson::Document carried = carried_document(info);
    auto int_of = [&](const rapidjson::Value& obj, const char* key) -> std::optional<int64_t> {
        auto m = obj.FindMember(key);
        if (m == obj.MemberEnd() || !m->value.IsInt64()) return std::nullopt;
        return m->value.GetInt64();
    };
    auto text_of = [&](const rapidjson::Value& obj, const char* key) -> std::string {
        auto m = obj.FindMember(key);
        return m != obj.MemberEnd() && m->value.IsString() ? m->value.GetString() : "";
    };
    if (auto f = carried.FindMember("summary_fields"); f != carried.MemberEnd() && f->value.IsObject()) {
        id.instance_type = text_of(f->value, "instance_type");
        id.device_idx = int_of(f->value, "nd_idx");
        id.core_idx = int_of(f->value, "nc_idx");
    }
    if (auto m = carried.FindMember("metadata"); m != carried.MemberEnd() && m->value.IsObject()) {
        if (id.instance_type.empty()) id.instance_type = text_of(m->value, "instance_type");
        if (!id.device_idx) id.device_idx = int_of(m->value, "neuron_device_idx");
        if (!id.core_idx) id.core_idx = int_of(m->value, "neuroncore_idx");
    }
    if (auto h = carried.FindMember("neff_header");
        h != carried.MemberEnd() && h->value.IsArray() && !h->value.Empty() && h->value[0].IsObject())
        id.neff_header_hash = text_of(h->value[0], "hash");
    if (auto c = carried.FindMember("capture"); c != carried.MemberEnd() && c->value.IsObject())
        id.capture_settings = to_json(c->value);
    auto sys = carried.FindMember("system_profile");
    if (sys == carried.MemberEnd() || !sys->value.IsObject()) return id;
    const rapidjson::Value& row = sys->value;
    if (auto m = row.FindMember("instance_id"); id.where.instance_id.empty() && m != row.MemberEnd() && m->value.IsString())
        id.where.instance_id = m->value.GetString();
    if (auto v = int_of(row, "process_id"); id.where.process_id < 0 && v) id.where.process_id = *v;
    if (auto v = int_of(row, "nc_id"); id.where.logical_core < 0 && v) id.where.logical_core = *v;
    id.worker_gid = int_of(row, "worker_gid");
    if (auto a = row.FindMember("host_alignment"); a != row.MemberEnd() && a->value.IsObject())
        id.clock_offset_ns = int_of(a->value, "offset_ns");
    return id;
}

}  // namespace nx
