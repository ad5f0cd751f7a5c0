// The insert limit for ingest benchmarks: SQLite alone inserting rows into
// nx's event table, prepared statement, one transaction, WAL, page size and
// cache as nx-convert's writer sets them, without any parsing.
//   bench-sqlite_insert DB N           N synthetic rows shaped like nx events
//   bench-sqlite_insert DB --rows SRC  exactly the rows of the nx database
//                                      SRC (what nx-convert inserted: events,
//                                      slice layout, counters, source rows,
//                                      tracks, ...) into SRC's own schema and
//                                      indexes, read ahead in batches; only the
//                                      inserts are timed.  Event rows go in as
//                                      nx inserts them: 32 to a statement, ids
//                                      numbered by SQLite
// Prints {"name":"sqlite_insert","value":seconds,"unit":"s","rows":N,"cpu":seconds}
// ("cpu": the process CPU time of the same spans).
#include <sqlite3.h>
#include <unistd.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cctype>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double cpu_seconds() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void bind_synthetic(sqlite3_stmt* s, long i, const std::string& args) {
    sqlite3_bind_int64(s, 1, 1);
    sqlite3_bind_int64(s, 2, i % 22);
    sqlite3_bind_text(s, 3, "instruction", 11, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, 10261883214 + i * 60);
    sqlite3_bind_int64(s, 5, 40 + i % 200);
    sqlite3_bind_null(s, 6);
    sqlite3_bind_text(s, 7, "MATMUL", 6, SQLITE_STATIC);
    sqlite3_bind_int64(s, 8, 1 + i % 32);
    sqlite3_bind_int64(s, 9, 1 + i % 32);
    for (int c = 10; c <= 15; ++c) sqlite3_bind_null(s, c);
    sqlite3_bind_text(s, 16, args.data(), static_cast<int>(args.size()), SQLITE_STATIC);
}

// One value of a source row; text and blobs point into the batch's `bytes`.
struct Value {
    int type;
    int64_t i;
    double d;
    size_t off, len;
};

// A batch of rows of one table, `width` values each, read ahead of the timed
// inserts so reading the source costs the limit nothing.
struct Batch {
    int width = 0;
    std::vector<Value> values;
    std::string bytes;
    size_t rows() const { return width ? values.size() / static_cast<size_t>(width) : 0; }
};

// Binds the row's columns from `first_column` on at parameters base+1...
void bind_row(sqlite3_stmt* s, const Batch& b, size_t row, int first_column = 0, int base = 0) {
    for (int c = first_column; c < b.width; ++c) {
        const Value& v = b.values[row * static_cast<size_t>(b.width) + static_cast<size_t>(c)];
        int i = base + c - first_column + 1;
        switch (v.type) {
            case SQLITE_INTEGER: sqlite3_bind_int64(s, i, v.i); break;
            case SQLITE_FLOAT: sqlite3_bind_double(s, i, v.d); break;
            case SQLITE_TEXT:
                sqlite3_bind_text(s, i, b.bytes.data() + v.off, static_cast<int>(v.len), SQLITE_STATIC);
                break;
            case SQLITE_BLOB:
                sqlite3_bind_blob(s, i, b.bytes.data() + v.off, static_cast<int>(v.len), SQLITE_STATIC);
                break;
            default: sqlite3_bind_null(s, i);
        }
    }
}

// nx inserts its event rows 32 to a statement with ids left to SQLite
// (common/store/event_rows.h): so does the limit, or it would be paying for
// statements nx does not run.  A fresh database numbers them as nx did.
constexpr int kEventRowsPerInsert = 32;

// Reads up to `max` rows after rowid `after` from the query's table (its first
// column is the rowid, the rest the table's columns).
size_t read_batch(sqlite3_stmt* q, int64_t& after, size_t max, Batch& b) {
    b.width = sqlite3_column_count(q) - 1;
    b.values.clear();
    b.bytes.clear();
    sqlite3_bind_int64(q, 1, after);
    sqlite3_bind_int64(q, 2, static_cast<int64_t>(max));
    while (sqlite3_step(q) == SQLITE_ROW) {
        after = sqlite3_column_int64(q, 0);
        for (int c = 1; c <= b.width; ++c) {
            Value v{sqlite3_column_type(q, c), 0, 0, 0, 0};
            if (v.type == SQLITE_INTEGER) v.i = sqlite3_column_int64(q, c);
            if (v.type == SQLITE_FLOAT) v.d = sqlite3_column_double(q, c);
            if (v.type == SQLITE_TEXT || v.type == SQLITE_BLOB) {
                const void* p = v.type == SQLITE_TEXT ? static_cast<const void*>(sqlite3_column_text(q, c))
                                                      : sqlite3_column_blob(q, c);
                v.len = static_cast<size_t>(sqlite3_column_bytes(q, c));
                v.off = b.bytes.size();
                b.bytes.append(static_cast<const char*>(p), v.len);
            }
            b.values.push_back(v);
        }
    }
    sqlite3_reset(q);
    return b.rows();
}

