// A bound on the disk SQLite's temporary files may take (nx-query
// --temp-limit): sorts, GROUP BY and recursive queries that spill past the
// cache write temporary files, and one query that never ends filled
// /var/tmp at 160 MB a second.  A VFS in front of the default one counts the
// bytes its temporary files hold (temporary databases and journals,
// transient tables, sub-journals) and fails the write that would pass the
// limit with SQLITE_FULL, which ends the statement; the tool then names the
// limit.  The database files themselves are not counted.
#pragma once

#include <cstdint>

namespace nx {

// 4 GiB, or half the free space where SQLite writes its temporary files
// when that is less (at least 64 MiB).
int64_t default_temp_limit();

class TempLimit {
public:
    // Installs the counting VFS as the default for connections opened from
    // now on; `bytes` <= 0: no limit (the counting still runs).
    explicit TempLimit(int64_t bytes);
    ~TempLimit();
    TempLimit(const TempLimit&) = delete;
    TempLimit& operator=(const TempLimit&) = delete;
    // True once a write was refused for passing the limit.
    bool reached() const;
    // The most the temporary files held at once.
    int64_t peak_bytes() const;
};

}  // namespace nx
