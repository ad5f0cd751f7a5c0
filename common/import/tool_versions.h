// The "versions" object a profile record carries: the profiler's, runtime's,
// compiler's and driver's versions, named the same whichever importer found
// them (neuron-profile JSON: its summary, profile_info and metadata; Neuron
// Explorer: its Metadata table), so reports show one versions line.
#pragma once

#include <rapidjson/document.h>

#include <span>
#include <string>
#include <string_view>

namespace nx {

struct VersionField {
    std::string_view field;  // the source's field, e.g. "runtime_version"
    std::string_view name;   // its name in "versions", e.g. "runtime"
};

// Appends to `versions` (an object's text open at "{", members so far) each
// of `fields` that `obj` has, non-null, and `versions` does not name yet:
// when several sources carry one version, the first wins.
void add_versions(const rapidjson::Value& obj, std::span<const VersionField> fields, std::string& versions);

}  // namespace nx
