// Which of a source's figures are measurements.  Profilers write "not
// available" in three ways (neuron-explorer-parquet.md section 12):
//   - a negative sentinel (-1) in a figure that cannot be negative;
//   - a 0 beside a warning of the profile's own that says the data is missing
//     ("Missing HLO stats in the NEFF, `model_flops` and ... will not be
//     available": model_flops 0; missing dynamic DMA metadata:
//     dma_transfer_average_bytes 0);
//   - a 0 the profile's own rows contradict (an average transfer of 0 B
//     beside thousands of DMA packets that moved megabytes).
// Such a figure is never kept as a value: it is listed with its reason, every
// rule that needs it says "not in this profile", and where nx can make the
// figure from the profile's rows it uses its own, marked derived.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/profile/profile.h"

namespace nx {

// The messages of the profiler's warnings a profile carries ("warnings":
// neuron-profile's array of {message, category}, Explorer's Warning rows, or
// plain strings), in order.
std::vector<std::string> profiler_warnings(std::string_view carried_json);
// The importer's notes on what the source lacked or held in another form
// than nx reads (carried "import_notes": an Explorer schema's drift,
// import/explorer_fields.h): the profile's notes, first.
std::vector<std::string> import_notes(std::string_view carried_json);

// Takes out of `source` every figure that is not a measurement by the first
// two rules (sentinels; zeros a warning calls missing) and returns them with
// their reasons.  A metric a warning names that the source lacks altogether
// is listed too, so the report can say why it is missing.
std::vector<UnavailableMetric> take_unavailable(std::map<std::string, double, std::less<>>& source,
                                                const std::vector<std::string>& warnings);

// Metrics whose 0 in the source means "not recorded" when the profile's own
// rows give a positive figure (the third rule): DMA transfer counts and sizes.
bool zero_means_unrecorded(std::string_view metric);

}  // namespace nx
