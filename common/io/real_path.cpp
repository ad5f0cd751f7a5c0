// real_path (real_path.h).
#include "common/io/real_path.h"

#include <climits>
#include <cstdlib>

namespace nx {

std::string real_path(const std::string& path) {
    char buf[PATH_MAX];
    return ::realpath(path.c_str(), buf) ? std::string(buf) : path;
}

}  // namespace nx
