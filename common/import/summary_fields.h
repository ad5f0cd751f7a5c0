// A profiler summary object's identifying fields (instance_type, nd_idx,
// nc_idx, versions: everything but its measurements) as one JSON object,
// the "summary_fields" a profile carries.  neuron-profile JSON's summary
// and summary-json's graphs are split alike: what is_identifier_field
// names, or is not a number, identifies; the other numbers are metrics.
#pragma once

#include <rapidjson/document.h>

#include <string>

namespace nx {

// "{...}", or "" when the object has no identifying field.
std::string summary_fields_json(const rapidjson::Value& summary);

}  // namespace nx
