// The insert limit for ingest benchmarks: SQLite alone inserting N rows shaped
// like nx events (same columns, similar text), prepared statement, one
// transaction, WAL, as nx-convert's writer does, without any parsing.
//   bench-sqlite_insert DB N
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: bench-sqlite_insert DB N\n");
        return 2;
    }
    std::string path = argv[1];
    long n = std::atol(argv[2]);
    for (const char* suffix : {"", "-wal", "-shm"}) unlink((path + suffix).c_str());
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3* db;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr))
        return 1;
    sqlite3_exec(db,
                 "PRAGMA page_size=65536; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-16384;"
                 "CREATE TABLE event(id INTEGER PRIMARY KEY, profile_id INTEGER, track_id INTEGER, type TEXT, ts INTEGER,"
                 " dur INTEGER, name TEXT, opcode TEXT, hlo_id INTEGER, layer_id INTEGER, bytes INTEGER, flops REAL,"
                 " model_flops REAL, dma_kind TEXT, tensor TEXT, depth INTEGER, args TEXT);",
                 nullptr, nullptr, nullptr);
    auto t0 = std::chrono::steady_clock::now();
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_stmt* s;
    sqlite3_prepare_v2(db, "INSERT INTO event VALUES (NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &s, nullptr);
    const std::string args =
        "{\"operands\":\"S[5] (Tensor)++@complete src=fp16@0x5600[1,0,0][3,1,1] 3*128\",\"pc\":1234,\"id\":5678,"
        "\"subgroup\":\"Tensor\",\"inst_dep_ids\":[5677]}";
    for (long i = 0; i < n; ++i) {
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
        if (sqlite3_step(s) != SQLITE_DONE) return 1;
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("{\"name\":\"sqlite_insert\",\"value\":%.6f,\"unit\":\"s\"}\n", secs);
    return 0;
}
