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
    RuntimePath out;
    std::string hash, instance;
    int64_t vnc = -1, pid = -1;
    re2::StringPiece text(path.data(), path.size());
    if (RE2::PartialMatch(text, kFile, &hash, &vnc)) {
        out.neff_hash = hash;
        out.logical_core = vnc;
    }
    std::string run;
    if (RE2::PartialMatch(text, kProcess, &instance, &pid) || RE2::PartialMatch(text, kProcessRun, &instance, &pid, &run)) {
        out.instance_id = instance;
        out.process_id = pid;
        out.run_folder = run;
    }
    return out;
}

std::string neff_hash_of_source(std::string_view source) {
    std::string hash = parse_runtime_path(source).neff_hash;
    return hash.empty() ? parse_runtime_path(std::string(source) + ".ntff").neff_hash : hash;
}

std::string runtime_profile_name(std::string_view path, std::string_view stem) {
    RuntimePath r = parse_runtime_path(path);
    if (r.instance_id.empty() || r.process_id < 0) return std::string(stem);
    return r.instance_id + "_pid_" + std::to_string(r.process_id) + "/" + (r.run_folder.empty() ? "" : r.run_folder + "/") +
           std::string(stem);
}

}  // namespace nx
