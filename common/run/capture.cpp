#include "common/run/capture.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>

#include "common/io/real_path.h"
#include "common/profile/record_sinks.h"
#include "common/io/atomic_file.h"
#include "common/io/error.h"
#include "common/profile/profile_builder.h"
#include "common/records/json_members.h"
#include "common/records/jsonl.h"
#include "common/run/backends.h"
#include "common/run/neuron_tools.h"
#include "common/workload/workload_record.h"

namespace nx {

namespace {

// Workload names may hold characters file systems dislike.
std::string file_stem(const std::string& name) {
    std::string s;
    for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
    return s.empty() ? "workload" : s;
}

// Files of one capture: NAME[.VARIANT].BACKEND[.TARGET], so runs of one
// workload on different targets or kernel variants never overwrite each other.
std::string capture_stem(const Workload& w, const std::string& backend, const std::string& target) {
    std::string s = file_stem(w.name);
    if (!w.variant.empty() && w.variant != "auto") s += "." + file_stem(w.variant);
    s += "." + backend;
    if (!target.empty()) s += "." + file_stem(target);
    return s;
}

void make_dirs(const std::string& path) {
    std::string cur;
    for (size_t i = 0; i <= path.size(); ++i) {
        if (i == path.size() || path[i] == '/') {
            if (!cur.empty() && mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST)
                throw Error(std::string("cannot create directory: ") + std::strerror(errno), cur);
        }
        if (i < path.size()) cur += path[i];
    }
}

// The capture record: the run's fields, "capture" (how the profiler was
// asked to capture, when one was: a JSON object, or empty) and "profile".
std::string capture_record(const rapidjson::Value& run, const std::string& profile_json,
                           const std::string& settings_json = {}) {
    rapidjson::StringBuffer sb;
    JsonWriter w(sb);
    w.StartObject();
    w.Key("kind");
    w.String("capture");
    write_other_members(w, run, [&](std::string_view k) {
        return k == "kind" || k == "profile" || (k == "capture" && !settings_json.empty());
    });
    if (!settings_json.empty()) {
        w.Key("capture");
        w.RawValue(settings_json.data(), settings_json.size(), rapidjson::kObjectType);
    }
    w.Key("profile");
    w.RawValue(profile_json.data(), profile_json.size(), rapidjson::kObjectType);
    w.EndObject();
    return std::string(sb.GetString(), sb.GetSize());
}

// neuron-profile's per-rank files in dir, by rank.
std::vector<std::pair<int, std::string>> rank_files_by_rank(const std::string& dir) {
    static const std::regex kRank(R"(profile_rank_(\d{1,9})\.ntff)");
    std::vector<std::pair<int, std::string>> ranks;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* ent = readdir(d)) {
            std::smatch m;
            std::string name = ent->d_name;
            if (std::regex_match(name, m, kRank)) ranks.emplace_back(std::stoi(m[1].str()), dir + "/" + name);
        }
        closedir(d);
    }
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

std::string run_without_kind(const rapidjson::Value& run) {
    rapidjson::Document d;
    d.CopyFrom(run, d.GetAllocator());
    d.RemoveMember("kind");
    return to_json(d);
}

std::vector<std::string> capture_in_process(const rapidjson::Value& run, const Workload& w, const std::string& backend,
                                            const std::string& target, const CaptureOptions& o) {
    BackendOptions bo;
    bo.target = target;
    std::unique_ptr<Backend> b;
    try {
        b = make_backend(backend, bo);
    } catch (const UsageError& e) {
        // A bad target in one record is that record's error, not a usage error.
        throw Error(w.name + ": " + e.what());
    }
    make_dirs(o.dir);
    std::string stem = capture_stem(w, backend, target);
    std::string path = o.dir + "/" + stem + ".jsonl.gz";
    AtomicFile file(path, true);
    EventRecordSink sink(file.out());
    ProfileBuilder builder;
    builder.add_sink(&sink);
    ProfileInfo info;
    info.id = make_profile_id("capture:" + real_path(o.dir) + "/" + stem);
    info.name = w.name;
    info.source = path;
    info.format = backend + "-trace";
    info.backend = backend;
    info.target = target;
    info.dtype = w.dtype;
    info.carried_json = run_without_kind(run);
    // The logical core the run said it ran on: its HFU and MFU divide by
    // that many physical cores' peak, as the profiler's do.
    if (w.lnc > 0) {
        info.core.physical_cores = static_cast<int>(w.lnc);
        info.core.cores_from = "the run's LNC";
    }
    builder.begin_profile(info);
    b->trace(w, builder);
    builder.end_profile();
    file.commit();
    return {capture_record(run, "{\"format\":\"nx-jsonl\",\"path\":" + json_quote(path) + "}")};
}

std::vector<std::string> capture_neuron(const rapidjson::Value& run, const Workload& w, const std::string& target,
                                        const CaptureOptions& o) {
    std::string neff;
    if (const rapidjson::Value* a = find_member(run, "artifacts"); a && a->IsObject())
        neff = get_string(*a, "neff").value_or("");
    if (neff.empty()) throw Error(w.name + ": the run record names no NEFF (artifacts.neff) to capture");
    struct stat st {};
    if (stat(neff.c_str(), &st) != 0) throw Error(w.name + ": the NEFF is gone: " + neff);
    std::vector<std::string> args = {"--num-exec", std::to_string(o.num_exec), "--profile-nth-exec",
                                     std::to_string(o.profile_nth_exec)};
    args.insert(args.end(), o.profiler_args.begin(), o.profiler_args.end());
    // What a profile was captured with travels with it (a dataset's
    // profiles.capture_settings): which execution of how many, and the
    // options passed through.
    std::string settings = "{\"num_exec\":" + std::to_string(o.num_exec) +
                           ",\"profile_nth_exec\":" + std::to_string(o.profile_nth_exec) + ",\"profiler_args\":[";
    for (size_t i = 0; i < o.profiler_args.size(); ++i) settings += (i ? "," : "") + json_quote(o.profiler_args[i]);
    settings += "]}";
    std::string stem = capture_stem(w, "neuron", target);
    if (!o.multi_worker) {
        make_dirs(o.dir);
        std::string ntff = o.dir + "/" + stem + ".ntff";
        try {
            neuron_capture(neff, ntff, args);
        } catch (const Error& e) {
            throw Error(w.name + ": " + e.what());
        }
        return {capture_record(run, "{\"format\":\"ntff\",\"ntff\":" + json_quote(ntff) + ",\"neff\":" + json_quote(neff) + "}",
                               settings)};
    }
    // Multi-worker: neuron-profile writes profile_rank_<i>.ntff next to -s.
    std::string dir = o.dir + "/" + stem;
    make_dirs(dir);
    // Ranks of an earlier capture in the same directory must not be taken
    // for this one's.
    for (const auto& [rank, old] : rank_files_by_rank(dir))
        if (std::remove(old.c_str()) != 0)
            throw Error(w.name + ": cannot remove an earlier capture's " + old + ": " + std::strerror(errno));
    try {
        neuron_capture(neff, dir + "/profile.ntff", args);
    } catch (const Error& e) {
        throw Error(w.name + ": " + e.what());
    }
    std::vector<std::pair<int, std::string>> ranks = rank_files_by_rank(dir);
    if (ranks.empty()) throw Error(w.name + ": neuron-profile wrote no profile_rank_<i>.ntff in " + dir);
    std::vector<std::string> out;
    for (auto& [rank, ntff] : ranks)
        out.push_back(capture_record(run, "{\"format\":\"ntff\",\"ntff\":" + json_quote(ntff) + ",\"neff\":" +
                                              json_quote(neff) + ",\"rank\":" + std::to_string(rank) + "}",
                                      settings));
    return out;
}

}  // namespace

std::vector<std::string> capture_run(const rapidjson::Value& run, const CaptureOptions& o) {
    std::string kind = get_string(run, "kind").value_or("");
    if (kind != "run") throw Error("expected run records, got \"" + kind + "\"");
    Workload w = workload_from_record(run);
    std::string backend = get_string(run, "backend").value_or("");
    std::string target = get_string(run, "target").value_or("");
    const BackendDef* def = find_backend(backend);
    if (!def) throw Error(w.name + ": unknown backend '" + backend + "' (known: " + backend_names() + ")");
    switch (def->capture) {
        case CaptureMethod::in_process:
            w.target = target;
            return capture_in_process(run, w, backend, target, o);
        case CaptureMethod::neuron_profiler:
            return capture_neuron(run, w, target, o);
    }
    throw Error(w.name + ": the " + backend + " backend has no capture method");
}

}  // namespace nx
