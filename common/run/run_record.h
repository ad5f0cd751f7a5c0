// Run records (nx(7) RECORDS, kind "run"): the workload's fields, which backend
// and target ran it, latency statistics, compile time, tiles, TFLOP/s,
// artefacts and provenance.
#pragma once

#include <string>

#include "common/run/backend.h"

namespace nx {

std::string run_record_json(const Workload& w, const std::string& backend, const std::string& target,
                            const Execution& e, int warmup, const std::string& started_at, const std::string& host);

// "2026-11-21T19:33:14Z" and the host name, for provenance.
std::string utc_now_iso8601();
std::string host_name();

}  // namespace nx
