// One stored profile read back for the SQL functions that compute from its
// events (regions, critical path): a plain prepared statement over a raw
// handle (what SQLite's virtual tables are given), where a profile of a
// possibly merged database lives, and a scan of its events as Events.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/io/error.h"
#include "common/profile/event.h"
#include "common/profile/profile.h"

namespace nx {

struct ProfileStmt {
    sqlite3_stmt* s = nullptr;
    sqlite3* db;
    ProfileStmt(sqlite3* d, const std::string& sql) : db(d) {
        if (sqlite3_prepare_v2(d, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) throw Error(sqlite3_errmsg(d));
    }
    ~ProfileStmt() { sqlite3_finalize(s); }
    bool step() {
        int rc = sqlite3_step(s);
        if (rc == SQLITE_ROW) return true;
        if (rc != SQLITE_DONE) throw Error(sqlite3_errmsg(db));
        return false;
    }
    std::string_view text(int col) const {
        const unsigned char* t = sqlite3_column_text(s, col);
        return t ? std::string_view(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(s, col)))
                 : std::string_view();
    }
    bool null(int col) const { return sqlite3_column_type(s, col) == SQLITE_NULL; }
    int64_t i64(int col) const { return sqlite3_column_int64(s, col); }
    double f64(int col) const { return sqlite3_column_double(s, col); }
};

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
    void bind(ProfileStmt& st) const {
        sqlite3_bind_int64(st.s, 1, local);
        if (ranged) {
            sqlite3_bind_int64(st.s, 2, first);
            sqlite3_bind_int64(st.s, 3, last);
        }
    }
};


class Store;
// The database id of the profile with this uid (ProfileInfo::id); throws
// Error naming the store when it is not there.
int64_t stored_profile_rowid(Store& store, const std::string& uid);

// Every event of the profile, as the importer gave it, to `fn`; `where`
// adds a condition on the event table (e.g. "type = 'instruction'").
void scan_profile_events(sqlite3* db, const DbProfile& p, const std::function<void(const Event&)>& fn,
                         std::string_view where = {});

}  // namespace nx
