#include "common/convert/fanout_plan.h"

#include <algorithm>
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

// profile_rank_<i>.json|.json.gz|.ntff: i; else -1.
int named_rank(const std::string& path) {
    static const std::regex kRankFile(R"((^|/)profile_rank_(\d+)\.(ntff|json|json\.gz)$)");
    std::smatch m;
    if (!std::regex_search(path, m, kRankFile)) return -1;
    std::optional<int64_t> rank = parse_int64(m[2].str());
    return rank && *rank <= INT_MAX ? static_cast<int>(*rank) : -1;
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

std::vector<PlanEntry> plan_capture_tree(const std::string& root_arg) {
    std::error_code ec;
    if (!fs::is_directory(root_arg, ec)) throw Error("not a directory (--plan reads a capture tree)", root_arg);
    const std::string root = planned_path(root_arg);
    std::vector<Found> found;
    // Explorer directories first: what lies inside them is theirs.
    std::vector<std::string> explorer = find_explorer_profiles(root);
    for (const std::string& dir : explorer) found.push_back({{named_rank(dir), dir, {}}, runtime_path_of_source(dir)});
    auto inside_explorer = [&](const std::string& path) {
        return std::any_of(explorer.begin(), explorer.end(),
                           [&](const std::string& d) { return path.rfind(d + "/", 0) == 0; });
    };
    for (const CapturePair& p : find_capture_pairs(root))
        if (!inside_explorer(p.ntff)) found.push_back({{named_rank(p.ntff), p.ntff, p.neff}, parse_runtime_path(p.ntff)});
    std::vector<std::string> json;
    fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
    if (ec) throw Error("cannot read the directory: " + ec.message(), root);
    for (; it != end; it.increment(ec)) {
        if (ec) throw Error("cannot read the directory: " + ec.message(), root);
        std::error_code type_ec;
        if (!it->is_regular_file(type_ec)) continue;
        std::string path = it->path().string();
        if (!(ends_with(path, ".json") || ends_with(path, ".json.gz")) || inside_explorer(path)) continue;
        RuntimePath where = parse_runtime_path(path);
        int rank = named_rank(path);
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
            found.push_back({{traced, path, {}}, where});
            continue;
        }
        if (rank >= 0 || !where.neff_hash.empty()) found.push_back({{rank, path, {}}, where});
    }
    // profile_rank_<i> names their rank; the runtime layout ranks its
    // workers (instance, process, core) in order.
    std::map<std::tuple<std::string, int64_t, int64_t>, int> workers;
    for (const Found& f : found)
        if (f.entry.rank < 0 && f.where.process_id >= 0 && f.where.logical_core >= 0)
            workers.emplace(std::make_tuple(f.where.instance_id, f.where.process_id, f.where.logical_core), 0);
    int next = 0;
    for (auto& [worker, rank] : workers) rank = next++;
    std::vector<PlanEntry> plan;
    for (Found& f : found) {
        if (f.entry.rank < 0 && f.where.process_id >= 0 && f.where.logical_core >= 0)
            f.entry.rank = workers.at(std::make_tuple(f.where.instance_id, f.where.process_id, f.where.logical_core));
        plan.push_back(std::move(f.entry));
    }
    if (plan.empty())
        throw Error("no profile in the tree (Explorer profile directories, <hash>_instid_<n>_vnc_<k>.ntff|.json "
                    "in <instance>_pid_<pid> folders, profile_rank_<i> files, or PyTorch's *.pt.trace.json)",
                    root);
    std::stable_sort(plan.begin(), plan.end(), [](const PlanEntry& a, const PlanEntry& b) {
        // Unranked last, then by rank and path.
        if ((a.rank < 0) != (b.rank < 0)) return b.rank < 0;
        if (a.rank != b.rank) return a.rank < b.rank;
        return a.input < b.input;
    });
    return plan;
}

}  // namespace nx
