#include "common/io/file_guard.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "common/io/error.h"

namespace nx {

namespace {

struct Guarded {
    dev_t dev;
    ino_t ino;
    std::string name;
    bool database;
};

std::mutex g_mutex;
std::vector<Guarded> g_guarded;

void add(const struct stat& st, const std::string& name, bool database) {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (const Guarded& g : g_guarded)
        if (g.dev == st.st_dev && g.ino == st.st_ino && g.database >= database) return;
    g_guarded.push_back({st.st_dev, st.st_ino, name, database});
}

const Guarded* find(const struct stat& st, bool databases_only) {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (const Guarded& g : g_guarded)
        if (g.dev == st.st_dev && g.ino == st.st_ino && (g.database || !databases_only)) return &g;
    return nullptr;
}

// The path with every symlink in its directory part resolved (the file itself
// may not exist yet).
std::string resolve(const std::string& path) {
    char buf[PATH_MAX];
    if (::realpath(path.c_str(), buf)) return buf;
    size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    if (::realpath(dir.c_str(), buf)) return std::string(buf) + "/" + base;
    return path;
}

constexpr const char* kDatabaseSuffixes[] = {"-wal", "-shm", "-journal"};

}  // namespace

void guard_input_fd(int fd, const std::string& name) {
    struct stat st {};
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) add(st, name, false);
}

void guard_input_path(const std::string& path) {
    struct stat st {};
    if (path != "-" && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) add(st, path, false);
}

void guard_database(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0) add(st, path, true);
    for (const char* suffix : kDatabaseSuffixes)
        if (stat((path + suffix).c_str(), &st) == 0) add(st, path, true);
}

void check_output_stat(const struct stat& st, const std::string& path) {
    if (const Guarded* g = find(st, false))
        throw Error("refusing to overwrite " + std::string(g->database ? "the database " : "the input ") + g->name +
                        " with the output",
                    path);
}

void check_output_path(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0) check_output_stat(st, path);
    // A database's companion files, whether they exist yet or not.
    std::string resolved = resolve(path);
    for (std::string_view suffix : kDatabaseSuffixes) {
        if (resolved.size() <= suffix.size() || resolved.compare(resolved.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        std::string stem = resolved.substr(0, resolved.size() - suffix.size());
        if (stat(stem.c_str(), &st) == 0)
            if (const Guarded* g = find(st, true))
                throw Error("refusing to overwrite the " + std::string(suffix.substr(1)) + " file of the database " +
                                g->name + " with the output",
                            path);
    }
}

}  // namespace nx
