// Output files that appear whole or not at all.
// AtomicFile writes to ".<name>.tmp.XXXXXX" in the same directory and renames it
// over <path> on commit() (refusing a path that names an input or a database in
// use: file_guard.h; keeping an existing file's mode, else honouring the umask); if the process fails, is interrupted (SIGINT/SIGTERM)
// or the object is destroyed uncommitted, the temporary file is removed.
// A path that names a device or FIFO (/dev/null, /dev/stdout) is written in
// place, never replaced.
//
// In a folder nx owns (a dataset: DirHandle), the file is made by name in the
// open folder, never following a link, never written in place, under a
// temporary name that carries the writer's tag (".<name>.tmp.<tag>.XXXXXX"),
// and a set of such files can be finished first and published one by one
// later (finish_temporary(), publish()): the dataset's commit protocol.
#pragma once

#include <sys/types.h>
#include <zlib.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "common/io/dir_handle.h"
#include "common/io/output.h"

namespace nx {

class AtomicFile {
public:
    // gzip: write the file gzip-compressed (its name should end in .gz).
    explicit AtomicFile(std::string path, bool gzip = false);
    // The file `name` in `dir` (see above); `tag` names the writer.
    AtomicFile(const DirHandle& dir, std::string name, std::string_view tag);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();

    Output& out() { return *out_; }
    const std::string& path() const { return path_; }
    // Flush, fsync and rename into place.  Throws Error on failure (and leaves
    // nothing behind).
    void commit();
    // The same, into `path` instead (a file whose name was known only once
    // it was written: one file system, the temporary file's).
    void commit_as(std::string path);
    // Flush, fsync (unless !sync) and close the temporary file and keep it,
    // to be published with others (folder files only).  Throws Error on
    // failure.
    void finish_temporary(bool sync = true);
    // The temporary file's name in its folder (folder files only).
    const std::string& temp_name() const { return temp_name_; }
    // After finish_temporary(): renames the temporary file to `name` in `to`.
    void publish(const DirHandle& to, std::string_view name);

private:
    void open_stream(int fd, bool gzip);
    void close_and_sync(bool sync = true);
    void discard_temp();
    void move_into_place();
    std::string path_;
    std::string temp_path_;
    // Folder files: a duplicate of the folder's descriptor, and the names in it.
    int dir_fd_ = -1;
    std::string temp_name_;
    std::FILE* stream_ = nullptr;
    gzFile gz_ = nullptr;
    int sync_fd_ = -1;  // a duplicate of the file's descriptor, to fsync after gzclose
    std::unique_ptr<Output> out_;
    bool committed_ = false, finished_ = false;
};

// The mode an output file gets: an existing file keeps its mode, a new one
// gets 0666 less the umask (what the shell's `>` gives).
mode_t output_file_mode(const std::string& path);

// Registers a path to unlink if the process is killed by SIGINT/SIGTERM/SIGHUP.
// Used by AtomicFile and by anything else that creates temporary files.
void register_temp_path(const std::string& path);
void unregister_temp_path(const std::string& path);
// Installs the signal handlers (idempotent).  Called by run_tool.
void install_cleanup_handlers();

// While one lives, SIGINT, SIGTERM and SIGHUP wait: their handler runs when
// the last one ends (a set of renames that must all happen once begun).
// SIGKILL cannot wait; what it interrupts, the dataset's journal finishes.
class DeferSignals {
public:
    DeferSignals();
    ~DeferSignals();
    DeferSignals(const DeferSignals&) = delete;
    DeferSignals& operator=(const DeferSignals&) = delete;
};

}  // namespace nx
