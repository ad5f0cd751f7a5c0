// Outputs never overwrite what the tool reads.
//
// Inputs and study databases register themselves when they are opened; an
// output file (AtomicFile) is checked when it is created and again just before
// it is renamed into place.  Files are compared by device and inode, so a
// symlink or a hard link to an input is caught too, and a database's -wal,
// -shm and -journal files count as the database.
#pragma once

#include <sys/stat.h>

#include <string>

namespace nx {

// A file the tool reads from this open descriptor (regular files only; pipes
// and terminals are ignored).  `name` is used in the refusal message.
void guard_input_fd(int fd, const std::string& name);
// A file the tool reads by name (a command-line argument); missing files are ignored.
void guard_input_path(const std::string& path);
// A study database in use (with its -wal, -shm and -journal files).
void guard_database(const std::string& path);
// Throws Error naming `path` when writing it would replace a guarded file.
void check_output_path(const std::string& path);
// The same for a file already looked at (`st`: what replacing it would replace).
void check_output_stat(const struct stat& st, const std::string& path);

}  // namespace nx
