#include "common/store/temp_limit.h"

#include <sqlite3.h>

#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/io/error.h"

namespace nx {

namespace {

struct Counted {
    sqlite3_file base;   // our methods
    sqlite3_int64 size;  // bytes of this file counted
    sqlite3_file* real;  // the default VFS's file, right after this struct
};

sqlite3_vfs g_vfs;
sqlite3_vfs* g_real = nullptr;
std::atomic<int64_t> g_limit{0}, g_used{0}, g_peak{0};
std::atomic<bool> g_reached{false};
bool g_installed = false;

sqlite3_file* real_of(sqlite3_file* f) { return reinterpret_cast<Counted*>(f)->real; }

// Counts `to` as the file's size; false when that passes the limit.
bool resize(Counted* c, sqlite3_int64 to) {
    if (to <= c->size) {
        g_used -= c->size - to;
        c->size = to;
        return true;
    }
    int64_t grown = g_used.fetch_add(to - c->size) + (to - c->size);
    int64_t limit = g_limit.load();
    if (limit > 0 && grown > limit) {
        g_used -= to - c->size;
        g_reached = true;
        return false;
    }
    c->size = to;
    for (int64_t peak = g_peak.load(); grown > peak && !g_peak.compare_exchange_weak(peak, grown);) {
    }
    return true;
}

int x_close(sqlite3_file* f) {
    Counted* c = reinterpret_cast<Counted*>(f);
    resize(c, 0);
    int rc = c->real->pMethods ? c->real->pMethods->xClose(c->real) : SQLITE_OK;
    return rc;
}
int x_read(sqlite3_file* f, void* p, int n, sqlite3_int64 off) { return real_of(f)->pMethods->xRead(real_of(f), p, n, off); }
int x_write(sqlite3_file* f, const void* p, int n, sqlite3_int64 off) {
    Counted* c = reinterpret_cast<Counted*>(f);
    if (off + n > c->size && !resize(c, off + n)) return SQLITE_FULL;
    return c->real->pMethods->xWrite(c->real, p, n, off);
}
int x_truncate(sqlite3_file* f, sqlite3_int64 size) {
    Counted* c = reinterpret_cast<Counted*>(f);
    int rc = c->real->pMethods->xTruncate(c->real, size);
    if (rc == SQLITE_OK && size < c->size) resize(c, size);
    return rc;
}
int x_sync(sqlite3_file* f, int flags) { return real_of(f)->pMethods->xSync(real_of(f), flags); }
int x_file_size(sqlite3_file* f, sqlite3_int64* size) { return real_of(f)->pMethods->xFileSize(real_of(f), size); }
int x_lock(sqlite3_file* f, int l) { return real_of(f)->pMethods->xLock(real_of(f), l); }
int x_unlock(sqlite3_file* f, int l) { return real_of(f)->pMethods->xUnlock(real_of(f), l); }
int x_check_reserved(sqlite3_file* f, int* out) { return real_of(f)->pMethods->xCheckReservedLock(real_of(f), out); }
int x_file_control(sqlite3_file* f, int op, void* arg) { return real_of(f)->pMethods->xFileControl(real_of(f), op, arg); }
int x_sector_size(sqlite3_file* f) { return real_of(f)->pMethods->xSectorSize(real_of(f)); }
int x_device_characteristics(sqlite3_file* f) { return real_of(f)->pMethods->xDeviceCharacteristics(real_of(f)); }

// Temporary files only: their methods stop at version 1 (no shared memory,
// no memory mapping), which SQLite never asks of them.
const sqlite3_io_methods kCountedMethods = {
    1,         x_close,       x_read,        x_write,
    x_truncate, x_sync,       x_file_size,   x_lock,
    x_unlock,  x_check_reserved, x_file_control, x_sector_size,
    x_device_characteristics, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
};

constexpr int kTemporary =
    SQLITE_OPEN_TEMP_DB | SQLITE_OPEN_TEMP_JOURNAL | SQLITE_OPEN_TRANSIENT_DB | SQLITE_OPEN_SUBJOURNAL;

int x_open(sqlite3_vfs*, const char* name, sqlite3_file* f, int flags, int* out_flags) {
    Counted* c = reinterpret_cast<Counted*>(f);
    if (!(flags & kTemporary) && name != nullptr) {
        // Not a temporary file: the default VFS's own file in our place.
        return g_real->xOpen(g_real, name, f, flags, out_flags);
    }
    c->base.pMethods = nullptr;
    c->size = 0;
    c->real = reinterpret_cast<sqlite3_file*>(c + 1);
    int rc = g_real->xOpen(g_real, name, c->real, flags, out_flags);
    c->base.pMethods = rc == SQLITE_OK ? &kCountedMethods : nullptr;
    return rc;
}

}  // namespace

TempLimit::TempLimit(int64_t bytes) {
    g_limit = bytes;
    g_used = 0;
    g_peak = 0;
    g_reached = false;
    if (g_installed) return;
    g_real = sqlite3_vfs_find(nullptr);
    if (!g_real) throw Error("internal: SQLite has no default VFS");
    g_vfs = *g_real;
    g_vfs.zName = "nx-temp-limit";
    // Room for either file: ours in front of the default VFS's, or its own.
    g_vfs.szOsFile = static_cast<int>(sizeof(Counted)) + g_real->szOsFile;
    g_vfs.xOpen = x_open;
    if (sqlite3_vfs_register(&g_vfs, 1) != SQLITE_OK) throw Error("internal: cannot register nx's SQLite VFS");
    g_installed = true;
}

TempLimit::~TempLimit() { g_limit = 0; }

int64_t default_temp_limit() {
    // Where SQLite puts its temporary files (os_unix.c's order).
    std::string dir = "/tmp";
    const char* candidates[] = {std::getenv("SQLITE_TMPDIR"), std::getenv("TMPDIR"), "/var/tmp", "/usr/tmp", "/tmp"};
    for (const char* candidate : candidates)
        if (candidate && *candidate && access(candidate, W_OK | X_OK) == 0) {
            dir = candidate;
            break;
        }
    constexpr int64_t kMost = int64_t{4} << 30, kLeast = int64_t{64} << 20;
    struct statvfs fs {};
    if (statvfs(dir.c_str(), &fs) != 0) return kMost;
    int64_t half_free = static_cast<int64_t>(fs.f_bavail) * static_cast<int64_t>(fs.f_frsize) / 2;
    return std::max(kLeast, std::min(kMost, half_free));
}

bool TempLimit::reached() const { return g_reached.load(); }
int64_t TempLimit::peak_bytes() const { return g_peak.load(); }

}  // namespace nx
