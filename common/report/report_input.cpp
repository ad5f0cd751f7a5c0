// nx-report's inputs: profile, run, bench and other records from JSONL files or
// standard input, profiles and runs from study databases, and the slices of
// trace profiles (their event records, or the event table).
#include "common/report/report_input.h"
#include <fnmatch.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>

#include "common/dataset/dataset_layout.h"
#include "common/parquet/table_reader.h"
#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/spill_file.h"
#include "common/profile/profile_record.h"
#include "common/records/jsonl.h"
#include "common/records/record_loop.h"
#include "common/report/trace_report.h"
#include "common/store/stored_profiles.h"

namespace nx {

namespace {

std::optional<std::string_view> text_member(const rapidjson::Value& obj, const char* key) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || !it->value.IsString()) return std::nullopt;
    return std::string_view(it->value.GetString(), it->value.GetStringLength());
}

// One profile's event records until its profile record says whether it is
// a trace: the slices, and the first event that did not fit.
struct PendingTrace {
    std::shared_ptr<TraceSlices> slices = std::make_shared<TraceSlices>();
    std::string problem;
    int64_t problem_line = 0;
    int64_t problems = 0;
    bool taken = false;
};

// Adds an event record (nx(7) RECORDS: track, name, ts_ns, dur_ns, args.cat) to
// the slices; returns what is wrong with it, or "".
std::string add_event(const rapidjson::Document& doc, TraceSlices& into) {
    std::string_view type = text_member(doc, "type").value_or("");
    if (type == "counter" || type == "active") return {};  // samples and profiler intervals, not slices
    auto ts = doc.FindMember("ts_ns");
    if (ts == doc.MemberEnd() || !ts->value.IsInt64()) return "an event needs an integer \"ts_ns\"";
    int64_t dur = 0;
    auto d = doc.FindMember("dur_ns");
    if (d != doc.MemberEnd()) {
        if (!d->value.IsInt64() || d->value.GetInt64() < 0) return "\"dur_ns\" must be a non-negative integer";
        dur = d->value.GetInt64();
    }
    if (ts->value.GetInt64() > std::numeric_limits<int64_t>::max() - dur) return "\"ts_ns\" + \"dur_ns\" is out of range";
    std::string_view category;
    auto args = doc.FindMember("args");
    if (args != doc.MemberEnd() && args->value.IsObject()) category = text_member(args->value, "cat").value_or("");
    into.add(text_member(doc, "track").value_or(""), category, text_member(doc, "name").value_or(""),
             ts->value.GetInt64(), dur);
    return {};
}

// Event lines set aside in an unlinked temporary file ($TMPDIR) until their profile
// says whether they are a trace's slices or rows: memory stays flat however
// long the trace.
class LineSpill {
public:
    using Place = std::pair<long, size_t>;  // offset, length

    LineSpill() = default;
    LineSpill(const LineSpill&) = delete;
    LineSpill& operator=(const LineSpill&) = delete;
    ~LineSpill() {
        if (file_) std::fclose(file_);
    }
    Place put(const std::string& line) {
        if (!file_) file_ = open_spill_file("event records");
        Place at{end_, line.size()};
        // Appends: every put comes before the first get.
        if (std::fwrite(line.data(), 1, line.size(), file_) != line.size()) fail("write");
        end_ += static_cast<long>(line.size());
        return at;
    }
    std::string get(Place at) {
        std::string line(at.second, ' ');
        if (std::fseek(file_, at.first, SEEK_SET) != 0 || std::fread(line.data(), 1, line.size(), file_) != line.size())
            fail("read");
        return line;
    }

private:
    [[noreturn]] static void fail(const char* what) {
        throw Error(std::string("cannot ") + what + " a temporary file for event records: " + std::strerror(errno));
    }
    std::FILE* file_ = nullptr;
    long end_ = 0;
};

}  // namespace