// SRC's tables and indexes, in the order SRC created them (nx creates its
// indexes with the schema, before any row, so the inserts maintain them).
struct Schema {
    std::vector<std::string> tables, ddl;
    std::vector<bool> rowid;  // per table: false for a WITHOUT ROWID table
};

bool read_schema(sqlite3* src, Schema& out) {
    sqlite3_stmt* q;
    if (sqlite3_prepare_v2(src,
                           "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
                           " AND type IN ('table', 'index') ORDER BY rowid",
                           -1, &q, nullptr))
        return false;
    while (sqlite3_step(q) == SQLITE_ROW) {
        std::string type = reinterpret_cast<const char*>(sqlite3_column_text(q, 0));
        std::string sql = reinterpret_cast<const char*>(sqlite3_column_text(q, 2));
        if (type == "table") {
            out.tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(q, 1)));
            std::string upper = sql;
            for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            out.rowid.push_back(upper.find("WITHOUT ROWID") == std::string::npos);
        }
        out.ddl.push_back(sql);
    }
    sqlite3_finalize(q);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    bool replay = argc == 4 && std::strcmp(argv[2], "--rows") == 0;
    if (argc != 3 && !replay) {
        std::fprintf(stderr, "usage: bench-sqlite_insert DB N | bench-sqlite_insert DB --rows SRC.db\n");
        return 2;
    }
    std::string path = argv[1];
    for (const char* suffix : {"", "-wal", "-shm"}) unlink((path + suffix).c_str());
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3* db;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr))
        return 1;
    // The settings nx-convert's writer uses (common/store/store.cpp).
    sqlite3_exec(db,
                 "PRAGMA page_size=65536; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-16384;"
                 "PRAGMA temp_store=FILE;",
                 nullptr, nullptr, nullptr);
    sqlite3* src = nullptr;
    Schema schema;
    if (replay) {
        if (sqlite3_open_v2(argv[3], &src, SQLITE_OPEN_READONLY, nullptr) || !read_schema(src, schema)) {
            std::fprintf(stderr, "bench-sqlite_insert: %s: %s\n", argv[3], sqlite3_errmsg(src));
            return 1;
        }
    } else {
        schema.tables = {"event"};
        schema.ddl = {
            "CREATE TABLE event(id INTEGER PRIMARY KEY, profile_id INTEGER NOT NULL, track_id INTEGER NOT NULL,"
            " type TEXT NOT NULL, ts INTEGER NOT NULL, dur INTEGER NOT NULL, name TEXT, opcode TEXT, hlo_id INTEGER,"
            " layer_id INTEGER, bytes INTEGER, flops REAL, model_flops REAL, dma_kind TEXT, tensor TEXT, depth INTEGER,"
            " args TEXT)"};
    }
    for (const std::string& ddl : schema.ddl) {
        if (sqlite3_exec(db, ddl.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
            std::fprintf(stderr, "bench-sqlite_insert: %s: %s\n", ddl.c_str(), sqlite3_errmsg(db));
            return 1;
        }
    }
    Clock::duration spent{};
    double cpu = 0, c0 = cpu_seconds();
    auto t0 = Clock::now();
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    long n = 0;
    if (replay) {
        spent += Clock::now() - t0;
        cpu += cpu_seconds() - c0;
        Batch batch;
        for (size_t t = 0; t < schema.tables.size(); ++t) {
            const std::string& table = schema.tables[t];
            // The rowid comes first so batches resume after it; the table's own
            // columns follow and are inserted as they are (an INTEGER PRIMARY
            // KEY keeps its value, as nx's ids are).  A WITHOUT ROWID table
            // (small: nx's meta and lookup tables) is read in one batch.
            sqlite3_stmt *q, *s;
            std::string select = schema.rowid[t]
                                     ? "SELECT rowid, * FROM \"" + table + "\" WHERE rowid > ?1 ORDER BY rowid LIMIT ?2"
                                     : "SELECT 0, * FROM \"" + table + "\" WHERE ?1 < 0 AND ?2 > 0";
            if (sqlite3_prepare_v2(src, select.c_str(), -1, &q, nullptr)) {
                std::fprintf(stderr, "bench-sqlite_insert: %s: %s\n", argv[3], sqlite3_errmsg(src));
                return 1;
            }
            std::string insert = "INSERT INTO \"" + table + "\" VALUES (";
            for (int c = 1; c < sqlite3_column_count(q); ++c) insert += c == 1 ? "?" : ",?";
            insert += ")";
            if (sqlite3_prepare_v2(db, insert.c_str(), -1, &s, nullptr)) {
                std::fprintf(stderr, "bench-sqlite_insert: %s: %s\n", insert.c_str(), sqlite3_errmsg(db));
                return 1;
            }
            // The event table as nx fills it: ids left to SQLite, 32 rows to a statement.
            const bool events = table == "event" && schema.rowid[t];
            sqlite3_stmt* many = nullptr;
            const int width = sqlite3_column_count(q) - 1;
            if (events) {
                std::string rows = "INSERT OR FAIL INTO event VALUES ";  // as nx's (no statement journal)
                for (int r = 0; r < kEventRowsPerInsert; ++r) {
                    rows += r ? ",(NULL" : "(NULL";
                    for (int c = 1; c < width; ++c) rows += ",?";
                    rows += ")";
                }
                std::string one = "INSERT INTO event VALUES (NULL";
                for (int c = 1; c < width; ++c) one += ",?";
                one += ")";
                sqlite3_finalize(s);
                if (sqlite3_prepare_v2(db, rows.c_str(), -1, &many, nullptr) ||
                    sqlite3_prepare_v2(db, one.c_str(), -1, &s, nullptr)) {
                    std::fprintf(stderr, "bench-sqlite_insert: event: %s\n", sqlite3_errmsg(db));
                    return 1;
                }
            }
            auto run = [&](sqlite3_stmt* st) {
                if (sqlite3_step(st) != SQLITE_DONE) {
                    std::fprintf(stderr, "bench-sqlite_insert: %s: %s\n", table.c_str(), sqlite3_errmsg(db));
                    return false;
                }
                sqlite3_reset(st);
                return true;
            };
            int64_t after = std::numeric_limits<int64_t>::min();
            while (read_batch(q, after, 50000, batch) > 0) {
                auto b0 = Clock::now();
                double cb = cpu_seconds();
                size_t r = 0;
                if (events) {
                    // The batch's whole statements; the rest one at a time, as
                    // nx inserts a profile's last rows.
                    for (; r + kEventRowsPerInsert <= batch.rows(); r += kEventRowsPerInsert) {
                        for (int k = 0; k < kEventRowsPerInsert; ++k)
                            bind_row(many, batch, r + static_cast<size_t>(k), 1, k * (width - 1));
                        if (!run(many)) return 1;
                    }
                }
                for (; r < batch.rows(); ++r) {
                    bind_row(s, batch, r, events ? 1 : 0);
                    if (!run(s)) return 1;
                }
                spent += Clock::now() - b0;
                cpu += cpu_seconds() - cb;
                n += static_cast<long>(batch.rows());
            }
            sqlite3_finalize(q);
            sqlite3_finalize(s);
            sqlite3_finalize(many);
        }
        t0 = Clock::now();
        c0 = cpu_seconds();
        sqlite3_close(src);
    } else {
        sqlite3_stmt* s;
        sqlite3_prepare_v2(db, "INSERT INTO event VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &s, nullptr);
        n = std::atol(argv[2]);
        const std::string args =
            "{\"operands\":\"S[5] (Tensor)++@complete src=fp16@0x5600[1,0,0][3,1,1] 3*128\",\"pc\":1234,\"id\":5678,"
            "\"subgroup\":\"Tensor\",\"inst_dep_ids\":[5677]}";
        for (long i = 0; i < n; ++i) {
            bind_synthetic(s, i, args);
            if (sqlite3_step(s) != SQLITE_DONE) return 1;
            sqlite3_reset(s);
        }
        sqlite3_finalize(s);
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    spent += Clock::now() - t0;
    cpu += cpu_seconds() - c0;
    double secs = std::chrono::duration<double>(spent).count();
    std::printf("{\"name\":\"sqlite_insert\",\"value\":%.6f,\"unit\":\"s\",\"rows\":%ld,\"cpu\":%.6f}\n", secs, n, cpu);
    return 0;
}
