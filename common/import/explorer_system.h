// Neuron Explorer's system profile (SDK 2.34: the host's runtime, hardware
// and framework events of a whole capture) and its links to the device
// profiles captured inside it.  The device-profile importer
// (explorer_parquet.cpp) calls these for the system tables of a directory,
// and to find the system profile a device profile belongs to.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/import/explorer_table.h"
#include "common/import/importer.h"

namespace nx::explorer {

// Each core's nc_exec_running spans (host ns), keyed by instance, process
// and logical core: what ties a device profile to host time.  Under LNC=2
// an execution has one row per physical core sharing a flow_id: they are one
// execution, [first start, last end].
class ExecSpans {
public:
    // `worker_gid`: the row's (SystemProfileEvents.worker_gid, the core's
    // id unique across processes and instances), when it gives one.
    void add(const std::string& key, const Event& e, std::string_view flow_id, std::optional<int64_t> worker_gid = {});
    // "nc_exec_running":{...} or null, for a profile record, and
    // "worker_gid":N when the core's rows give one.
    std::string json(const std::string& key) const;

    struct Execution {
        int64_t start = 0, end = 0;
        std::string flow_id;  // empty: a row without one is an execution of its own
    };
    const std::vector<Execution>* executions(const std::string& key) const;

private:
    std::map<std::string, std::vector<Execution>> spans_;
    std::map<std::string, int64_t> worker_gids_;  // by key: the first a row gives
};

// Device time to host time for one device profile: the host execution whose
// duration matches the device's (ExecutionInfo, else the trace's length)
// within max(10 us, 0.2%), as public scripts align them (there is no
// documented mapping between the clocks).  The offset is host start minus
// device start; its uncertainty the two durations' difference.
// `"host_alignment":{...}` or `"host_alignment":null` with why, for the link.
std::string host_alignment_json(const ExecSpans& spans, const std::string& key, const std::string& device_dir);

// A row the importer could not use: the table, the column to name, why.
using BadRow = std::function<void(const Table& tab, size_t column, const std::string& message)>;

// SystemProfileMetadata: the trace's length (its bounds are Unix-epoch ns
// written as text) and the whole row as JSON.  Leaves both as they are when
// the table has no row.
void read_system_metadata(const std::vector<std::string>& files, const SchemaFacts& facts, double& trace_seconds,
                          std::string& metadata_json);

// SystemProfileEvents: the host's runtime (neuron_rt), hardware (neuron_hw)
// and framework events, one track per source and thread, under their
// process.  Each core's nc_exec_running spans go into `spans`.
void import_system_events(const std::vector<std::string>& files, const SchemaFacts& facts, ImportHandler& out,
                          ExecSpans& spans, const BadRow& bad);

// DeviceProfileList: the device profiles captured inside the system profile
// at `system_dir`, as a JSON array of their rows, each with the directory nx
// found it in ("path", null when absent) and its core's nc_exec_running span.
// Warns naming the profiles it did not find.
std::string device_profiles_json(const std::vector<std::string>& files, const SchemaFacts& facts,
                                 const std::string& system_dir, const ExecSpans& spans);

// The system profile a device profile directory belongs to (a directory up to
// three levels above it with DeviceProfileList naming it): that list's row,
// the system profile's path and the core's nc_exec_running span, as a JSON
// object.  Empty when there is none; a system profile that cannot be read is
// a warning (the device profile stands on its own).
std::string system_profile_link(const std::string& device_dir);

}  // namespace nx::explorer
