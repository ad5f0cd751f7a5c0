#include "common/io/data_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

namespace nx {

namespace {
bool exists(const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0;
}

std::string executable_dir() {
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    std::string path(buf, static_cast<size_t>(n));
    return path.substr(0, path.find_last_of('/'));
}
}  // namespace

std::string find_data_path(const std::string& relative) {
    if (const char* env = std::getenv("NX_DATA_DIR"); env && *env) {
        std::string p = std::string(env) + "/" + relative;
        if (exists(p)) return p;
    }
    std::string exe = executable_dir();
    if (!exe.empty()) {
        for (const char* up : {"/../share/nx/", "/../../"}) {
            std::string p = exe + up + relative;
            char real[PATH_MAX];
            if (exists(p)) return ::realpath(p.c_str(), real) ? std::string(real) : p;
        }
    }
    return {};
}

}  // namespace nx
