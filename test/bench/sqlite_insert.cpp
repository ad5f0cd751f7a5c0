// The insert limit for ingest benchmarks: SQLite alone inserting rows into
// nx's event table, prepared statement, one transaction, WAL, page size and
// cache as nx-convert's writer sets them, without any parsing.
//   bench-sqlite_insert DB N           N synthetic rows shaped like nx events
//   bench-sqlite_insert DB --rows SRC  exactly the event rows of the nx
//                                      database SRC (what nx-convert inserted),
//                                      read ahead in batches; only the inserts
//                                      are timed
// Prints {"name":"sqlite_insert","value":seconds,"unit":"s","rows":N,"cpu":seconds}
// ("cpu": the process CPU time of the same spans).
#include <sqlite3.h>
#include <unistd.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kColumns = 16;  // event columns after id

double cpu_seconds() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// One source row: column types and values, text and blobs in `bytes`.
struct Row {
    int type[kColumns];
    int64_t i[kColumns];
    double d[kColumns];
    size_t off[kColumns], len[kColumns];
};

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

void bind_row(sqlite3_stmt* s, const Row& r, const std::string& bytes) {
    for (int c = 0; c < kColumns; ++c) {
        switch (r.type[c]) {
            case SQLITE_INTEGER: sqlite3_bind_int64(s, c + 1, r.i[c]); break;
            case SQLITE_FLOAT: sqlite3_bind_double(s, c + 1, r.d[c]); break;
            case SQLITE_TEXT:
                sqlite3_bind_text(s, c + 1, bytes.data() + r.off[c], static_cast<int>(r.len[c]), SQLITE_STATIC);
                break;
            case SQLITE_BLOB:
                sqlite3_bind_blob(s, c + 1, bytes.data() + r.off[c], static_cast<int>(r.len[c]), SQLITE_STATIC);
                break;
            default: sqlite3_bind_null(s, c + 1);
        }
    }
}

// Reads up to `max` rows after rowid `after` from SRC's event table.
size_t read_batch(sqlite3_stmt* q, int64_t& after, size_t max, std::vector<Row>& rows, std::string& bytes) {
    rows.clear();
    bytes.clear();
    sqlite3_bind_int64(q, 1, after);
    sqlite3_bind_int64(q, 2, static_cast<int64_t>(max));
    while (sqlite3_step(q) == SQLITE_ROW) {
        after = sqlite3_column_int64(q, 0);
        Row r;
        for (int c = 0; c < kColumns; ++c) {
            r.type[c] = sqlite3_column_type(q, c + 1);
            if (r.type[c] == SQLITE_INTEGER) r.i[c] = sqlite3_column_int64(q, c + 1);
            if (r.type[c] == SQLITE_FLOAT) r.d[c] = sqlite3_column_double(q, c + 1);
            if (r.type[c] == SQLITE_TEXT || r.type[c] == SQLITE_BLOB) {
                const void* p = r.type[c] == SQLITE_TEXT ? static_cast<const void*>(sqlite3_column_text(q, c + 1))
                                                         : sqlite3_column_blob(q, c + 1);
                r.len[c] = static_cast<size_t>(sqlite3_column_bytes(q, c + 1));
                r.off[c] = bytes.size();
                bytes.append(static_cast<const char*>(p), r.len[c]);
            }
        }
        rows.push_back(r);
    }
    sqlite3_reset(q);
    return rows.size();
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
    sqlite3_exec(db,
                 "PRAGMA page_size=65536; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-16384;"
                 "PRAGMA temp_store=FILE;"
                 "CREATE TABLE event(id INTEGER PRIMARY KEY, profile_id INTEGER NOT NULL, track_id INTEGER NOT NULL,"
                 " type TEXT NOT NULL, ts INTEGER NOT NULL, dur INTEGER NOT NULL, name TEXT, opcode TEXT, hlo_id INTEGER,"
                 " layer_id INTEGER, bytes INTEGER, flops REAL, model_flops REAL, dma_kind TEXT, tensor TEXT, depth INTEGER,"
                 " args TEXT);",
                 nullptr, nullptr, nullptr);
    sqlite3* src = nullptr;
    sqlite3_stmt* q = nullptr;
    if (replay) {
        if (sqlite3_open_v2(argv[3], &src, SQLITE_OPEN_READONLY, nullptr) ||
            sqlite3_prepare_v2(src,
                               "SELECT id, profile_id, track_id, type, ts, dur, name, opcode, hlo_id, layer_id, bytes, flops,"
                               " model_flops, dma_kind, tensor, depth, args FROM event WHERE id > ? ORDER BY id LIMIT ?",
                               -1, &q, nullptr)) {
            std::fprintf(stderr, "bench-sqlite_insert: %s: %s\n", argv[3], sqlite3_errmsg(src));
            return 1;
        }
    }
    sqlite3_stmt* s;
    sqlite3_prepare_v2(db, "INSERT INTO event VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &s, nullptr);
    Clock::duration spent{};
    double cpu = 0, c0 = cpu_seconds();
    auto t0 = Clock::now();
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    long n = 0;
    if (replay) {
        std::vector<Row> rows;
        std::string bytes;
        int64_t after = 0;
        spent += Clock::now() - t0;
        cpu += cpu_seconds() - c0;
        while (read_batch(q, after, 50000, rows, bytes) > 0) {
            auto b0 = Clock::now();
            double cb = cpu_seconds();
            for (const Row& r : rows) {
                bind_row(s, r, bytes);
                if (sqlite3_step(s) != SQLITE_DONE) return 1;
                sqlite3_reset(s);
            }
            spent += Clock::now() - b0;
            cpu += cpu_seconds() - cb;
            n += static_cast<long>(rows.size());
        }
        t0 = Clock::now();
        c0 = cpu_seconds();
        sqlite3_finalize(q);
        sqlite3_close(src);
    } else {
        n = std::atol(argv[2]);
        const std::string args =
            "{\"operands\":\"S[5] (Tensor)++@complete src=fp16@0x5600[1,0,0][3,1,1] 3*128\",\"pc\":1234,\"id\":5678,"
            "\"subgroup\":\"Tensor\",\"inst_dep_ids\":[5677]}";
        for (long i = 0; i < n; ++i) {
            bind_synthetic(s, i, args);
            if (sqlite3_step(s) != SQLITE_DONE) return 1;
            sqlite3_reset(s);
        }
    }
    sqlite3_finalize(s);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    spent += Clock::now() - t0;
    cpu += cpu_seconds() - c0;
    double secs = std::chrono::duration<double>(spent).count();
    std::printf("{\"name\":\"sqlite_insert\",\"value\":%.6f,\"unit\":\"s\",\"rows\":%ld,\"cpu\":%.6f}\n", secs, n, cpu);
    return 0;
}
