// A small decoder for the Perfetto traces nx writes: tracks (with their
// process or thread, parent, order and counter unit), slices rebuilt from
// begin/end pairs the way trace processor does (an end closes the innermost
// open slice of its track) with their flow ids, and counter samples, with
// interned strings resolved.
//
// It checks what a viewer relies on and reports each violation in `errors`:
// events on undeclared tracks, unknown iids, an end with nothing open, a
// track's events going back in time, slices left open, a flow that ends
// before it starts or never ends, two threads with one tid.  Used by the unit
// tests and by test-pftrace_dump (the Bats suite's decoder); it holds the
// whole trace in memory, which is fine for test-sized traces.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nx {

struct DecodedTrack {
    uint64_t uuid = 0;
    uint64_t parent = 0;
    std::string name;
    bool is_process = false;
    bool is_thread = false;  // a ThreadDescriptor: name is its thread_name
    int64_t pid = 0;
    int64_t tid = 0;
    bool is_counter = false;
    uint64_t unit = 0;
    std::string unit_name;
    int64_t rank = 0;
    uint64_t child_ordering = 0;
};

struct DecodedSlice {
    uint64_t track = 0;
    int64_t ts = 0;
    int64_t dur = 0;
    int depth = 0;  // 0: outermost on its track
    std::string name;
    std::string category;
    std::vector<std::pair<std::string, std::string>> args;  // values as text
    std::vector<uint64_t> flow_ids;              // flows leaving this slice
    std::vector<uint64_t> terminating_flow_ids;  // flows arriving
    std::string arg(std::string_view key) const;
};

struct DecodedCounter {
    uint64_t track = 0;
    int64_t ts = 0;
    double value = 0;
};

struct DecodedTrace {
    std::vector<DecodedTrack> tracks;  // in declaration order
    std::vector<DecodedSlice> slices;  // in begin order
    std::vector<DecodedCounter> counters;
    std::vector<std::string> errors;
    int64_t packets = 0;

    const DecodedTrack* track(uint64_t uuid) const;
    const DecodedTrack* track_named(std::string_view name) const;
};

// Throws Error when the bytes are not a protobuf Trace at all.
DecodedTrace decode_pftrace(std::string_view bytes);

}  // namespace nx
