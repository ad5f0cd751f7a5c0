// What one Chrome trace-event record says, decoded the same way by both of
// the Chrome importer's passes (chrome_json.cpp): its fields, the thread it
// belongs to, and what its "M" (metadata) and flow records mean.  The first
// pass keeps what is valid; the import pass reports what is not, so a record
// both passes read is judged once, by the same code.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/import/record_reader.h"

namespace nx::chrome {

// The record fields both passes read into slots.
enum Field : int { kPh, kTs, kDur, kName, kCat, kPid, kTid, kArgs, kFieldCount };
// Slot of a field, or -1 (other fields: kept in the event's args).
int field_id(std::string_view key);

// The thread a record belongs to, "pid/tid" as the source wrote them: the
// key of its track (and of its B/E stack).
std::string thread_key(const std::vector<Slot>& s, std::string& scratch_pid, std::string& scratch_tid);
// The process part of it.
std::string_view pid_text(const std::vector<Slot>& s, std::string& scratch);
// A pid or tid given as an integer, else kNoId (event.h).
int64_t slot_id(const Slot& s);

// An "M" record that names a thread or a process.
struct Metadata {
    enum Kind { none, thread_name, process_name } kind = none;
    std::string name;  // surrounding whitespace trimmed ("stream 7 " -> "stream 7")
};
// Decodes `name` and `args`; an error (the record is bad) when a
// thread_name or process_name lacks a string args.name.  Other metadata
// (sort indexes, labels) gives Kind::none.
std::string decode_metadata(const std::vector<Slot>& s, Metadata& out);

// A flow event of the Chrome format's first version ("s" start, "t" step,
// "f" end), or a slice's own flow fields (version 2: bind_id with flow_in /
// flow_out).  Flows are told apart by scope and id: version 1 ids are scoped by the
// events' category and name (and id2.local by the process), version 2 ids
// are global, as Perfetto reads them.
struct FlowPoint {
    enum Role : uint8_t { start, step, end } role = start;
    // Binds to the next slice that begins on its thread ("t" and "f" without
    // bp "e"), else to the slice enclosing it.
    bool bind_next = false;
    // The flow is (scope, id): scope says the version, and for version 1 the
    // category, name and (id2.local) process.
    std::string scope;
    std::string id;        // the id as the source wrote it, for output
    std::string category;  // the flow events' "cat" and "name"
    std::string name;
};
// Decodes an "s", "t" or "f" record (`extra`: the fields outside the slots,
// where id, id2 and bp are).  An error when the flow has no usable id.
std::string decode_flow_event(char phase, const std::vector<Slot>& s, std::string_view extra, FlowPoint& out);
// A slice's version 2 flow fields, if `extra` has a bind_id: up to two
// points (flow_in: an end, flow_out: a start).  An error for a bind_id that
// is neither a number nor a string.
std::string decode_bound_flows(std::string_view extra, std::vector<FlowPoint>& out);

}  // namespace nx::chrome
