#include "common/import/runtime_path.h"

#include <re2/re2.h>

#include <string>

namespace nx {

RuntimePath parse_runtime_path(std::string_view path) {
    static const RE2 kFile(std::string(R"((?:^|/)()") + kNeffHashPattern +
                           R"()_instid_\d+_vnc_(\d+)\.(?:ntff|json|json\.gz)$)");
    static const RE2 kProcess(R"((?:^|/)([^/]+)_pid_(\d+)/[^/]+$)");
    // One folder further down (the run's timestamp), tried second so that
    // the file's own parent wins when both would match.
    static const RE2 kProcessRun(R"((?:^|/)([^/]+)_pid_(\d+)/([^/]+)/[^/]+$)");
    // A session's: profile_nc_<n>_session_<k> (the NTFF, its JSON, or an
    // Explorer export named after it).
    static const RE2 kSession(R"((?:^|[/_])nc_(\d+)_session_(\d+)(?:\.(?:ntff|json|json\.gz))?$)");
    RuntimePath out;
    std::string hash, instance;
    int64_t vnc = -1, pid = -1, session = -1;
    re2::StringPiece text(path.data(), path.size());
    if (RE2::PartialMatch(text, kFile, &hash, &vnc)) {
        out.neff_hash = hash;
        out.logical_core = vnc;
    } else if (RE2::PartialMatch(text, kSession, &vnc, &session)) {
        out.logical_core = vnc;
        out.session = session;
    }
    // A run folder only above a file the runtime names: any file two levels
    // below some "x_pid_3" folder is not a capture.
    std::string run;
    if (RE2::PartialMatch(text, kProcess, &instance, &pid) ||
        (!out.neff_hash.empty() && RE2::PartialMatch(text, kProcessRun, &instance, &pid, &run))) {
        out.instance_id = instance;
        out.process_id = pid;
        out.run_folder = run;
    }
    return out;
}

RuntimePath runtime_path_of_source(std::string_view source) {
    std::string path(source);
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    constexpr std::string_view kLatest = "@latest";
    if (path.size() > kLatest.size() && path.compare(path.size() - kLatest.size(), kLatest.size(), kLatest) == 0)
        path.resize(path.size() - kLatest.size());
    RuntimePath file = parse_runtime_path(path);
    if (!file.neff_hash.empty() || file.session >= 0) return file;
    RuntimePath directory = parse_runtime_path(path + ".ntff");
    return directory.neff_hash.empty() ? file : directory;
}

std::string runtime_profile_name(std::string_view path, std::string_view stem) {
    RuntimePath r = runtime_path_of_source(path);
    if (r.instance_id.empty() || r.process_id < 0) return std::string(stem);
    return r.instance_id + "_pid_" + std::to_string(r.process_id) + "/" + (r.run_folder.empty() ? "" : r.run_folder + "/") +
           std::string(stem);
}

std::string capture_directory(std::string_view source) {
    auto parent = [](const std::string& path) {
        size_t slash = path.find_last_of('/');
        return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
    };
    // An Explorer directory given with a trailing slash is the same one.
    std::string path(source);
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    std::string dir = parent(path);
    RuntimePath where = runtime_path_of_source(source);
    if (where.process_id >= 0) dir = parent(where.run_folder.empty() ? dir : parent(dir));
    // Sessions of one capture are runs of their own: each compares across
    // ranks with itself only.
    if (where.session >= 0) dir += "/session_" + std::to_string(where.session);
    return dir;
}

}  // namespace nx
