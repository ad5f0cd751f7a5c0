// Profiles stored in a study database, replayed as an importer would send
// them: the profile's header, the source's own metrics, every event and
// counter sample, the source's tables kept as they are, then its flows.  nx-convert reads a database argument this
// way, so `nx-convert --to pftrace -o t.pftrace study.db` writes the trace of
// a stored profile (users keep databases, not source files).
//
// What the database does not keep is not replayed: a Chrome trace's process
// and thread ids (nx's own come back).
#pragma once

#include <string>
#include <vector>

#include "common/profile/profile_sink.h"
#include "common/store/store.h"

namespace nx {

// Sends the profiles named (by name or id; every profile when `names` is
// empty) to `out`.  Throws Error naming the database for a name that matches
// no profile, or for a database without profiles.
void replay_stored_profiles(Store& store, const std::vector<std::string>& names, ImportHandler& out);

// True when the path is a regular file that starts with SQLite's magic
// (never for a pipe or a device, which it leaves unread).
bool is_study_database(const std::string& path);

}  // namespace nx
