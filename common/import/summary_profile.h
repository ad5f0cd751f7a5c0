// One graph's profiler summary (`view --output-format summary-json` or
// summary-text: the Summary fields of one node) as a profile of metrics:
// its numbers are the source's metrics (percents as fractions of 1, as in
// every Neuron summary), its identifying fields (instance_type, nd_idx,
// nc_idx, versions, UltraServer fields) go with the profile as
// "summary_fields", and its instance type names the target.
#pragma once

#include <rapidjson/document.h>

#include <string_view>

#include "common/import/importer.h"

namespace nx {

// Begins, fills and ends one profile of `format` for node `graph`.
void import_summary_profile(ImportHandler& out, ImportContext& ctx, const char* format, std::string_view graph,
                            const rapidjson::Value& summary);

}  // namespace nx
