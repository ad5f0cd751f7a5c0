#include "common/convert/fanout_plan.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <tuple>

#include "common/convert/capture_pairs.h"
#include "common/import/distributed_info.h"
#include "common/import/explorer_tables.h"
#include "common/import/runtime_path.h"
#include "common/io/error.h"
#include "common/io/number_text.h"

namespace nx {

namespace {

namespace fs = std::filesystem;

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A path's components below `root`: is one of them hidden?
bool hidden_below(const std::string& root, const std::string& path) {
    if (path.size() <= root.size() || path.compare(0, root.size(), root) != 0) return false;
    return path.find("/.", root.size()) != std::string::npos;
}

bool looks_like_profile(const std::string& name) {
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ends_with(lower, ".json") || ends_with(lower, ".json.gz") || ends_with(lower, ".ntff") ||
           ends_with(lower, ".neff");
}

const char* what_is(const fs::file_status& st) {
    switch (st.type()) {
        case fs::file_type::fifo: return "a FIFO";
        case fs::file_type::socket: return "a socket";
        case fs::file_type::block:
        case fs::file_type::character: return "a device";
        case fs::file_type::not_found: return "a symbolic link to nothing";
        default: return "not a regular file";
    }
}

struct Found {
    PlanEntry entry;
    RuntimePath where;
};

}  // namespace

std::string planned_path(const std::string& path) {
    std::error_code ec;
    return fs::absolute(path, ec).lexically_normal().string();
}

std::optional<int> rank_in_file_name(const std::string& path) {
    // The names users give rank files: profile_rank_<i> (nx-capture's),
    // rank-<i>, rank_<i> and rank<i> (HTA's examples), each after words
    // joined by "_" (sampled_rank-1, inference_rank_1), and before the
    // PyTorch profiler's suffix (rank-34.Jul_15_10_52_41.1074.pt.trace).
    static const std::regex kRankFile(
        R"((^|/)(([a-z0-9]+_)*)(profile_rank_|rank[-_]?)(-?\d+)(\.[^/]*)?\.(ntff|json|json\.gz)$)", std::regex::icase);
    std::smatch m;
    if (!std::regex_search(path, m, kRankFile)) return std::nullopt;
    std::optional<int64_t> rank = parse_int64(m[5].str());
    if (!rank || *rank < 0 || *rank > INT_MAX) {
        std::string form = m[4].str();
        for (char& c : form) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        throw Error("the rank in a " + (form == "profile_rank_" ? form : m[2].str() + form) +
                        "<i> name is a number from 0 to " + std::to_string(INT_MAX) + ", not " + m[5].str(),
                    path);
    }
    return static_cast<int>(*rank);
}

namespace {

// One walk of a capture tree: the profiles found with where they ran, and
// the paths left out with why.
class TreeWalk {
public:
    TreeWalk(const std::string& root, const PlanOptions& options, CaptureTreePlan& out)
        : root_(root), options_(options), out_(out) {}

    // Explorer directories first: what lies inside them is theirs.
    void add_explorer_profiles() {
        for (const std::string& dir : find_explorer_profiles(root_)) {
            if (hidden(dir)) continue;
            explorer_.push_back(dir);
            if (std::optional<int> rank = named_rank(dir))
                found_.push_back({{*rank, dir, {}}, runtime_path_of_source(dir)});
        }
    }

    void add_capture_pairs() {
        for (const CapturePair& p : find_capture_pairs(root_)) {
            if (inside_explorer(p.ntff) || hidden(p.ntff)) continue;
            if (std::optional<int> rank = named_rank(p.ntff))
                found_.push_back({{*rank, p.ntff, p.neff}, parse_runtime_path(p.ntff)});
        }
    }

    // Every other file of the tree: sessions' NTFFs and JSON traces.
    void add_files() {
        std::error_code ec;
        fs::recursive_directory_iterator it(root_, fs::directory_options::none, ec), end;
        if (ec) throw Error("cannot read the directory: " + ec.message(), root_);
        for (; it != end; it.increment(ec)) {
            if (ec) throw Error("cannot read the directory: " + ec.message(), root_);
            std::string path = it->path().string();
            std::string name = it->path().filename().string();
            std::error_code type_ec;
            fs::file_status st = it->symlink_status(type_ec);
            if (!name.empty() && name[0] == '.' && !options_.include_hidden) {
                if (fs::is_directory(st)) {
                    it.disable_recursion_pending();
                    skip(path, "a hidden folder, not planned (--include-hidden plans it)");
                } else if (looks_like_profile(name)) {
                    skip(path, "a hidden file, not planned (--include-hidden plans it)");
                }
                continue;
            }
            if (!it->is_regular_file(type_ec)) {
                // A FIFO would stop the task that opens it; a device or socket is no profile.
                if (!fs::is_directory(it->status(type_ec)) && looks_like_profile(name) && !inside_explorer(path))
                    skip(path, std::string(what_is(it->status(type_ec))) + ", not a file: not planned");
                continue;
            }
            if (!inside_explorer(path)) add_file(path);
        }
    }

    std::vector<Found>& found() { return found_; }

private:
    void skip(const std::string& path, const std::string& why) { out_.skipped.push_back(path + ": " + why); }

    // The rank a name gives, -1 for none; a name that gives one out of range
    // is left out.
    std::optional<int> named_rank(const std::string& path) {
        try {
            return rank_in_file_name(path).value_or(-1);
        } catch (const Error& e) {
            skip(path, e.what());
            return std::nullopt;
        }
    }

