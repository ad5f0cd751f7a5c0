#include "common/dataset/dataset_plan.h"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>

#include "common/dataset/dataset_folder.h"
#include "common/dataset/dataset_layout.h"
#include "common/dataset/dataset_names.h"
#include "common/io/char_escape.h"
#include "common/io/error.h"
#include "common/io/limits.h"
#include "common/io/number_text.h"

namespace nx {

namespace {

constexpr const char* kPlanHeader = "rank\tinput\tneff";

std::string escaped(const std::string& field) {
    return escape_chars(field, {{'\\', "\\\\"}, {'\t', "\\t"}, {'\n', "\\n"}, {'\r', "\\r"}});
}

std::optional<std::string> unescaped(std::string_view field) {
    std::string out;
    for (size_t i = 0; i < field.size(); ++i) {
        if (field[i] != '\\') {
            out += field[i];
            continue;
        }
        if (++i == field.size()) return std::nullopt;
        switch (field[i]) {
            case '\\': out += '\\'; break;
            case 't': out += '\t'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            default: return std::nullopt;
        }
    }
    return out;
}

}  // namespace

std::string plan_text(const std::vector<PlanEntry>& plan) {
    std::string text = std::string(kPlanHeader) + "\n";
    for (const PlanEntry& e : plan)
        text += std::to_string(e.rank) + "\t" + escaped(e.input) + "\t" + escaped(e.neff) + "\n";
    return text;
}

void write_plan(Output& out, const std::vector<PlanEntry>& plan) { out.write(plan_text(plan)); }

std::vector<PlanEntry> parse_plan(const std::string& text, const std::string& path) {
    std::istringstream in(text);
    std::string line;
    std::vector<PlanEntry> plan;
    int64_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (n == 1) {
            if (line != kPlanHeader) throw Error("not an nx plan (its first line is not rank<TAB>input<TAB>neff)", path, n);
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
        std::optional<std::string> input = unescaped(std::string_view(line).substr(t1 + 1, t2 - t1 - 1));
        std::optional<std::string> neff = unescaped(std::string_view(line).substr(t2 + 1));
        if (!input || !neff) throw Error("a backslash in a plan path is followed by \\, t, n or r", path, n);
        e.input = std::move(*input);
        e.neff = std::move(*neff);
        if (e.input.empty()) throw Error("a plan line without its input", path, n);
        plan.push_back(std::move(e));
    }
    if (n == 0) throw Error("an empty plan", path);
    return plan;
}

std::vector<PlanEntry> read_plan(const std::string& root) {
    DirHandle nx = dataset::Folder(root, false).root().sub(dataset::kBookkeeping, false);
    if (!nx.is_open() || !nx.is_regular_file(dataset::kPlanFile))
        throw Error("no plan in the dataset (nx-convert --dataset DIR --plan CAPTURE writes one)", dataset::plan_path(root));
    return parse_plan(nx.read_small_file(dataset::kPlanFile, max_record_bytes()), dataset::plan_path(root));
}

std::pair<size_t, size_t> task_range(size_t entries, int task, int tasks) {
    const size_t n = static_cast<size_t>(std::max(tasks, 1));
    const size_t t = std::min(static_cast<size_t>(std::max(task, 0)), n);
    return {t * entries / n, std::min(t + 1, n) * entries / n};
}

namespace dataset {

std::string done_key(const PlanEntry& entry) {
    // The entry's own hash (FNV-1a): stable when the tree is planned again.
    uint64_t h = 1469598103934665603ull;
    for (char c : std::to_string(entry.rank) + "\t" + entry.input + "\t" + entry.neff) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    char key[17];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(h));
    return key;
}

void mark_done(const Folder& dataset, const PlanEntry& entry, const std::vector<WrittenProfile>& profiles,
               const std::string& tag) {
    std::string text;
    for (const WrittenProfile& p : profiles) text += file_stem(p.id) + "\t" + std::to_string(p.rank) + "\n";
    write_small_file(dataset.bookkeeping(kDoneFolder), done_key(entry), text, tag);
}

std::vector<DoneProfile> done_profiles(const Folder& dataset, const PlanEntry& entry) {
    std::vector<DoneProfile> out;
    DirHandle done = dataset.bookkeeping_if_any(kDoneFolder);
    if (!done.is_open()) return out;
    std::istringstream lines(done.read_small_file(done_key(entry)));
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty()) continue;
        size_t tab = line.find('\t');
        DoneProfile p{line.substr(0, tab), entry.rank};
        if (tab != std::string::npos) {
            std::optional<int64_t> r = parse_int64(line.substr(tab + 1));
            if (!r || *r < -1 || *r > INT_MAX) return {};  // not a marker nx wrote: convert again
            p.rank = static_cast<int>(*r);
        }
        if (!profile_id_of_stem(p.stem)) return {};
        out.push_back(std::move(p));
    }
    return out;
}

bool is_done(const Folder& dataset, const PlanEntry& entry) {
    DirHandle done = dataset.bookkeeping_if_any(kDoneFolder);
    if (!done.is_open() || !done.is_regular_file(done_key(entry))) return false;
    std::vector<DoneProfile> profiles = done_profiles(dataset, entry);
    if (profiles.empty() && !done.read_small_file(done_key(entry)).empty()) return false;  // damaged
    for (const DoneProfile& p : profiles) {
        DirHandle part = dataset.partition("profiles", partition_folder(p.rank), false);
        if (!part.is_open() || !part.is_regular_file(p.stem + ".parquet")) return false;
    }
    return true;
}

void forget_done(const Folder& dataset, const PlanEntry& entry) {
    DirHandle done = dataset.bookkeeping_if_any(kDoneFolder);
    if (done.is_open()) done.remove(done_key(entry));
}

std::optional<std::vector<PlanEntry>> current_plan(const Folder& dataset) {
    DirHandle nx = dataset.root().sub(kBookkeeping, false);
    if (!nx.is_open() || !nx.is_regular_file(kPlanFile)) return std::nullopt;
    return parse_plan(nx.read_small_file(kPlanFile, max_record_bytes()), plan_path(dataset.path()));
}

std::vector<Missing> missing_entries(const std::string& root) {
    std::vector<Missing> out;
    Folder dataset(root, false);
    std::optional<std::vector<PlanEntry>> plan = current_plan(dataset);
    if (!plan) return out;
    for (size_t k = 0; k < plan->size(); ++k)
        if (!is_done(dataset, (*plan)[k])) out.push_back({k, (*plan)[k]});
    return out;
}

std::vector<std::string> unplanned_profiles(const std::string& root) {
    std::vector<std::string> out;
    Folder dataset(root, false);
    std::optional<std::vector<PlanEntry>> plan = current_plan(dataset);
    if (!plan) return out;
    std::set<std::pair<std::string, int>> planned;
    for (const PlanEntry& e : *plan)
        for (const DoneProfile& p : done_profiles(dataset, e)) planned.insert({p.stem, p.rank});
    for (const TableFile& f : list_table(root, "profiles").files) {
        int rank = f.rank ? static_cast<int>(*f.rank) : -1;
        if (!planned.count({file_stem(f.profile_id), rank}))
            out.push_back(f.profile_id + " (rank " + (f.rank ? std::to_string(*f.rank) : std::string("none")) + ")");
    }
    return out;
}

}  // namespace dataset

}  // namespace nx