void read_report_records(InputSource& in, ReportInput& into, bool keep_going) {
    size_t first_profile = into.profiles.size();
    std::unordered_map<std::string, PendingTrace> traces;  // by profile id
    struct EventRow {
        size_t row;  // its place in into.rows
        LineSpill::Place line;
        PendingTrace* trace;
    };
    std::vector<EventRow> events;
    LineSpill spill;
    for_each_record(in, keep_going, [&](rapidjson::Document& doc, const std::string& line, int64_t line_no) {
        std::string kind = get_string(doc, "kind").value_or("");
        if (kind == "profile") {
            ProfileEntry e;
            read_profile_record(doc, e.info, e.summary);
            into.profiles.push_back(std::move(e));
        } else if (kind == "run") {
            into.runs.push_back(std::move(doc));
        } else if (kind == "bench") {
            into.benches.push_back(std::move(doc));
        } else if (auto profile = text_member(doc, "profile"); kind == "event" && profile) {
            // Its profile record follows its events (nx-convert --to events):
            // kept aside until it says whether this is a trace.
            PendingTrace& t = traces[std::string(*profile)];
            std::string problem = add_event(doc, *t.slices);
            if (!problem.empty() && t.problems++ == 0) {
                t.problem = problem;
                t.problem_line = line_no;
            }
            events.push_back({into.rows.size(), spill.put(line), &t});
            into.rows.emplace_back();  // its row, should it stay one
        } else if (auto owner = text_member(doc, "profile"); kind == "flow" && owner) {
            // A flow between two of a profile's events goes where they go.
            events.push_back({into.rows.size(), spill.put(line), &traces[std::string(*owner)]});
            into.rows.emplace_back();
        } else {
            into.rows.push_back(std::move(doc));
        }
    });

    for (size_t i = first_profile; i < into.profiles.size(); ++i) {
        ProfileEntry& p = into.profiles[i];
        auto it = traces.find(p.info.id);
        if (it == traces.end() || !is_trace_profile(p.info, p.summary)) continue;
        PendingTrace& t = it->second;
        if (t.problems > 0 && !t.taken) {
            if (!keep_going) throw Error(t.problem, in.name(), t.problem_line);
            error_counts().count_more(ErrorKind::bad_record, t.problems);
            print_warning("skipped " + std::to_string(t.problems) + (t.problems == 1 ? " event" : " events") +
                              " of trace " + p.info.name + ", the first: " + t.problem,
                          in.name(), t.problem_line);
        }
        p.trace = t.slices;
        t.taken = true;
    }
    // Events of other profiles (or of none read here) stay rows, in place.
    for (EventRow& e : events)
        if (!e.trace->taken) parse_json_object(into.rows[e.row], spill.get(e.line), in.name(), 0);
    if (!events.empty())
        into.rows.erase(std::remove_if(into.rows.begin(), into.rows.end(), [](const rapidjson::Document& d) { return d.IsNull(); }),
                        into.rows.end());
}

bool is_sqlite_file(const std::string& path) { return is_study_database(path); }

