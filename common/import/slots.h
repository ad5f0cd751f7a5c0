// Turning record slots (record_reader.h) into validated event fields.  Each
// check returns an error message (empty when fine) so importers report a bad
// record with the field's name: 'negative "duration"', 'expected a number for
// "timestamp"'.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/import/record_reader.h"

namespace nx {

// Timestamps and durations: whole nanoseconds in [min, 2^62).  Reals are
// accepted when finite and rounded (Chrome traces use fractional µs).
std::string slot_to_int(const Slot& s, std::string_view field, int64_t& out, bool allow_negative = false,
                        double scale = 1.0);
// Any finite number.
std::string slot_to_double(const Slot& s, std::string_view field, double& out);
// Text of a string slot; numbers are accepted as their JSON text.
std::string_view slot_text(const Slot& s, std::string& scratch);

}  // namespace nx
