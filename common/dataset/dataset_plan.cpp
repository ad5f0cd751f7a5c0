#include "common/dataset/dataset_plan.h"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <system_error>

#include "common/dataset/dataset_layout.h"
#include "common/io/atomic_file.h"
#include "common/io/error.h"
#include "common/io/limits.h"
#include "common/io/number_text.h"

namespace nx {

void write_plan(Output& out, const std::vector<PlanEntry>& plan) {
    out.write("rank\tinput\tneff\n");
    for (const PlanEntry& e : plan) out.write(std::to_string(e.rank) + "\t" + e.input + "\t" + e.neff + "\n");
}

std::vector<PlanEntry> read_plan(const std::string& path) {
    std::istringstream in(read_whole_file(path));
    std::string line;
    std::vector<PlanEntry> plan;
    int64_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (n == 1) {
            if (line != "rank\tinput\tneff") throw Error("not an nx plan (its first line is not rank<TAB>input<TAB>neff)", path, n);
            continue;
        }
        if (line.empty()) continue;
        size_t t1 = line.find('\t'), t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
        if (t2 == std::string::npos || line.find('\t', t2 + 1) != std::string::npos)
            throw Error("a plan line has three fields: rank, input, neff", path, n);
        PlanEntry e;
        std::string rank = line.substr(0, t1);
        std::optional<int64_t> r = parse_int64(rank);
        if (!r || *r < -1 || *r > INT_MAX) throw Error("the rank '" + rank + "' is not a number >= -1", path, n);
        e.rank = static_cast<int>(*r);
        e.input = line.substr(t1 + 1, t2 - t1 - 1);
        e.neff = line.substr(t2 + 1);
        if (e.input.empty()) throw Error("a plan line without its input", path, n);
        plan.push_back(std::move(e));
    }
    if (n == 0) throw Error("an empty plan", path);
    return plan;
}

std::pair<size_t, size_t> task_range(size_t entries, int task, int tasks) {
    size_t n = static_cast<size_t>(std::max(tasks, 1)), t = static_cast<size_t>(std::max(task, 0));
    size_t base = entries / n, extra = entries % n;
    size_t first = t * base + std::min(t, extra);
    size_t last = std::min(entries, first + base + (t < extra ? 1 : 0));
    return {std::min(first, entries), last};
}

namespace dataset {

std::string plan_path(const std::string& root) { return root + "/_nx/plan.tsv"; }

std::string partition_index_path(const std::string& root, std::string_view profile_id) {
    return root + "/_nx/at/" + std::string(profile_id);
}

std::string done_path(const std::string& root, const PlanEntry& entry) {
    // The entry's own hash (FNV-1a): stable when the tree is planned again.
    uint64_t h = 1469598103934665603ull;
    for (char c : std::to_string(entry.rank) + "\t" + entry.input + "\t" + entry.neff) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    char key[17];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(h));
    return root + "/_nx/done/" + key;
}

void mark_done(const std::string& root, const PlanEntry& entry, const std::vector<WrittenProfile>& profiles) {
    std::error_code ec;
    std::filesystem::create_directories(root + "/_nx/done", ec);
    if (ec) throw Error("cannot create the dataset's done folder: " + ec.message(), root);
    AtomicFile f(done_path(root, entry));
    for (const WrittenProfile& p : profiles) f.out().write(p.id + "\t" + std::to_string(p.rank) + "\n");
    f.commit();
}

bool is_done(const std::string& root, const PlanEntry& entry) {
    std::error_code ec;
    std::string marker = done_path(root, entry);
    if (!std::filesystem::is_regular_file(marker, ec)) return false;
    std::istringstream ids(read_whole_file(marker));
    std::string line;
    while (std::getline(ids, line)) {
        if (line.empty()) continue;
        size_t tab = line.find('\t');
        int rank = entry.rank;
        if (tab != std::string::npos) {
            std::optional<int64_t> r = parse_int64(line.substr(tab + 1));
            if (!r || *r < -1 || *r > INT_MAX) return false;  // not a marker nx wrote: convert again
            rank = static_cast<int>(*r);
        }
        if (!std::filesystem::is_regular_file(profile_file(root, "profiles", rank, line.substr(0, tab)), ec))
            return false;
    }
    return true;
}

std::vector<Missing> missing_entries(const std::string& root) {
    std::vector<Missing> out;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(plan_path(root), ec)) return out;
    std::vector<PlanEntry> plan = read_plan(plan_path(root));
    for (size_t k = 0; k < plan.size(); ++k)
        if (!is_done(root, plan[k])) out.push_back({k, plan[k]});
    return out;
}

}  // namespace dataset

}  // namespace nx
