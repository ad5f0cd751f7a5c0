// How the study reports show a run (workload/run_record.h reads it into a
// RunView): its time with the model's error band.  Its backend in words is
// backend_phrase (records/backend_words.h).
#pragma once

#include <string>

#include "common/records/backend_words.h"
#include "common/workload/run_record.h"

namespace nx {

// A run's time for a text table: "~55.0 us (+-20%)" for a prediction that
// carries an error band, format_ns otherwise.
std::string format_run_ns(const RunView& r, double ns);
// Where it ran: "trn2 (LNC=2)", or the target alone when the record says no LNC.
std::string target_text(const RunView& r);

}  // namespace nx
