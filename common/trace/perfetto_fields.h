// Field numbers and enum values of Perfetto's trace protos that nx writes and
// reads (reference/neuron-facts.md section 8, checked against
// protos/perfetto/trace/{trace_packet,track_event/*,interned_data/*}.proto).
// A wrong number writes a different field and fails silently, so every one
// is named here once; the writer and the decoder share them.
#pragma once

#include <cstdint>

namespace nx::perfetto {

namespace trace {
constexpr uint32_t packet = 1;
}

namespace packet {
constexpr uint32_t timestamp = 8;
constexpr uint32_t trusted_packet_sequence_id = 10;
constexpr uint32_t track_event = 11;
constexpr uint32_t interned_data = 12;
constexpr uint32_t sequence_flags = 13;
constexpr uint32_t track_descriptor = 60;
}  // namespace packet

// TracePacket.SequenceFlags
constexpr uint64_t kSeqIncrementalStateCleared = 1;
constexpr uint64_t kSeqNeedsIncrementalState = 2;

namespace track_descriptor {
constexpr uint32_t uuid = 1;
constexpr uint32_t name = 2;
constexpr uint32_t process = 3;
constexpr uint32_t thread = 4;
constexpr uint32_t parent_uuid = 5;
constexpr uint32_t counter = 8;
constexpr uint32_t child_ordering = 11;
constexpr uint32_t sibling_order_rank = 12;
}  // namespace track_descriptor

// TrackDescriptor.ChildTracksOrdering
constexpr uint64_t kChildOrderingExplicit = 3;

namespace process_descriptor {
constexpr uint32_t pid = 1;
constexpr uint32_t process_name = 6;
}  // namespace process_descriptor

namespace thread_descriptor {
constexpr uint32_t pid = 1;
constexpr uint32_t tid = 2;
constexpr uint32_t thread_name = 5;
}  // namespace thread_descriptor

namespace counter_descriptor {
constexpr uint32_t unit = 3;
constexpr uint32_t unit_name = 6;
}  // namespace counter_descriptor

// CounterDescriptor.Unit
enum class CounterUnit : uint64_t { unspecified = 0, time_ns = 1, count = 2, size_bytes = 3 };

namespace track_event {
constexpr uint32_t category_iids = 3;
constexpr uint32_t debug_annotations = 4;
constexpr uint32_t type = 9;
constexpr uint32_t name_iid = 10;
constexpr uint32_t track_uuid = 11;
constexpr uint32_t categories = 22;
constexpr uint32_t name = 23;
constexpr uint32_t counter_value = 30;
constexpr uint32_t double_counter_value = 44;
constexpr uint32_t flow_ids = 47;              // repeated fixed64
constexpr uint32_t terminating_flow_ids = 48;  // repeated fixed64
}  // namespace track_event

// TrackEvent.Type
constexpr uint64_t kTypeSliceBegin = 1;
constexpr uint64_t kTypeSliceEnd = 2;
constexpr uint64_t kTypeInstant = 3;
constexpr uint64_t kTypeCounter = 4;

namespace interned_data {
constexpr uint32_t event_categories = 1;
constexpr uint32_t event_names = 2;
constexpr uint32_t debug_annotation_names = 3;
constexpr uint32_t debug_annotation_string_values = 29;
}  // namespace interned_data

// EventName, EventCategory, DebugAnnotationName and InternedString all are
// (iid = 1, name/str = 2).
namespace interned_entry {
constexpr uint32_t iid = 1;
constexpr uint32_t name = 2;
}  // namespace interned_entry

namespace debug_annotation {
constexpr uint32_t name_iid = 1;
constexpr uint32_t bool_value = 2;
constexpr uint32_t uint_value = 3;
constexpr uint32_t int_value = 4;
constexpr uint32_t double_value = 5;
constexpr uint32_t string_value = 6;
constexpr uint32_t name = 10;
constexpr uint32_t string_value_iid = 17;
}  // namespace debug_annotation

}  // namespace nx::perfetto
