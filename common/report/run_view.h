// How the study reports show a run (records/run_record.h reads it into a
// RunView): its time with the model's error band, its backend in words.
#pragma once

#include <string>

#include "common/workload/run_record.h"

namespace nx {

// A run's time for a text table: "~55.0 us (+-20%)" for a prediction that
// carries an error band, format_ns otherwise.
std::string format_run_ns(const RunView& r, double ns);

// "sim (predicted by the nx model)" etc., for headings.
std::string backend_phrase(const std::string& backend);

}  // namespace nx
