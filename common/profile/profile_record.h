// The "profile" record (nx(7) RECORDS): ProfileInfo + ProfileSummary as one JSON
// object, with the fields carried from the capture record kept, and the
// reverse (a record back into info and summary) for tools that read them.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <utility>
#include <vector>

#include "common/profile/profile.h"
#include "common/profile/profile_sink.h"
#include "common/records/jsonl.h"

namespace nx {

// Writes the record as one JSON object (no newline).
void write_profile_record(JsonWriter& w, const ProfileInfo& info, const ProfileSummary& summary);
std::string profile_record_json(const ProfileInfo& info, const ProfileSummary& summary);

// Reads a profile record (kind "profile").  Unknown fields go to
// info.carried_json.  Throws Error on wrong types.
void read_profile_record(const rapidjson::Value& rec, ProfileInfo& info, ProfileSummary& summary);
// The record's "core" object (the logical core as the profile described it).
CoreFacts read_core_facts(const rapidjson::Value& rec);
// The fields carried from the source (ProfileInfo::carried_json) as a JSON
// object: an empty object when there are none or they do not parse.
rapidjson::Document carried_document(const ProfileInfo& info);
// Sets carried fields of `info`: each (key, JSON text) replaces a field of
// that name, in the order given (after the fields kept from a capture
// record); text that does not parse is left out.  How every importer adds
// what it found beside the events (layers, versions, tables, counts).
void merge_carried(ProfileInfo& info, const std::vector<std::pair<std::string, std::string>>& fields);

// Writes one event record (kind "event") for `profile_id`.
void write_event_record(JsonWriter& w, const std::string& profile_id, const Event& e);
// Writes one flow record (kind "flow"): its ends are the 0-based indexes of
// event records of the same profile (from_event, to_event).
void write_flow_record(JsonWriter& w, const std::string& profile_id, const Flow& f);

}  // namespace nx
