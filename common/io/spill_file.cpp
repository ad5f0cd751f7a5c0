#include "common/io/spill_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/io/error.h"

namespace nx {

std::FILE* open_spill_file(std::string_view what) {
    const char* dir = std::getenv("TMPDIR");
    std::string templ = std::string(dir && *dir ? dir : "/tmp") + "/nx-spool.XXXXXX";
    int fd = mkstemp(templ.data());
    if (fd < 0)
        throw Error("cannot create a temporary file for the " + std::string(what) + " (" + templ + "): " +
                    std::strerror(errno));
    unlink(templ.c_str());
    std::FILE* f = fdopen(fd, "w+b");
    if (!f) {
        int err = errno;
        close(fd);
        throw Error("cannot open the temporary " + std::string(what) + " file: " + std::strerror(err));
    }
    return f;
}

}  // namespace nx
