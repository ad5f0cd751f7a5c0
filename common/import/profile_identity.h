// What a profile says of where it ran, typed, from what its importer carried
// with it: the one reader of those carried keys outside the importer that
// wrote them, so the dataset (and any other consumer) asks for fields, not
// for an importer's private JSON.
//
// Where it ran and how its clock maps to host time: from the runtime's
// capture layout in its path, else from its row of a system profile's
// DeviceProfileList (a device profile Explorer linked to one: instance_id,
// process_id, nc_id; the worker_gid of its core's nc_exec_running rows), and
// the device-to-host offset nx aligned it with.
// How it was captured: the capture record's "capture" object (nx-capture
// writes the profiler's settings there), as JSON text.
// What the profile says of where it ran and what, under the profiler's own
// names, whatever its path: neuron-profile JSON's and summary-json's summary
// fields (instance_type, nd_idx, nc_idx), neuron-profile JSON's NEFF header
// (neff_header[0].hash), Explorer's Metadata (instance_type,
// neuron_device_idx, neuroncore_idx).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/import/runtime_path.h"
#include "common/profile/profile.h"

namespace nx {

struct ProfileIdentity {
    RuntimePath where;
    std::optional<int64_t> clock_offset_ns;
    std::optional<std::string> capture_settings;
    std::optional<int64_t> worker_gid;
    std::string instance_type, neff_header_hash;
    std::optional<int64_t> device_idx, core_idx;
};

ProfileIdentity profile_identity(const ProfileInfo& info);

}  // namespace nx
