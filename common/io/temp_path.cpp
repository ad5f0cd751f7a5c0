#include "common/io/temp_path.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "common/io/atomic_file.h"
#include "common/io/error.h"

namespace nx {

namespace {
std::string temp_dir() {
    const char* dir = std::getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}
}  // namespace

TempPath::TempPath(const char* suffix) {
    std::string templ = temp_dir() + "/nx-XXXXXX" + suffix;
    int fd = mkstemps(templ.data(), static_cast<int>(std::string_view(suffix).size()));
    if (fd < 0) throw Error("cannot create a temporary file in " + temp_dir());
    close(fd);
    path_ = templ;
    register_temp_path(path_);
}

TempPath::~TempPath() {
    unlink(path_.c_str());
    unregister_temp_path(path_);
}

TempDirectory::TempDirectory() {
    std::string templ = temp_dir() + "/nx-XXXXXX";
    if (!mkdtemp(templ.data())) throw Error("cannot create a temporary directory in " + temp_dir());
    path_ = templ;
}

TempDirectory::~TempDirectory() {
    if (DIR* d = opendir(path_.c_str())) {
        while (dirent* ent = readdir(d)) {
            std::string n = ent->d_name;
            if (n != "." && n != "..") unlink((path_ + "/" + n).c_str());
        }
        closedir(d);
    }
    rmdir(path_.c_str());
}

}  // namespace nx
