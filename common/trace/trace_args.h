// The arguments a trace shows for one slice (Perfetto debug annotations,
// Chrome "args"): nx's own fields (opcode, hlo_name, layer, bytes, flops, DMA
// kind, tensor) followed by every field the source had that nx has no column
// for (operands, pc, ids ... from args_json); events merged onto the overflow
// track (event_spool.h) also carry their own track's name (and a counter
// sample its value), so nothing the profiler said is
// lost on the way to the trace viewer.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "common/trace/event_spool.h"

namespace nx {

struct TraceArg {
    enum Kind : uint8_t { integer, real, boolean, text } kind = text;
    int64_t i = 0;
    double d = 0;
    bool b = false;
    std::string_view s;  // text; nested source values as compact JSON
    bool interned = false;  // a value repeated across many slices (worth interning)
};

// Calls fn(name, value) for each argument of the slice.  Views are valid only
// during the call.  A source args text that is not a JSON object is passed
// whole as "args".
void for_each_trace_arg(const SpooledEvent& e, int64_t clipped_from_ns,
                        const std::function<void(std::string_view, const TraceArg&)>& fn);

}  // namespace nx
