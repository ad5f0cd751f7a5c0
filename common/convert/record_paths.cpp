#include "common/convert/record_paths.h"

#include <limits.h>
#include <sys/stat.h>

#include <cstdlib>

#include "common/io/error.h"

namespace nx {

namespace {

std::string real(const std::string& path) {
    char buf[PATH_MAX];
    return ::realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

std::string dir_of(const std::string& file) {
    size_t slash = file.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : file.substr(0, slash);
}

bool under(const std::string& path, const std::string& root) {
    if (root == "/") return true;
    return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/');
}

bool exists(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0;
}

}  // namespace

RecordPaths::RecordPaths(const std::vector<std::string>& roots) {
    for (const std::string& r : roots.empty() ? std::vector<std::string>{"."} : roots) {
        std::string rp = real(r);
        if (rp.empty()) throw Error("cannot use as --root: no such directory", r);
        roots_.push_back(rp);
    }
}

std::string RecordPaths::resolve(const std::string& named, const std::string& record_file, const char* field) const {
    bool from_file = !record_file.empty() && record_file != "-";
    std::string record_dir = from_file ? real(dir_of(record_file)) : std::string();
    std::string path = named;
    if (!named.empty() && named[0] != '/' && from_file && exists(dir_of(record_file) + "/" + named))
        path = dir_of(record_file) + "/" + named;
    std::string rp = real(path);
    if (rp.empty()) return path;  // missing: opening it says so
    if (!record_dir.empty() && under(rp, record_dir)) return path;
    for (const std::string& root : roots_)
        if (under(rp, root)) return path;
    std::string roots;
    for (const std::string& root : roots_) roots += (roots.empty() ? "" : ", ") + root;
    throw Error(std::string("refusing to read ") + field + " '" + named + "': it resolves to " + rp +
                ", outside the allowed roots (" + roots + (record_dir.empty() ? "" : ", " + record_dir) +
                "); add --root DIR to allow it");
}

}  // namespace nx
