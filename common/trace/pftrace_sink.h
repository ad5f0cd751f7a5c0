// `nx-convert --to pftrace`: Perfetto's native protobuf trace (a Trace of
// TracePackets; field numbers in perfetto_fields.h), written as it goes.
//
// Each profile is a process (pid 1, 2 ...) on its own packet sequence; its
// rows are child tracks ordered as the profiler shows them; slices are
// TYPE_SLICE_BEGIN/TYPE_SLICE_END pairs with the event's fields as debug
// annotations; counters are TYPE_COUNTER events with double values.  Event
// names, categories, annotation names and repeated values (opcode, HLO name,
// layer) are interned; the intern tables are reset (SEQ_INCREMENTAL_STATE_
// CLEARED) when they grow past kMaxInternedEntries, so memory stays flat on
// profiles with many distinct names.  Per-track memory (the spool's track
// table, the layout's lanes) is capped in event_spool.h / trace_layout.h:
// past kMaxTraceTracks tracks, further tracks merge into "(other tracks)"
// with a warning, so memory is flat in the number of tracks too; the writer
// itself keeps nothing per track.
#pragma once

#include <memory>

#include "common/io/output.h"
#include "common/profile/profile_sink.h"
#include "common/trace/trace_writer.h"

namespace nx {

constexpr size_t kMaxInternedEntries = size_t{1} << 16;

std::unique_ptr<TraceWriter> make_pftrace_writer(Output& out);
// A TraceSink writing Perfetto protobuf to `out`.
std::unique_ptr<ProfileSink> make_pftrace_sink(Output& out);

}  // namespace nx
