// A path as the file system resolves it: absolute, symlinks followed.  What
// names a file the same way whatever the current directory or the links
// used to reach it (profile ids, a database's record of its sources, one
// directory found twice).
#pragma once

#include <string>

namespace nx {

// realpath(3) of `path`; the path as given when it cannot be resolved (it
// does not exist, or a component cannot be searched).
std::string real_path(const std::string& path);

}  // namespace nx
