// Temporary files and directories in $TMPDIR (default /tmp) that are removed
// when they go out of scope, also when an error unwinds the stack; a
// temporary file is also removed if a signal stops the tool
// (register_temp_path).  The converter runs profilers into them, and
// importers that read their input twice copy standard input into one.
#pragma once

#include <string>

namespace nx {

class TempPath {
public:
    // An empty file named nx-XXXXXX<suffix>.
    explicit TempPath(const char* suffix);
    ~TempPath();
    TempPath(const TempPath&) = delete;
    TempPath& operator=(const TempPath&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// A directory for a profiler's Parquet output, removed with its files (the
// tables are flat: no subdirectories).
class TempDirectory {
public:
    TempDirectory();
    ~TempDirectory();
    TempDirectory(const TempDirectory&) = delete;
    TempDirectory& operator=(const TempDirectory&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace nx
