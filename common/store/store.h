// The study database (nx(7) DATABASE SCHEMA): opening it in the right mode,
// creating and checking the schema, and merging several databases into one
// view.  Loading is DbSink's (db_sink.h); the SQL functions are
// sql_functions.h's; the read-only lock is read_only.h's.
//
// Write access uses WAL with a busy timeout so several cron jobs can append to
// one history database.
#pragma once

#include <string>
#include <vector>

#include "common/store/sqlite_db.h"

namespace nx {

class Store {
public:
    enum class Access { read_only, read_write };
    // read_write creates the file and the schema when missing.  read_only
    // refuses to write whatever SQL it is given (query_only + authorizer).
    // `also` are further databases queried together with the first: their
    // tables appear merged (temp views), ids offset by 2^40 per database.
    Store(const std::string& path, Access access, const std::vector<std::string>& also = {});

    SqliteDb& db() { return db_; }
    const std::string& path() const { return db_.path(); }
    Access access() const { return access_; }

    // Id offset between merged databases (see `also`).
    static constexpr int64_t kIdStride = int64_t{1} << 40;

    ~Store();
    // When this Store created the file and it still holds no profile and no
    // run when the Store is destroyed (the import failed), the file and its
    // -wal/-shm are removed: a failed import into a new database leaves
    // nothing behind.  (A Store that fails to open removes a file it created.)
    void remove_if_left_empty();

private:
    void init_schema();
    void add_missing_columns();
    void merge_databases(const std::vector<std::string>& also);
    // A temp view explorer_<Table> per kept source table (source_table).
    void create_source_views();
    // Whether any profile keeps its source in place (kept_sources.h).
    bool has_kept_sources();
    // Removes a file the Store created when armed; declared before db_ so it
    // runs after the connection is closed.
    // Every Store holds a shared flock on its database file (lock_fd), so a
    // Store that created the file and failed removes it only when an
    // exclusive flock shows no other nx process has it open: concurrent
    // writers never lose the file under them.
    struct NewFile {
        std::string path;
        bool armed = false;
        int lock_fd = -1;
        ~NewFile();
    };
    void hold_file_lock();
    NewFile new_file_;
    bool created_ = false;
    SqliteDb db_;
    Access access_;
};

}  // namespace nx
