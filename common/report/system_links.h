// A system profile and the device profiles captured inside it (Neuron
// Explorer's DeviceProfileList; explorer_parquet.cpp carries the link on both
// sides as "device_profiles" and "system_profile"): the report says which
// device profiles belong to a system profile, whether nx found them, and
// where each one ran in host time (its core's nc_exec_running span).
#pragma once

#include "common/profile/profile.h"
#include "common/report/document.h"

namespace nx {

// A "Device profiles" table on a system profile's report; nothing otherwise.
void add_device_profiles(Document& doc, const ProfileInfo& info, int64_t profile_start_ns);
// The "system profile" fact of a device profile's header; empty otherwise.
std::string system_profile_text(const ProfileInfo& info);

}  // namespace nx
