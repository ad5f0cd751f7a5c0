#include "common/report/report_input.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "common/diag.h"
#include "common/error.h"
#include "common/jsonl.h"
#include "common/profile_record.h"
#include "common/records/record_loop.h"

namespace nx {

void read_report_records(InputSource& in, ReportInput& into, bool keep_going) {
    for_each_record(in, keep_going, [&](rapidjson::Document& doc, const std::string&, int64_t) {
        std::string kind = get_string(doc, "kind").value_or("");
        if (kind == "profile") {
            ProfileEntry e;
            read_profile_record(doc, e.info, e.summary);
            into.profiles.push_back(std::move(e));
            return;
        }
        if (kind == "run") into.runs.push_back(std::move(doc));
        else if (kind == "bench") into.benches.push_back(std::move(doc));
        else into.rows.push_back(std::move(doc));
    });
}

bool is_sqlite_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    char magic[16] = {};
    size_t n = std::fread(magic, 1, sizeof magic, f);
    std::fclose(f);
    return n == sizeof magic && std::memcmp(magic, "SQLite format 3", 16) == 0;
}

void read_db_profiles(Store& store, const std::vector<std::string>& names, ReportInput& into) {
    SqliteStmt q(store.db(), "SELECT record, name, uid FROM profile WHERE record IS NOT NULL ORDER BY id");
    while (q.step()) {
        std::string name = q.column_text(1), uid = q.column_text(2);
        if (!names.empty() && std::find(names.begin(), names.end(), name) == names.end() &&
            std::find(names.begin(), names.end(), uid) == names.end())
            continue;
        rapidjson::Document doc;
        std::string text = q.column_text(0);
        parse_json_object(doc, text, store.path(), 0);
        ProfileEntry e;
        read_profile_record(doc, e.info, e.summary);
        into.profiles.push_back(std::move(e));
    }
}

void select_profiles(ReportInput& input, const std::vector<std::string>& names, const std::string& where) {
    if (names.empty()) return;
    auto named = [&](const ProfileEntry& p, const std::string& n) { return p.info.name == n || p.info.id == n; };
    for (const std::string& n : names)
        if (std::none_of(input.profiles.begin(), input.profiles.end(),
                         [&](const ProfileEntry& p) { return named(p, n); }))
            throw Error("no profile named '" + n + "'", where);
    std::erase_if(input.profiles, [&](const ProfileEntry& p) {
        return std::none_of(names.begin(), names.end(), [&](const std::string& n) { return named(p, n); });
    });
}

void read_db_runs(Store& store, ReportInput& into) {
    SqliteStmt q(store.db(), "SELECT record FROM run WHERE record IS NOT NULL ORDER BY id");
    while (q.step()) {
        rapidjson::Document doc;
        std::string text = q.column_text(0);
        parse_json_object(doc, text, store.path(), 0);
        into.runs.push_back(std::move(doc));
    }
}

}  // namespace nx
