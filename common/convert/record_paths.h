// Files named inside records (a capture record's profile.path, ntff, neff)
// come from whoever wrote the records, so nx-convert reads them only inside
// the allowed roots: the record file's own directory, and the --root
// directories (default: the current directory tree).  A relative path is
// taken against the record file's directory when it exists there, else
// against the current directory.  Symlinks are resolved before the check.
#pragma once

#include <string>
#include <vector>

namespace nx {

class RecordPaths {
public:
    // `roots` empty means the current directory.
    explicit RecordPaths(const std::vector<std::string>& roots);
    // Resolves `named` (the value of `field` in a record of `record_file`,
    // "-" for stdin).  Throws Error (no file/line: the caller adds them)
    // when it lies outside every allowed root.
    std::string resolve(const std::string& named, const std::string& record_file, const char* field) const;

private:
    std::vector<std::string> roots_;  // real paths
};

}  // namespace nx