    // The one NEFF in a file's folder; empty when there are none or several.
    static std::string only_neff_beside(const std::string& path) {
        std::error_code ec;
        std::string found;
        for (const fs::directory_entry& f : fs::directory_iterator(fs::path(path).parent_path(), ec)) {
            if (!ends_with(f.path().filename().string(), ".neff") || !f.is_regular_file(ec)) continue;
            if (!found.empty()) return {};
            found = f.path().string();
        }
        return found;
    }

    // Below a hidden name (the walk names the hidden folder).
    bool hidden(const std::string& path) const { return !options_.include_hidden && hidden_below(root_, path); }

    bool inside_explorer(const std::string& path) const {
        return std::any_of(explorer_.begin(), explorer_.end(),
                           [&](const std::string& d) { return path.rfind(d + "/", 0) == 0; });
    }

    // A regular file outside Explorer directories: planned when it is a
    // session's NTFF or a JSON trace whose name, place or content ranks it.
    void add_file(const std::string& path) {
        std::string lower_path = path;
        for (char& c : lower_path) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        // A session's NTFF (profile_nc_<n>_session_<k>.ntff): every NEFF the
        // process ran, no pair; planned with its core's rank.
        if (ends_with(lower_path, ".ntff")) {
            RuntimePath where = parse_runtime_path(path);
            std::optional<int> named = named_rank(path);
            if (!named) return;
            if (where.session >= 0) found_.push_back({{*named, path, {}}, where});
            // profile_rank_<i>.ntff: read with the one NEFF of its folder
            // (none, or several: its task names what it lacks).
            else if (*named >= 0) found_.push_back({{*named, path, only_neff_beside(path)}, where});
            return;
        }
        if (!(ends_with(lower_path, ".json") || ends_with(lower_path, ".json.gz"))) return;
        RuntimePath where = parse_runtime_path(path);
        std::optional<int> named = named_rank(path);
        if (!named) return;
        int rank = *named;
        // The PyTorch profiler's traces ({worker}.{time}.pt.trace.json): each
        // says its rank in distributedInfo (its first few KB are read).
        if (rank < 0 && (ends_with(path, ".pt.trace.json") || ends_with(path, ".pt.trace.json.gz"))) {
            int traced = -1;
            try {
                DistributedInfo d = read_distributed_info(path);
                if (d.rank >= 0) traced = static_cast<int>(d.rank);
            } catch (const Error&) {
                // Empty or damaged (a worker that crashed): planned unranked,
                // its task says what is wrong with it.
            }
            found_.push_back({{traced, path, {}}, where});
            return;
        }
        if (rank >= 0 || !where.neff_hash.empty() || where.session >= 0) {
            found_.push_back({{rank, path, {}}, where});
            return;
        }
        // Another JSON trace that says its rank in distributedInfo (a
        // PyTorch trace renamed, trace0.json): planned with that rank.
        try {
            DistributedInfo d = read_distributed_info(path);
            if (d.rank >= 0 && d.rank <= INT_MAX) found_.push_back({{static_cast<int>(d.rank), path, {}}, where});
        } catch (const Error&) {
            // Not a trace, or a damaged one: not a profile of the tree.
        }
    }

    const std::string& root_;
    const PlanOptions& options_;
    CaptureTreePlan& out_;
    std::vector<Found> found_;
    std::vector<std::string> explorer_;
};

// profile_rank_<i> names their rank; the runtime layout ranks its
// workers (instance, process, core) in order.
// A session's profiles are a worker's too: its core (and process,
// where the path says it); every session of a core has the core's rank.
void rank_workers(std::vector<Found>& found) {
    auto ranked_by_worker = [](const Found& f) {
        return f.entry.rank < 0 && (f.where.process_id >= 0 || f.where.session >= 0) && f.where.logical_core >= 0;
    };
    std::map<std::tuple<std::string, int64_t, int64_t>, int> workers;
    for (const Found& f : found)
        if (ranked_by_worker(f))
            workers.emplace(std::make_tuple(f.where.instance_id, f.where.process_id, f.where.logical_core), 0);
    int next = 0;
    for (auto& [worker, rank] : workers) rank = next++;
    for (Found& f : found)
        if (ranked_by_worker(f))
            f.entry.rank = workers.at(std::make_tuple(f.where.instance_id, f.where.process_id, f.where.logical_core));
}

}  // namespace

CaptureTreePlan plan_capture_tree(const std::string& root_arg, const PlanOptions& options) {
    std::error_code ec;
    if (!fs::is_directory(root_arg, ec)) throw Error("not a directory (--plan reads a capture tree)", root_arg);
    const std::string root = planned_path(root_arg);
    CaptureTreePlan out;
    TreeWalk walk(root, options, out);
    walk.add_explorer_profiles();
    walk.add_capture_pairs();
    walk.add_files();
    rank_workers(walk.found());
    std::vector<PlanEntry>& plan = out.entries;
    for (Found& f : walk.found()) plan.push_back(std::move(f.entry));
    if (plan.empty()) {
        std::string left_out;
        for (const std::string& s : out.skipped) left_out += "; left out " + s;
        throw Error("no profile in the tree (Explorer profile directories, <hash>_instid_<n>_vnc_<k>.ntff|.json "
                    "in <instance>_pid_<pid> folders, profile_rank_<i> files, or PyTorch's traces: *.pt.trace.json, rank-<i>.json "
                    "and the like, or any trace whose distributedInfo says its rank)" + left_out,
                    root);
    }
    std::stable_sort(plan.begin(), plan.end(), [](const PlanEntry& a, const PlanEntry& b) {
        // Unranked last, then by rank and path.
        if ((a.rank < 0) != (b.rank < 0)) return b.rank < 0;
        if (a.rank != b.rank) return a.rank < b.rank;
        return a.input < b.input;
    });
    return out;
}

}  // namespace nx
