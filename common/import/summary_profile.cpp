#include "common/import/summary_profile.h"

#include <cmath>

#include "common/import/summary_fields.h"
#include "common/profile/profile_record.h"
#include "common/target/targets.h"

namespace nx {

void import_summary_profile(ImportHandler& out, ImportContext& ctx, const char* format, std::string_view graph,
                            const rapidjson::Value& summary) {
    ProfileInfo info = ctx.profile_info(format, std::string(graph));
    if (info.backend.empty()) info.backend = "neuron";
    info.source_percents = PercentScale::fraction;
    if (auto it = summary.FindMember("instance_type");
        info.target.empty() && it != summary.MemberEnd() && it->value.IsString())
        info.target = target_of_instance(it->value.GetString());
    // Its identifying fields go with the profile, as neuron-profile JSON's
    // summary's do.
    if (std::string ids = summary_fields_json(summary); !ids.empty()) merge_carried(info, {{"summary_fields", ids}});
    out.begin_profile(info);
    for (auto& m : summary.GetObject()) {
        std::string_view k(m.name.GetString(), m.name.GetStringLength());
        if (!m.value.IsNumber() || is_identifier_field(k)) continue;
        double v = m.value.GetDouble();
        if (std::isfinite(v)) out.source_metric(k, v);
    }
    out.end_profile();
}

}  // namespace nx
