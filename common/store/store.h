// The study database (nx(7) DATABASE SCHEMA): opening it in the right mode, creating and
// checking the schema, the SQL functions nx adds (REGEXP on RE2), and DbSink,
// the ProfileSink that loads profiles transactionally.
//
// Write access uses WAL with a busy timeout so several cron jobs can append to
// one history database; an import is one transaction, and each profile a
// savepoint, so a failed or interrupted load leaves the database as it was.
#pragma once

#include <rapidjson/document.h>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/profile/profile_sink.h"
#include "common/store/sqlite_db.h"
#include "common/trace/event_spool.h"

namespace nx {

struct TraceFlow;  // trace/trace_layout.h (not included: the store needs only the name)

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
    int existing_schema_version();
    void check_schema_version(const std::string& schema, const std::string& path);
    void merge_databases(const std::vector<std::string>& also);
    // A temp view explorer_<Table> per kept source table (source_table).
    void create_source_views();
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

// Registers REGEXP (and regexp_extract) on a connection.
void register_sql_functions(sqlite3* db);

// One run record as the run history stores it (nx(7) RECORDS, kind "run").
struct RunRow {
    std::string study, name, op, backend, target, dtype, started_at, host;
    std::optional<double> median, mean, min, max, p95, stdev, n, compile_ms, tflops;
    std::string record;  // the whole record as JSON
};
// Checks and extracts a run record's fields; throws Error (no file/line: the
// caller adds them) for a missing name or a wrongly typed field.
RunRow run_row_from_record(const rapidjson::Value& rec, std::string record_json);

// Loads profiles into a Store.  All profiles of one DbSink go into one
// transaction, committed by finish(); each profile is a savepoint that
// abort_profile() rolls back (nx-convert --keep-going).  Destroyed without
// finish(), it rolls everything back.  Events are inserted as they come and
// spooled; when the profile ends it is laid out as its trace would be
// (store_layout.h): lanes, nesting and nx's counter tracks.
class DbSink : public ProfileSink {
public:
    explicit DbSink(Store& store);
    ~DbSink() override;

    void begin_profile(const ProfileInfo& info) override;
    void event(const Event& e) override;
    void source_rows(const SourceRows& rows) override;
    void flow(const Flow& f) override;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;
    void abort_profile() override;
    void finish() override;
    // Appends a run to the run history, in this sink's transaction.  The
    // same run (study, name, backend, target, start, host) is kept once.
    // Returns false when it was already there.
    bool append_run(const RunRow& run);

private:
    struct Statements;
    void ensure_transaction();
    struct TrackIds {
        int64_t id = 0;       // track.id
        uint32_t layout = 0;  // the layout spool's track index (EventSpool::track_of)
    };
    TrackIds track_id(const Event& e);
    void spool_for_layout(const Event& e, int64_t id, uint32_t track);
    void lay_out();
    int64_t string_id(std::string_view s);
    void delete_profile(const std::string& uid);

    Store& store_;
    std::unique_ptr<Statements> st_;
    bool in_transaction_ = false;
    bool in_profile_ = false;
    int64_t profile_rowid_ = 0;
    // The profile's input, named in errors about its events: they surface on
    // the database thread, maybe after the importer has moved on.
    std::string source_;
    int64_t first_event_ = 0, last_event_ = 0;
    struct StringHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
    };
    // By track_key (event.h), built in a reused string: a track change
    // (interleaved engines and queues) costs no allocation.
    std::unordered_map<std::string, TrackIds, StringHash, std::equal_to<>> tracks_;
    std::string key_, last_track_key_;
    TrackIds last_track_;
    // The profile's events as the layout reads them (store_layout.h), in a
    // smaller chunk than a trace's: the database has its own cache to keep;
    // and its flows (they order slices that start together).
    static constexpr size_t kLayoutChunkBytes = size_t{4} << 20;
    EventSpool layout_;
    std::vector<TraceFlow> layout_flows_;
    std::unordered_map<std::string, int64_t, StringHash, std::equal_to<>> strings_;
    // Consecutive events usually repeat their HLO name and layer.
    std::string last_hlo_, last_layer_;
    int64_t last_hlo_id_ = 0, last_layer_id_ = 0;
};

}  // namespace nx
