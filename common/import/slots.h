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
// Microseconds as written ("1695835535123456.789", a slot read with
// numbers_as_text) to integer nanoseconds exactly: the digits are shifted,
// never passed through a double, and digits past the ns are rounded half up.
// Exponent forms and slots without text fall back to slot_to_int x 1000.
std::string slot_us_to_ns(const Slot& s, std::string_view field, int64_t& out, bool allow_negative = false);
// The same for text alone; false when it is not a plain decimal in range.
bool decimal_us_to_ns(std::string_view text, int64_t& out);
// Any finite number.
std::string slot_to_double(const Slot& s, std::string_view field, double& out);
// Text of a string slot; numbers are accepted as their JSON text.
std::string_view slot_text(const Slot& s, std::string& scratch);

}  // namespace nx
