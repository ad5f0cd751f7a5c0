// libFuzzer target: workload records and study ranges, as nx-run reads them
// (workload_from_record, validate_workload, parse_range, the plan).
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/io/error.h"
#include "common/records/jsonl.h"
#include "common/workload/study_plan.h"
#include "common/workload/workload_record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    // As a workload record.
    try {
        rapidjson::Document doc;
        nx::parse_json_object(doc, text, "fuzz", 1);
        nx::Workload w = nx::workload_from_record(doc);
        nx::validate_workload(w);
        (void)nx::workload_record_json(w);
        (void)nx::workload_tiles(w);
        (void)nx::workload_flops(w);
    } catch (const nx::Error&) {
    }
    // As range specs for the generators (split on the first newline).
    size_t nl = text.find('\n');
    std::string spec = text.substr(0, nl);
    try {
        (void)nx::parse_range(spec, "M");
    } catch (const nx::UsageError&) {
    }
    try {
        nx::PlanOptions o;
        o.M = spec;
        o.K = "128";
        o.N = "128";
        if (nl != std::string::npos) o.dtypes = text.substr(nl + 1, 64);
        (void)nx::plan_workloads(o);
    } catch (const nx::UsageError&) {
    } catch (const nx::Error&) {
    }
    return 0;
}
