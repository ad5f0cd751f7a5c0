#include "common/import/explorer_tables.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>

#include "common/io/error.h"
#include "common/io/real_path.h"
#include "common/parquet/parquet_file.h"

namespace nx {

namespace {

std::vector<std::string> list_dir(const std::string& dir) {
    std::vector<std::string> names;
    DIR* d = opendir(dir.c_str());
    if (!d) return names;
    while (dirent* ent = readdir(d)) {
        std::string n = ent->d_name;
        if (n != "." && n != "..") names.push_back(n);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

bool is_dir(const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

const std::regex& table_file() {
    static const std::regex re(R"(^([A-Z][A-Za-z0-9]*)(_([0-9]+))?\.parquet$)");
    return re;
}

}  // namespace

const std::vector<std::string>* ExplorerTables::find(const std::string& table) const {
    auto it = tables.find(table);
    return it == tables.end() ? nullptr : &it->second;
}

ExplorerTables scan_explorer_dir(const std::string& dir) {
    ExplorerTables out;
    out.dir = dir;
    std::map<std::string, std::vector<std::pair<long, std::string>>> parts;
    for (const std::string& name : list_dir(dir)) {
        std::smatch m;
        if (!std::regex_match(name, m, table_file())) continue;
        long index = m[3].matched ? (m[3].length() > 6 ? -2 : std::stol(m[3].str())) : -1;
        if (index == -2) throw Error("split number too large", dir + "/" + name);
        parts[m[1].str()].emplace_back(index, dir + "/" + name);
    }
    for (auto& [table, files] : parts) {
        std::sort(files.begin(), files.end());
        long expect = 0;
        std::vector<std::string> paths;
        for (auto& [index, path] : files) {
            if (index >= 0) {
                if (index != expect && !out.broken.count(table))
                    out.broken[table] = "split table " + table + " has no part " + std::to_string(expect) + " (" + table +
                                        "_" + std::to_string(expect) + ".parquet) before part " + std::to_string(index) +
                                        ": the profile is incomplete";
                expect = index + 1;
            }
            paths.push_back(path);
        }
        out.tables[table] = std::move(paths);
    }
    return out;
}

std::string incomplete_reason(const ExplorerTables& t) {
    int64_t rows = 0;
    size_t files = 0;
    for (const auto& [table, paths] : t.tables) {
        int64_t table_rows = 0;
        for (const std::string& path : paths) {
            ++files;
            try {
                table_rows += parquet::ParquetFile::open(path)->num_rows();
            } catch (const Error& e) {
                return path.substr(path.find_last_of('/') + 1) + " has no valid footer (" + e.what() + ")";
            }
        }
        if (table == "Summary" && table_rows == 0) return "Summary.parquet has no rows: the viewer fills it last";
        rows += table_rows;
    }
    if (files > 1 && rows == 0) return "none of its " + std::to_string(files) + " tables has a row";
    return {};
}

bool is_explorer_profile_dir(const std::string& dir) {
    for (const std::string& name : list_dir(dir))
        if (std::regex_match(name, table_file())) return true;
    return false;
}

namespace {

// Profile directories strictly below `dir`, `levels` deep at most, sorted.
std::vector<std::string> profiles_below(const std::string& dir, int levels) {
    std::vector<std::string> out;
    std::vector<std::pair<std::string, int>> todo{{dir, 0}};
    while (!todo.empty()) {
        auto [d, depth] = todo.back();
        todo.pop_back();
        for (const std::string& name : list_dir(d)) {
            std::string p = d + "/" + name;
            if (!is_dir(p)) continue;
            if (is_explorer_profile_dir(p)) out.push_back(p);
            else if (depth + 1 < levels) todo.emplace_back(p, depth + 1);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// "a/b/c" -> "a/b"; empty at the top ("c", "/c").
std::string parent_dir(std::string p) {
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    size_t slash = p.find_last_of('/');
    if (slash == std::string::npos || slash == 0) return {};
    return p.substr(0, slash);
}

// The Explorer data path a profile directory lies in: the directory above
// its `profiles/` component (data-path/profiles/global/NAME@latest); empty
// when there is none.
std::string data_path_root(const std::string& dir) {
    std::string p = real_path(dir);
    size_t at = p.rfind("/profiles/");
    return at == std::string::npos || at == 0 ? std::string() : p.substr(0, at);
}

bool is_system_profile_dir(const std::string& dir) {
    for (const std::string& name : list_dir(dir))
        if (name.rfind("DeviceProfileList", 0) == 0 && std::regex_match(name, table_file())) return true;
    return false;
}

}  // namespace

std::vector<std::string> find_explorer_profiles(const std::string& dir) {
    std::vector<std::string> found = is_explorer_profile_dir(dir) ? std::vector<std::string>{dir} : profiles_below(dir, 3);
    std::vector<std::string> out;
    std::set<std::string> seen;
    auto add = [&](const std::string& p) {
        if (seen.insert(real_path(p)).second) out.push_back(p);
    };
    for (const std::string& p : found) {
        add(p);
        if (is_system_profile_dir(p))
            for (auto& [name, device] : linked_device_dirs(p)) add(device);
    }
    return out;
}

std::string profile_dir_name(std::string_view dir) {
    while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
    if (size_t slash = dir.find_last_of('/'); slash != std::string_view::npos) dir.remove_prefix(slash + 1);
    return std::string(dir.substr(0, dir.find('@')));
}

std::map<std::string, std::string> linked_device_dirs(const std::string& system_dir) {
    std::map<std::string, std::string> out;
    std::string self = real_path(system_dir);
    auto take = [&](const std::vector<std::string>& dirs) {
        for (const std::string& p : dirs)
            if (real_path(p) != self) out.emplace(profile_dir_name(p), p);
    };
    take(profiles_below(system_dir, 3));
    std::string parent = parent_dir(system_dir);
    if (!parent.empty()) take(profiles_below(parent, 1));
    if (std::string root = data_path_root(system_dir); !root.empty()) take(profiles_below(root, 4));
    return out;
}

std::vector<std::string> system_profiles_near(const std::string& device_dir) {
    std::vector<std::string> out;
    std::set<std::string> seen{real_path(device_dir)};
    auto consider = [&](const std::string& d) {
        if (is_system_profile_dir(d) && seen.insert(real_path(d)).second) out.push_back(d);
    };
    std::string dir = device_dir;
    for (int up = 0; up < 3; ++up) {
        std::string parent = parent_dir(dir);
        if (parent.empty()) break;
        consider(parent);
        for (const std::string& sibling : profiles_below(parent, 1)) consider(sibling);
        dir = parent;
    }
    return out;
}

}  // namespace nx