bool is_name_pattern(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

bool profile_named(const std::string& name, const std::string& id, const std::string& wanted) {
    if (name == wanted || id == wanted) return true;
    // Names with '*' of their own still match themselves above.
    return is_name_pattern(wanted) && fnmatch(wanted.c_str(), name.c_str(), 0) == 0;
}

namespace {

// A trace profile's slices from its events (the event table keeps the
// source's category in args, as the JSONL events do).
std::shared_ptr<TraceSlices> read_db_slices(Store& store, int64_t profile_id) {
    auto slices = std::make_shared<TraceSlices>();
    SqliteStmt range(store.db(), "SELECT first_event_id, last_event_id FROM profile WHERE id = ?1");
    range.bind(1, profile_id);
    bool ranged = range.step() && !range.column_is_null(0) && !range.column_is_null(1);
    // Events of one profile have contiguous ids: a rowid range scan when known.
    SqliteStmt q(store.db(),
                 std::string("SELECT e.ts, e.dur, t.name, COALESCE(e.name, e.opcode, ''), "
                             "CASE WHEN json_valid(e.args) THEN json_extract(e.args, '$.cat') END "
                             "FROM event e JOIN track t ON t.id = e.track_id WHERE e.profile_id = ?1 "
                             "AND e.type NOT IN ('counter', 'active')") +
                     (ranged ? " AND e.id BETWEEN ?2 AND ?3" : ""));
    q.bind(1, profile_id);
    if (ranged) q.bind(2, range.column_int(0)).bind(3, range.column_int(1));
    while (q.step()) {
        int64_t ts = q.column_int(0), dur = q.column_int(1);
        if (dur < 0 || ts > std::numeric_limits<int64_t>::max() - dur)
            throw Error("an event of profile " + std::to_string(profile_id) + " has a ts and dur out of range", store.path());
        std::string cat = q.column_is_null(4) ? std::string() : q.column_text(4);
        slices->add(q.column_text(2), cat, q.column_text(3), ts, dur);
    }
    return slices;
}

}  // namespace

void read_db_profiles(Store& store, const std::vector<std::string>& names, ReportInput& into) {
    SqliteStmt q(store.db(), "SELECT record, name, uid, id FROM profile WHERE record IS NOT NULL ORDER BY id");
    while (q.step()) {
        std::string name = q.column_text(1), uid = q.column_text(2);
        if (!names.empty() && std::none_of(names.begin(), names.end(),
                                           [&](const std::string& n) { return profile_named(name, uid, n); }))
            continue;
        rapidjson::Document doc;
        std::string text = q.column_text(0);
        parse_json_object(doc, text, store.path(), 0);
        ProfileEntry e;
        e.stored = true;
        read_profile_record(doc, e.info, e.summary);
        if (is_trace_profile(e.info, e.summary)) e.trace = read_db_slices(store, q.column_int(3));
        into.profiles.push_back(std::move(e));
    }
}

void read_dataset_profiles(const std::string& root, const std::vector<std::string>& names, ReportInput& into) {
    dataset::TableListing listing = dataset::list_table(root, "profiles");
    for (const std::string& s : listing.skipped) print_warning("not read: " + s);
    for (const dataset::TableFile& f : listing.files) {
        parquet::TableReader t({f.path}, {"record", "name", "profile"});
        while (t.next()) {
            std::string name(t.column(1) && !t.column(1)->is_null() ? t.column(1)->str() : std::string_view());
            std::string id(t.column(2) && !t.column(2)->is_null() ? t.column(2)->str() : std::string_view());
            if (!names.empty() && std::none_of(names.begin(), names.end(),
                                               [&](const std::string& n) { return profile_named(name, id, n); }))
                continue;
            if (!t.column(0) || t.column(0)->is_null())
                throw Error("a profiles row without its record (row group " + std::to_string(t.row_group()) +
                                ", column record)",
                            f.path);
            rapidjson::Document doc;
            std::string text(t.column(0)->str());
            parse_json_object(doc, text, f.path, 0);
            ProfileEntry e;
            read_profile_record(doc, e.info, e.summary);
            into.profiles.push_back(std::move(e));
        }
    }
}

namespace {

// The profiles without executions yet, by id.
std::unordered_map<std::string, ProfileEntry*> awaiting_executions(ReportInput& into) {
    std::unordered_map<std::string, ProfileEntry*> out;
    for (ProfileEntry& p : into.profiles)
        if (p.summary.executions.empty()) out.emplace(p.info.id, &p);
    return out;
}

}  // namespace

namespace {

// The executions table's columns that are read back (every field of the
// description but the derived ones), in its order.
std::vector<std::string> execution_columns() {
    std::vector<std::string> names;
    for (const Field<ExecutionStat>& f : kExecutionFields)
        if (f.set) names.emplace_back(f.name);
    return names;
}

const Field<ExecutionStat>* execution_field(std::string_view name) {
    for (const Field<ExecutionStat>& f : kExecutionFields)
        if (f.set && f.name == name) return &f;
    return nullptr;
}

}  // namespace

void read_dataset_executions(const std::string& root, ReportInput& into) {
    std::unordered_map<std::string, ProfileEntry*> by_id = awaiting_executions(into);
    if (by_id.empty()) return;
    const std::vector<std::string> names = execution_columns();
    dataset::TableListing listing = dataset::list_table(root, "executions");
    for (const dataset::TableFile& f : listing.files) {
        auto it = by_id.find(f.profile_id);
        if (it == by_id.end()) continue;
        parquet::TableReader t({f.path}, names);
        std::vector<ExecutionStat> executions;
        while (t.next()) {
            ExecutionStat e;
            bool whole = true;
            for (size_t c = 0; c < names.size(); ++c) {
                const Field<ExecutionStat>& field = *execution_field(names[c]);
                const parquet::ColumnCursor* col = t.column(c);
                FieldValue v;
                if (col && !col->is_null())
                    v = col->holds_integers() ? FieldValue(col->i64())
                        : col->holds_reals()  ? FieldValue(col->f64())
                                              : FieldValue(col->str());
                // An older dataset lacks the figures added since (they stay
                // 0); no row lacks its index or window.
                bool window = field.name == "execution_index" || field.name == "start_ns" || field.name == "end_ns";
                if (window && std::holds_alternative<std::monostate>(v)) whole = false;
                field.set(e, v);
            }
            if (!whole)
                throw Error("an executions row without its index or window (row group " +
                                std::to_string(t.row_group()) + ")",
                            f.path);
            executions.push_back(std::move(e));
        }
        it->second->summary.executions = std::move(executions);
    }
}

void read_db_executions(Store& store, ReportInput& into) {
    std::unordered_map<std::string, ProfileEntry*> by_id = awaiting_executions(into);
    if (by_id.empty()) return;
    // A database written before the table was.
    if (!table_exists(store.db(), "main", "execution")) return;
    // Every column the table has (a database an older nx wrote may lack the
    // figures added since: they stay 0).
    SqliteStmt q(store.db(), "SELECT p.uid, e.* FROM execution e JOIN profile p ON p.id = e.profile_id "
                             "ORDER BY e.profile_id, e.ord");
    const int columns = sqlite3_column_count(q.handle());
    std::vector<const Field<ExecutionStat>*> fields(static_cast<size_t>(columns), nullptr);
    for (int c = 1; c < columns; ++c) fields[static_cast<size_t>(c)] = execution_field(sqlite3_column_name(q.handle(), c));
    std::unordered_map<std::string, std::vector<ExecutionStat>> read;
    std::string text;
    while (q.step()) {
        std::string uid = q.column_text(0);
        if (!by_id.count(uid)) continue;
        ExecutionStat e;
        for (int c = 1; c < columns; ++c) {
            const Field<ExecutionStat>* field = fields[static_cast<size_t>(c)];
            if (!field) continue;
            FieldValue v;
            switch (sqlite3_column_type(q.handle(), c)) {
                case SQLITE_INTEGER: v = q.column_int(c); break;
                case SQLITE_FLOAT: v = q.column_double(c); break;
                case SQLITE_NULL: break;
                default: text = q.column_text(c); v = std::string_view(text);
            }
            field->set(e, v);
        }
        read[uid].push_back(std::move(e));
    }
    for (auto& [uid, executions] : read) by_id[uid]->summary.executions = std::move(executions);
}

void select_profiles(ReportInput& input, const std::vector<std::string>& names, const std::string& where) {
    if (names.empty()) return;
    auto named = [&](const ProfileEntry& p, const std::string& n) { return profile_named(p.info.name, p.info.id, n); };
    for (const std::string& n : names)
        if (std::none_of(input.profiles.begin(), input.profiles.end(),
                         [&](const ProfileEntry& p) { return named(p, n); }))
            throw Error((is_name_pattern(n) ? "no profile matches '" : "no profile named '") + n + "'", where);
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
