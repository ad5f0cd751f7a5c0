// Pairs a capture directory's NTFFs with their NEFFs by hash (capture_pairs.h).
#include "common/convert/capture_pairs.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "common/import/runtime_path.h"

namespace nx {

namespace {

std::string base_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::optional<std::string> match_hash(const std::string& path, const std::regex& re) {
    std::smatch m;
    std::string name = base_name(path);
    if (!std::regex_match(name, m, re)) return std::nullopt;
    return m[1].str();
}

const std::regex& ntff_name() {
    static const std::regex re(std::string("(") + kNeffHashPattern + R"()_instid_\d+_vnc_\d+\.ntff)");
    return re;
}

const std::regex& neff_name() {
    static const std::regex re(std::string("neff_(") + kNeffHashPattern + R"()\.neff)");
    return re;
}

}  // namespace

std::optional<std::string> ntff_capture_hash(const std::string& path) { return match_hash(path, ntff_name()); }
std::optional<std::string> neff_capture_hash(const std::string& path) { return match_hash(path, neff_name()); }

std::vector<CapturePair> find_capture_pairs(const std::string& dir) {
    namespace fs = std::filesystem;
    std::vector<std::string> ntffs;
    std::map<std::string, std::vector<std::string>> neffs;  // hash -> paths
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
    if (ec) throw Error("cannot read the directory: " + ec.message(), dir);
    for (; it != end; it.increment(ec)) {
        if (ec) throw Error("cannot read the directory: " + ec.message(), dir);
        std::error_code type_ec;
        if (!it->is_regular_file(type_ec)) continue;
        std::string path = it->path().string();
        if (ntff_capture_hash(path)) ntffs.push_back(path);
        else if (auto h = neff_capture_hash(path)) neffs[*h].push_back(path);
    }
    std::sort(ntffs.begin(), ntffs.end());
    for (auto& [hash, paths] : neffs) std::sort(paths.begin(), paths.end());
    std::vector<CapturePair> out;
    for (const std::string& ntff : ntffs) {
        CapturePair p{ntff, {}, *ntff_capture_hash(ntff)};
        auto found = neffs.find(p.hash);
        if (found != neffs.end()) {
            const std::vector<std::string>& same = found->second;
            const fs::path here = fs::path(ntff).parent_path();
            auto beside = std::find_if(same.begin(), same.end(),
                                       [&](const std::string& n) { return fs::path(n).parent_path() == here; });
            p.neff = beside != same.end() ? *beside : same.front();
        }
        out.push_back(std::move(p));
    }
    return out;
}

void check_capture_pair(const std::string& ntff, const std::string& neff) {
    auto t = ntff_capture_hash(ntff);
    auto n = neff_capture_hash(neff);
    if (t && n && *t != *n)
        throw Error("captured from neff_" + *t + ".neff (the hash in its name), not " + base_name(neff) +
                        ": an NTFF read with another graph's NEFF gets that graph's instruction names",
                    ntff);
}

}  // namespace nx
