// One stored profile read back for the SQL functions that compute from its
// events (regions, critical path): where a profile of a possibly merged
// database lives, a scan of its events as Events, and a scan of the source
// rows it kept (Explorer tables nx does not map).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/io/error.h"
#include "common/profile/event.h"
#include "common/profile/profile.h"
#include "common/store/table_function.h"

namespace nx {


// One profile of a (possibly merged) database, as the scans need it.
struct DbProfile {
    bool found = false;
    std::string schema;
    int64_t local = 0;
    bool ranged = false;
    int64_t first = 0, last = 0, start = 0, end = 0;
    ProfileInfo info;
    std::string record;

    DbProfile(sqlite3* db, int64_t profile_id);

    // "profile_id = ?1 [AND id BETWEEN ?2 AND ?3]" bound on `st`.
    std::string where(const char* alias) const {
        std::string a = alias;
        std::string w = a + "profile_id = ?1";
        if (ranged) w += " AND " + a + "id BETWEEN ?2 AND ?3";
        return w;
    }
    void bind(ConnStmt& st) const {
        st.bind(1, local);
        if (ranged) st.bind(2, first).bind(3, last);
    }
};


class Store;
// The database id of the profile with this uid (ProfileInfo::id); throws
// Error naming the store when it is not there.
int64_t stored_profile_rowid(Store& store, const std::string& uid);

// Every event of the profile, as the importer gave it, to `fn`; `where`
// adds a condition on the event table (e.g. "type = 'instruction'").
// `kept_args`: the args of events whose source is kept in place are read
// from it (kept_sources.h); without, such events come with no args and with
// Event::src_table (the database's source_ref id) and src_row, for a caller
// that reads only a column or two of the source itself.
void scan_profile_events(sqlite3* db, const DbProfile& p, const std::function<void(const Event&)>& fn,
                         std::string_view where = {}, bool kept_args = true);

// Every row the profile kept of source table `tbl` (a JSON object text) to
// `fn`; none in a database from before source tables.
void scan_source_rows(sqlite3* db, const DbProfile& p, std::string_view tbl,
                      const std::function<void(std::string_view)>& fn);

}  // namespace nx
