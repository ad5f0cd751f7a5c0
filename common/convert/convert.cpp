#include "common/convert/convert.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "common/convert/capture_pairs.h"
#include "common/convert/fanout_plan.h"
#include "common/convert/record_paths.h"
#include "common/import/explorer_tables.h"
#include "common/import/importer.h"
#include "common/import/runtime_path.h"
#include "common/io/atomic_file.h"
#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/real_path.h"
#include "common/io/temp_path.h"
#include "common/records/error_counts.h"
#include "common/records/jsonl.h"
#include "common/records/record_loop.h"
#include "common/run/neuron_tools.h"
#include "common/store/store.h"
#include "common/store/stored_profiles.h"

namespace nx {

namespace {

// "out/" and "out" name the same directory: its files are "out/x", not "out//x".
std::string without_trailing_slashes(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return path;
}

// A path's last component, trailing slashes ignored: "runs/out/" -> "out".
std::string last_component(const std::string& path) {
    std::string p = without_trailing_slashes(path);
    size_t slash = p.find_last_of('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

// `name` without `suffix` when it ends so and something is left.
std::string without_suffix(std::string name, std::string_view suffix) {
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        name.resize(name.size() - suffix.size());
    return name;
}

// "dir//name@latest" when the user typed a trailing slash: "dir/name@latest".
std::string without_double_slashes(std::string path) {
    for (size_t at; (at = path.find("//")) != std::string::npos;) path.erase(at, 1);
    return path;
}

bool ends_with_ntff(const std::string& path) {
    return path.size() > 5 && path.compare(path.size() - 5, 5, ".ntff") == 0;
}

// A runtime capture's NTFF (<hash>_instid_<n>_vnc_<k>.ntff): read with the
// neff_<hash>.neff of its own hash, never another graph's.
bool is_capture_pair(const PlanEntry& e) { return ends_with_ntff(e.input) && ntff_capture_hash(e.input); }

bool is_directory(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

Converter::Converter(ProfileBuilder& builder, ConvertOptions options)
    : builder_(builder), options_(std::move(options)) {}

void Converter::convert_part(const std::function<void()>& part) {
    try {
        part();
    } catch (const Error& e) {
        if (!options_.keep_going) throw;
        failed(e);
    }
}

void Converter::failed(const Error& e) {
    builder_.abort_profile();
    error_counts().add(ErrorKind::failed_input, e.what(), e.where(), e.line());
}

void Converter::convert_argument(const std::string& arg) {
    error_counts().set_total(ErrorKind::failed_input, ++stats_.inputs);
    try {
        if (arg == "-") {
            auto in = InputSource::open("-");
            std::string format = options_.format;
            if (format.empty()) {
                Detected d = detect_format("", in.get());
                if (d.record_kind == "capture") return convert_captures(*in);
                if (d.record_kind == "run") return convert_runs(*in);
                refuse(d.format, in->name());
                if (d.format) format = std::string(d.format->name);
            }
            import_stream(*in, format, options_.base, "stdin:" + options_.base.name);
        } else if (is_directory(arg)) {
            // One Explorer profile's own directory (a system profile's with
            // the device profiles its list links, found beside it, in the
            // order found), or a tree of profiles in any layout, planned as a
            // dataset plans it.
            std::vector<std::string> profiles = find_explorer_profiles(arg);
            const std::string self = planned_path(arg);
            if (std::any_of(profiles.begin(), profiles.end(), [&](const std::string& p) { return planned_path(p) == self; }))
                for (const std::string& p : profiles)
                    convert_part([&] { convert_explorer_dir(without_double_slashes(p), options_.base); });
            else convert_capture_tree(arg, options_.base);
        } else if (options_.format.empty() && is_study_database(arg)) {
            convert_database(arg);
        } else {
            convert_one(arg, options_.format, options_.base, options_.neff);
        }
    } catch (const Error& e) {
        if (!options_.keep_going) {
            builder_.abort_profile();
            throw;
        }
        failed(e);
    }
}

void Converter::refuse(const FormatDef* format, const std::string& where) const {
    if (!format || format->kind != FormatKind::refused) return;
    std::string hint(format->hint);
    if (format->name == "parquet-table") {
        std::string dir = where.find('/') == std::string::npos ? "." : where.substr(0, where.find_last_of('/'));
        hint = "give the profile directory (" + dir + "), which holds all its tables";
    }
    throw Error("a " + std::string(format->description) + ": " + hint, where);
}

void Converter::convert_one(const std::string& path, const std::string& format, const ProfileInfo& base,
                            const std::string& neff) {
    std::string fmt = format;
    std::unique_ptr<InputSource> in;
    if (fmt.empty()) {
        // An NTFF goes by its name (it is binary and the viewer reads it).
        if (const FormatDef* byname = detect_format(path, nullptr).format; byname && byname->kind == FormatKind::ntff) {
            fmt = std::string(byname->name);
        } else {
            in = InputSource::open(path);
            Detected d = detect_format(path, in.get());
            if (d.record_kind == "capture") return convert_captures(*in);
            if (d.record_kind == "run") return convert_runs(*in);
            refuse(d.format, path);
            if (d.format) fmt = std::string(d.format->name);
        }
    }
    if (const FormatDef* def = find_input_format(fmt); def && def->kind == FormatKind::ntff) {
        convert_ntff(path, neff, base);
        return;
    }
    if (!in) in = InputSource::open(path);
    if (format.empty() || format_has(fmt, kNxRecords)) {  // nx's own records say what they hold
        import_stream(*in, fmt, base, real_path(path));
        return;
    }
    // A forced format that finds nothing it reads is an error, not an empty profile.
    const FormatDef* looks = detect_format(path, in.get()).format;
    std::string nothing = "--format " + fmt + " found no " + fmt + " profile here" +
                          (!looks || looks->name == fmt ? "" : " (it looks like " + std::string(looks->name) + ")");
    builder_.require_content(nothing + ": no events, no metrics");
    int before = builder_.profiles_done();
    try {
        import_stream(*in, fmt, base, real_path(path));
    } catch (Error& e) {
        builder_.require_content({});
        if (e.where().empty()) e.set_where(in->name());
        throw;
    }
    builder_.require_content({});
    if (builder_.profiles_done() == before)
        throw Error(nothing, in->name());
}

void Converter::import_stream(InputSource& in, const std::string& format, const ProfileInfo& base,
                              const std::string& identity) {
    if (format.empty()) {
        std::string_view prefix = in.peek(kSniffPrefixBytes);
        if (prefix.find_first_not_of(" \t\r\n") == std::string_view::npos)
            throw Error("empty input: no profile to convert", in.name(), 1);
        throw Error("not a profile nx can read: cannot tell its format (use --input-format: " + input_format_names() + ")",
                    in.name(), 1);
    }
    const FormatDef* def = find_input_format(format);
    if (!def) throw Error("unknown format '" + format + "' (known: " + input_format_names() + ")", in.name());
    if (def->kind == FormatKind::directory)
        throw Error("format " + format + " is a directory: give the profile directory, not a file", in.name());
    if (!def->import) throw Error("format " + format + " is not read from a stream", in.name());
    ImportContext ctx;
    ctx.where = in.name();
    ctx.keep_going = options_.keep_going;
    ctx.base = base;
    if (ctx.base.source.empty()) ctx.base.source = in.is_stdin() ? "-" : in.path();
    ctx.identity = identity;
    if (options_.progress) options_.progress->start(in.name(), &in);
    run_import(in.name(), [&] { def->import(in, builder_, ctx); });
    if (options_.progress) options_.progress->stop();
}

void Converter::run_import(const std::string& input, const std::function<void()>& import) {
    try {
        import();
        // Ending the profile may fail too (the database refuses a value).
        if (builder_.in_profile()) builder_.end_profile();
    } catch (Error& e) {
        if (e.where().empty()) e.set_where(input);  // e.g. the database refused a record's value
        throw;
    }
}

void Converter::convert_ntff(const std::string& ntff, const std::string& neff, const ProfileInfo& base) {
    if (neff.empty() && runtime_path_of_source(ntff).session >= 0)
        throw Error("a session's NTFF holds every NEFF its process ran: export it with neuron-explorer view "
                    "--session-dir (its folder) --output-format parquet, and give nx the directories that writes "
                    "(<name>_session_<k>@latest: each execution is read from its ExecutionInfo)",
                    ntff);
    if (neff.empty()) throw Error("an NTFF needs its NEFF to be read (--neff FILE)", ntff);
    check_capture_pair(ntff, neff);
    ProfileInfo b = base;
    if (b.source.empty()) b.source = ntff;
    if (b.name.empty()) b.name = runtime_profile_name(ntff, without_suffix(last_component(ntff), ".ntff"));
    std::string tool = neuron_profiler_tool();
    // Name the NTFF the user gave, not our temporary files.
    auto blame_ntff = [&](Error& e, const std::string& temp, const char* how) {
        if (e.where().compare(0, temp.size(), temp) == 0) e.set_where(ntff + " (" + how + e.where().substr(temp.size()) + ")");
    };
    if (profiler_writes_parquet(tool)) {
        TempDirectory dir;
        explorer_view_parquet(tool, neff, ntff, dir.path(), options_.view);
        try {
            import_explorer(dir.path(), b, real_path(ntff));
        } catch (Error& e) {
            blame_ntff(e, dir.path(), "as Parquet from neuron-explorer view: ");
            throw;
        }
        return;
    }
    TempPath json(".json");
    neuron_view_json(tool, neff, ntff, json.path());
    auto in = InputSource::open(json.path());
    try {
        import_stream(*in, "neuron-json", b, real_path(ntff));
    } catch (Error& e) {
        if (e.where() == json.path()) e.set_where(ntff + " (as JSON from neuron-profile view)");
        throw;
    }
}

void Converter::convert_explorer_dir(const std::string& dir, const ProfileInfo& base) {
    const FormatDef* forced = options_.format.empty() ? nullptr : find_input_format(options_.format);
    if (forced && forced->kind != FormatKind::directory)
        throw Error("a Neuron Explorer profile directory, not " + options_.format, dir);
    import_explorer(dir, base, real_path(dir));
}

void Converter::convert_database(const std::string& path) {
    Store store(path, Store::Access::read_only);
    if (options_.progress) options_.progress->start(path, nullptr);
    run_import(path, [&] { replay_stored_profiles(store, options_.profiles, builder_); });
}

void Converter::import_explorer(const std::string& dir, const ProfileInfo& base, const std::string& identity) {
    ImportContext ctx;
    ctx.where = dir;
    ctx.keep_going = options_.keep_going;
    ctx.base = base;
    if (ctx.base.source.empty()) ctx.base.source = dir;
    // "<display-name>@latest" is Explorer's directory for a profile.
    if (ctx.base.name.empty()) ctx.base.name = runtime_profile_name(dir, without_suffix(last_component(dir), "@latest"));
    ctx.identity = identity;
    if (options_.progress) options_.progress->start(dir, nullptr);
    run_import(dir, [&] { import_explorer_profile(dir, builder_, ctx); });
}

void Converter::convert_capture_tree(const std::string& dir_arg, const ProfileInfo& base) {
    // Planned as make dataset plans it (nx-convert --plan): each profile with
    // the rank of its name or its worker, so a database of a tree holds the
    // ranks a dataset of the same tree does.  Throws, naming what a tree may
    // hold and what was left out, when it holds none.
    const std::string dir = without_trailing_slashes(dir_arg);
    CaptureTreePlan planned = plan_capture_tree(dir);
    for (const std::string& skipped : planned.skipped) print_warning("skipped " + skipped);
    const std::vector<PlanEntry>& plan = planned.entries;
    // Each profile is read by the absolute path its plan lists, as a
    // dataset's are (its source says where it lies, wherever nx ran), and
    // named by its path below the tree.
    const std::string root = planned_path(dir);
    // A system profile's linked device profiles may lie beside the tree, not
    // below it: such a path is kept whole rather than cut at root's length.
    auto below = [&](const std::string& path) {
        return path.compare(0, root.size() + 1, root + "/") == 0 ? path.substr(root.size() + 1) : path;
    };
    const bool any_pair = std::any_of(plan.begin(), plan.end(), [](const PlanEntry& e) { return is_capture_pair(e); });
    if (!options_.neff.empty() && any_pair)
        throw Error("--neff does not apply to a capture directory: each NTFF is read with the neff_<hash>.neff of "
                    "its own hash",
                    dir);
    if (base.rank >= 0 && std::any_of(plan.begin(), plan.end(), [](const PlanEntry& e) { return e.rank >= 0; }))
        throw Error("--rank does not apply to a capture tree: its plan ranks each profile (nx-convert --plan)", dir);
    stats_.inputs += static_cast<int>(plan.size()) - 1;
    error_counts().set_total(ErrorKind::failed_input, stats_.inputs);
    const std::string stem = base.name.empty() ? last_component(dir) : base.name;
    for (const PlanEntry& e : plan) {
        const std::string& input = e.input;
        ProfileInfo b = base;
        if (b.rank < 0) b.rank = e.rank;
        convert_part([&] {
            if (is_directory(input)) return import_explorer(input, b, real_path(input));
            if (is_capture_pair(e)) {
                // Its path below the tree: the runtime's process folder keeps
                // two processes' NTFFs of one name apart.
                b.name = stem + "/" + without_suffix(below(e.input), ".ntff");
                if (e.neff.empty())
                    throw Error("no neff_" + ntff_capture_hash(e.input).value_or("") +
                                    ".neff in the capture: an NTFF is read with the NEFF it was captured from",
                                input);
                return convert_one(input, "ntff", b, e.neff);
            }
            // A rank file of the tree's own folder: "<tree>/rank<i>".
            if (e.rank >= 0 && below(e.input).find('/') == std::string::npos && rank_in_file_name(e.input))
                b.name = stem + "/rank" + std::to_string(e.rank);
            const std::string& neff = options_.neff.empty() ? e.neff : options_.neff;
            convert_one(input, ends_with_ntff(e.input) ? "ntff" : options_.format, b, neff);
        });
    }
}

void Converter::convert_runs(InputSource& in) {
    if (!options_.on_run) throw Error("run records go into a study database's run history: give --db FILE", in.name(), 1);
    for_each_record(in, options_.keep_going, [&](rapidjson::Document& rec, const std::string& text, int64_t) {
        std::string kind = get_string(rec, "kind").value_or("");
        if (kind != "run") throw Error("expected run records, got \"" + kind + "\"");
        options_.on_run(run_row_from_record(rec, text));
        ++stats_.runs;
    });
}

void Converter::convert_captures(InputSource& in) {
    JsonlReader reader(in);
    rapidjson::Document rec;
    while (reader.next(rec)) {
        int64_t line = reader.line();
        try {
            std::string kind = get_string(rec, "kind").value_or("");
            if (kind != "capture")
                throw Error("expected capture records, got \"" + kind + "\"", in.name(), line);
            const rapidjson::Value* p = find_member(rec, "profile");
            if (!p || !p->IsObject()) throw Error("capture record without a \"profile\" object", in.name(), line);
            ProfileInfo b = options_.base;
            if (auto v = get_string(rec, "name")) b.name = *v;
            if (auto v = get_string(rec, "backend")) b.backend = *v;
            if (auto v = get_string(rec, "target")) b.target = *v;
            if (auto v = get_string(rec, "dtype")) b.dtype = *v;
            if (auto r = get_int(*p, "rank")) b.rank = static_cast<int>(*r);
            // Everything the capture says (workload, run statistics, tags) is
            // carried into the profile record.
            rapidjson::Document carried;
            carried.CopyFrom(rec, carried.GetAllocator());
            carried.RemoveMember("kind");
            carried.RemoveMember("profile");
            b.carried_json = to_json(carried);
            std::string format = get_string(*p, "format").value_or("");
            // Only files inside the allowed roots (record_paths.h).
            RecordPaths allowed(options_.roots);
            auto named = [&](const char* key, const char* field, const std::string& dflt) {
                std::optional<std::string> v = get_string(*p, key);
                return v && !v->empty() ? allowed.resolve(*v, in.path(), field) : dflt;
            };
            std::string path = named("path", "profile.path", "");
            std::string ntff = named("ntff", "profile.ntff", "");
            std::string neff = named("neff", "profile.neff", options_.neff);
            if (path.empty() && ntff.empty())
                throw Error("capture record names no profile file (profile.path)", in.name(), line);
            const FormatDef* def = find_input_format(format);
            if (path.empty() || (def && def->kind == FormatKind::ntff)) {
                convert_ntff(ntff.empty() ? path : ntff, neff, b);
            } else {
                convert_one(path, format == "auto" ? std::string() : format, b, neff);
            }
        } catch (const Error& e) {
            Error located = e.where().empty() ? Error(e.what(), in.name(), line) : e;
            if (!options_.keep_going) {
                builder_.abort_profile();
                throw located;
            }
            failed(located);
        }
    }
}

}  // namespace nx
