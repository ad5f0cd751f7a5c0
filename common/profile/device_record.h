// The profile record's "device" object (nx(7) RECORDS): a Kineto trace's
// device streams as HTA sees them (profile.h DeviceSummary), written and
// read back, so nx-report, the study database and the dataset's profiles
// table give the same figures as the conversion did.
#pragma once

#include <rapidjson/document.h>

#include <optional>

#include "common/profile/profile.h"
#include "common/records/jsonl.h"

namespace nx {

void write_device_summary(JsonWriter& w, const DeviceSummary& d);
// The summary of a record's "device" object; none when it is not an object.
std::optional<DeviceSummary> read_device_summary(const rapidjson::Value& device);

}  // namespace nx
