// Neuron Explorer's Parquet profile (`neuron-explorer view`, SDK 2.28 on; the
// only complete output from 2.34): a directory of tables, schema 7.x and
// 12.x.  Mapping into nx (nx(7) lists it):
//   Instruction -> instruction events     DmaPacket -> DMA events per queue
//   ActiveTime  -> `active` events (the profiler's own busy intervals)
//   CcOp, CcInstruction -> collective region events
//   SemaphoreUpdate, PendingDma, DmaUsage, HbmUsage, SbufUsage, PsumUsage -> counters
//   Summary (one wide row) -> source metrics; Metadata -> target, versions
//   Warning, Error -> the profile's "warnings", "errors" (findings, first)
// Every other table goes to the study database as it is (SourceRows: the
// explorer_<Table> views) and is named with its row count in the profile
// record.  Unknown columns are kept in the event's args; unknown tables and a
// schema MAJOR nx does not know are imported as far as they are recognised,
// with a warning.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>

#include "common/cli/diag.h"
#include "common/import/explorer_tables.h"
#include "common/import/importer.h"
#include "common/io/error.h"
#include "common/io/json_text.h"
#include "common/io/utf8.h"
#include "common/parquet/row_json.h"
#include "common/parquet/table_reader.h"
#include "common/profile/targets.h"
#include "common/records/error_counts.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

using parquet::ColumnCursor;
using parquet::ColumnInfo;
using parquet::TableReader;

// Schema MAJOR versions whose layout nx maps (neuron-explorer-parquet facts).
constexpr int kKnownMajors[] = {7, 12};

enum class Kind { integer, number, text };

std::string_view kind_name(Kind k) {
    switch (k) {
        case Kind::integer: return "integers";
        case Kind::number: return "numbers";
        case Kind::text: return "text";
    }
    return "";
}

struct ColumnSpec {
    const char* name;
    Kind kind;
    bool required = false;
};

// SchemaFields rows nx checks files against: (table, field) -> type, unit.
struct FieldFacts {
    std::string type, format, unit;
};
using SchemaFacts = std::map<std::pair<std::string, std::string>, FieldFacts>;

// A value derived from a text column, computed once per dictionary entry
// (per row when the column's page is not dictionary-encoded): queue names
// repeat on every DMA row and classifying one takes several substring scans.
template <typename T>
class PerEntry {
public:
    template <typename F>
    T get(const ColumnCursor* c, std::string_view text, F&& compute) {
        if (!c || c->is_null() || !c->from_dictionary()) return compute(text);
        if (dictionary_ != c->dictionary_id()) {
            dictionary_ = c->dictionary_id();
            values_.assign(c->dictionary_size(), std::nullopt);
        }
        std::optional<T>& v = values_[c->dictionary_index()];
        if (!v) v = compute(text);
        return *v;
    }

private:
    uint64_t dictionary_ = 0;
    std::vector<std::optional<T>> values_;
};

// One table opened with the columns a mapping asks for, every other column
// too (for args), and typed access that names table, row group and column
// in every complaint.
class Table {
public:
    Table(const std::vector<std::string>& files, const std::vector<ColumnSpec>& specs, const SchemaFacts& facts,
          const std::string& table, bool all_columns)
        : name_(table) {
        std::vector<std::string> names;
        for (const ColumnSpec& s : specs) names.emplace_back(s.name);
        mapped_ = names.size();
        reader_ = std::make_unique<TableReader>(files, std::move(names),
                                                all_columns ? TableReader::Others::add : TableReader::Others::skip);
        reader_->first_file();
        json_ = std::make_unique<parquet::RowJson>(reader_->names());
        for (size_t i = 0; i < specs.size(); ++i) check(i, specs[i], facts);
    }

    bool next() { return reader_->next(); }
    const std::string& file() const { return reader_->file(); }
    std::string where_in_table(size_t h) const {
        return "row group " + std::to_string(reader_->row_group()) + ", row " + std::to_string(reader_->row()) +
               ", column " + reader_->names()[h];
    }
    std::string where_row() const {
        return "row group " + std::to_string(reader_->row_group()) + ", row " + std::to_string(reader_->row());
    }

    bool present(size_t h) const {
        const ColumnCursor* c = reader_->column(h);
        return c && !c->is_null();
    }
    std::optional<int64_t> integer(size_t h) const {
        const ColumnCursor* c = reader_->column(h);
        if (!c || c->is_null()) return std::nullopt;
        return c->i64();
    }
    std::optional<double> number(size_t h) const {
        const ColumnCursor* c = reader_->column(h);
        if (!c || c->is_null()) return std::nullopt;
        if (c->holds_integers()) return static_cast<double>(c->i64());
        return c->f64();
    }
    std::string_view text(size_t h) const {
        const ColumnCursor* c = reader_->column(h);
        if (!c || c->is_null() || c->info().is_list || !c->holds_bytes()) return {};
        return c->str();
    }

    // The columns no mapping took, as a JSON object (Perfetto-style args).
    std::string_view other_args() { return json_->write(*reader_, mapped_); }
    // Every column of the row.
    std::string row_json() { return std::string(json_->write(*reader_, 0)); }

    const std::vector<std::string>& names() const { return reader_->names(); }
    const TableReader& reader() const { return *reader_; }

private:
    void check(size_t h, const ColumnSpec& spec, const SchemaFacts& facts) {
        const ColumnInfo* info = reader_->info(h);
        std::string file = reader_->file();
        if (!info) {
            if (spec.required)
                throw Error("column " + std::string(spec.name) + ": missing (the " + name_ + " table needs it)", file);
            return;
        }
        bool ints = info->type == parquet::PhysicalType::int32 || info->type == parquet::PhysicalType::int64 ||
                    info->type == parquet::PhysicalType::boolean;
        bool reals = info->type == parquet::PhysicalType::float32 || info->type == parquet::PhysicalType::float64;
        bool ok = !info->is_list && (spec.kind == Kind::integer ? ints : spec.kind == Kind::number ? (ints || reals)
                                                                                                  : !(ints || reals));
        if (!ok)
            throw Error("column " + std::string(spec.name) + ": expected " + std::string(kind_name(spec.kind)) +
                            ", the file has " + (info->is_list ? "a LIST of " : "") + to_string(info->type),
                        file);
        // The profile's own description must agree with the file.
        auto it = facts.find({name_, spec.name});
        if (it != facts.end()) {
            const FieldFacts& f = it->second;
            bool says_int = f.type == "integer", says_num = f.type == "number", says_text = f.type == "string";
            bool agrees = (says_int && ints) || (says_num && (reals || ints)) || (says_text && !(ints || reals)) ||
                          (!says_int && !says_num && !says_text);
            if (!agrees)
                throw Error("column " + std::string(spec.name) + ": SchemaFields says " + f.type +
                                (f.format.empty() ? "" : " (" + f.format + ")") + ", the file has " + to_string(info->type),
                            file);
        }
    }

    std::string name_;
    size_t mapped_ = 0;
    std::unique_ptr<TableReader> reader_;
    std::unique_ptr<parquet::RowJson> json_;
};

// Tracks of physical core 0 keep the profiler's row names; other physical
// cores (LNC=2) get a "pcoreN/" prefix so their rows stay apart.
std::string_view track_name(std::string_view base, int64_t pcore, std::string& scratch) {
    if (pcore <= 0) return base;
    scratch = "pcore" + std::to_string(pcore) + "/" + std::string(base);
    return scratch;
}

// SystemProfileEvents with the columns nx reads by name.
struct SystemEventTable {
    enum { kStart, kEnd, kDur, kName, kSource, kPid, kTid, kNc, kInstance };
    SystemEventTable(const std::vector<std::string>& files, const SchemaFacts& facts)
        : table(files,
                {{"start_ts", Kind::integer, true}, {"end_ts", Kind::integer}, {"duration_ns", Kind::integer},
                 {"name", Kind::text, true}, {"trace_event_source", Kind::text}, {"process_id", Kind::integer},
                 {"thread_id", Kind::integer}, {"nc_idx", Kind::integer}, {"instance_id", Kind::text}},
                facts, "SystemProfileEvents", true) {}
    bool next() { return table.next(); }
    Table table;
};

// What ties a device profile to the system profile's events: the instance,
// process and logical core that ran it.
std::string exec_key(std::string_view instance, int64_t pid, int64_t nc) {
    return std::string(instance) + "/" + std::to_string(pid) + "/" + std::to_string(nc);
}

// nc_exec_running spans per core, in host ns.
class ExecSpans {
public:
    void add(SystemEventTable& tab, const Event& e) {
        auto nc = tab.table.integer(SystemEventTable::kNc);
        if (!nc) return;
        int64_t pid = tab.table.integer(SystemEventTable::kPid).value_or(kNoId);
        Span& s = spans_[exec_key(tab.table.text(SystemEventTable::kInstance), pid, *nc)];
        s.first = s.count ? std::min(s.first, e.ts_ns) : e.ts_ns;
        s.last = s.count ? std::max(s.last, e.ts_ns + e.dur_ns) : e.ts_ns + e.dur_ns;
        ++s.count;
    }
    // "nc_exec_running":{...} or null, for a profile record.
    std::string json(const std::string& key) const {
        auto it = spans_.find(key);
        if (it == spans_.end()) return "\"nc_exec_running\":null";
        return "\"nc_exec_running\":{\"count\":" + std::to_string(it->second.count) +
               ",\"first_start_ns\":" + std::to_string(it->second.first) +
               ",\"last_end_ns\":" + std::to_string(it->second.last) + "}";
    }

private:
    struct Span { int64_t first = 0, last = 0, count = 0; };
    std::map<std::string, Span> spans_;
};

struct DeviceRow {
    std::string name;      // device_profile_name
    std::string key;       // exec_key()
    std::string row_json;  // every column, as a JSON object
};

std::vector<DeviceRow> read_device_rows(const std::vector<std::string>& files, const SchemaFacts& facts) {
    Table tab(files, {{"device_profile_name", Kind::text, true}, {"instance_id", Kind::text}, {"process_id", Kind::integer},
                      {"nc_id", Kind::integer}},
              facts, "DeviceProfileList", true);
    std::vector<DeviceRow> out;
    while (tab.next())
        out.push_back({std::string(tab.text(0)),
                       exec_key(tab.text(1), tab.integer(2).value_or(kNoId), tab.integer(3).value_or(kNoId)),
                       tab.row_json()});
    return out;
}

// {"a":1} + "\"b\":2" -> {"a":1,"b":2}
std::string with_fields(const std::string& object, const std::string& fields) {
    if (object.size() < 2) return "{" + fields + "}";
    std::string out = object.substr(0, object.size() - 1);
    return out + (out.size() > 1 ? "," : "") + fields + "}";
}

std::string id_text(int64_t id) { return id == kNoId ? "?" : std::to_string(id); }

bool parse_int(std::string_view text, int64_t& out) {
    if (text.empty()) return false;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

class ExplorerImport {
public:
    ExplorerImport(const ExplorerTables& t, ImportHandler& out, ImportContext& ctx) : t_(t), out_(out), ctx_(ctx) {}

    void run() {
        read_schema_fields();
        info_ = ctx_.profile_info("explorer-parquet");
        if (info_.backend.empty()) info_.backend = "neuron";
        info_.source_percents = PercentScale::percent;
        read_metadata();
        link_to_system();
        out_.begin_profile(info_);
        if (trace_seconds_ > 0) out_.source_metric("total_time", trace_seconds_);
        read_system_events();
        read_device_list();
        read_summary();
        read_instructions();
        read_dma();
        read_active_time();
        read_collectives();
        read_counters();
        read_messages();
        carry_other_tables();
        finish();
    }

private:
    // Runs one table's import with its file as the place errors name.
    template <typename F>
    void table(const char* name, F&& body) {
        const std::vector<std::string>* files = t_.find(name);
        if (!files) return;
        std::string saved = ctx_.where;
        done_.insert(name);
        try {
            if (auto it = t_.broken.find(name); it != t_.broken.end()) throw Error(it->second, t_.dir);
            body(*files);
        } catch (Error& e) {
            ctx_.where = saved;
            if (e.where().empty()) e.set_where(files->front());
            if (!ctx_.keep_going) throw;
            // Rows before the damage were imported; say so rather than pretend
            // the table is whole.
            error_counts().add(ErrorKind::damaged_table, std::string("skipped the rest of table ") + name + ": " + e.what(),
                               e.where(), e.line());
        }
        ctx_.where = saved;
    }

    void bad_row(const Table& tab, size_t h, const std::string& message) {
        ctx_.where = tab.file();
        ctx_.bad_record(tab.where_in_table(h) + ": " + message, 0);
    }

    void read_schema_fields() {
        table("SchemaFields", [&](const std::vector<std::string>& files) {
            Table tab(files, {{"table_name", Kind::text, true}, {"field_name", Kind::text, true},
                              {"field_type", Kind::text}, {"field_format", Kind::text}, {"field_unit", Kind::text}},
                      facts_, "SchemaFields", false);
            while (tab.next())
                facts_[{std::string(tab.text(0)), std::string(tab.text(1))}] =
                    FieldFacts{std::string(tab.text(2)), std::string(tab.text(3)), std::string(tab.text(4))};
        });
    }

    void read_metadata() {
        table("Metadata", [&](const std::vector<std::string>& files) {
            Table tab(files, {{"profile_schema_version", Kind::text}, {"instance_type", Kind::text},
                              {"first_hw_timestamp", Kind::integer}, {"last_hw_timestamp", Kind::integer}},
                      facts_, "Metadata", true);
            if (!tab.next()) return;
            version_ = std::string(tab.text(0));
            // The trace's bounds are the profiler's own total time (Summary,
            // when present, says the same in float seconds and wins).
            auto first = tab.integer(2), last = tab.integer(3);
            if (first && last && *last > *first) trace_seconds_ = static_cast<double>(*last - *first) / 1e9;
            std::string target = target_of_instance(tab.text(1));
            if (info_.target.empty() && !target.empty()) info_.target = target;
            // Every Metadata field (versions, clocks, core counts) goes with the profile.
            metadata_json_ = tab.row_json();
        });
        read_system_metadata();
        if (version_.empty() && t_.find("SystemProfileEvents")) return;  // a system profile has no Metadata
        if (version_.empty()) {
            print_warning("no Metadata.profile_schema_version: importing the tables nx recognises", t_.dir);
            return;
        }
        int major = std::atoi(version_.c_str());
        if (std::find(std::begin(kKnownMajors), std::end(kKnownMajors), major) == std::end(kKnownMajors))
            print_warning("profile schema " + version_ + " is newer than nx knows (7.x, 12.x): importing the tables and "
                          "columns it recognises, checked against the profile's SchemaFields",
                          t_.dir);
    }

    // A system profile's time bounds: Unix-epoch ns written as text.
    void read_system_metadata() {
        table("SystemProfileMetadata", [&](const std::vector<std::string>& files) {
            Table tab(files, {{"first_ts_ns", Kind::text}, {"last_ts_ns", Kind::text}}, facts_, "SystemProfileMetadata", true);
            if (!tab.next()) return;
            int64_t first = 0, last = 0;
            if (parse_int(tab.text(0), first) && parse_int(tab.text(1), last) && last > first)
                trace_seconds_ = static_cast<double>(last - first) / 1e9;
            metadata_json_ = tab.row_json();
        });
    }

    // SystemProfileEvents: the host's runtime (neuron_rt), hardware
    // (neuron_hw) and framework events, one track per source and thread,
    // under their process.  Each core's nc_exec_running spans are kept: they
    // tie a device profile to host time (exec_spans_).
    void read_system_events() {
        table("SystemProfileEvents", [&](const std::vector<std::string>& files) {
            SystemEventTable tab(files, facts_);
            std::string track, process;
            while (tab.next()) {
                Event e;
                if (!interval(tab.table, SystemEventTable::kStart, SystemEventTable::kEnd, SystemEventTable::kDur, e))
                    continue;
                std::string_view source = tab.table.text(SystemEventTable::kSource);
                e.type = source == "framework" ? EventType::region : EventType::runtime;
                e.name = tab.table.text(SystemEventTable::kName);
                e.pid = tab.table.integer(SystemEventTable::kPid).value_or(kNoId);
                e.tid = tab.table.integer(SystemEventTable::kTid).value_or(kNoId);
                std::string_view instance = tab.table.text(SystemEventTable::kInstance);
                track = std::string(source.empty() ? "host" : source) + " pid " + id_text(e.pid) + " tid " + id_text(e.tid);
                process = "process " + id_text(e.pid) + (instance.empty() ? "" : " on " + std::string(instance));
                e.track = track;
                e.process = process;
                e.args_json = tab.table.other_args();
                if (e.name == "nc_exec_running") exec_spans_.add(tab, e);
                out_.event(e);
            }
        });
    }

    // DeviceProfileList: the device profiles captured inside this system
    // profile, each with the directory nx found it in (null when absent) and
    // its core's nc_exec_running span in host time.
    void read_device_list() {
        table("DeviceProfileList", [&](const std::vector<std::string>& files) {
            std::map<std::string, std::string> found = linked_device_dirs(t_.dir);
            std::string list = "[";
            std::vector<std::string> missing;
            for (DeviceRow& d : read_device_rows(files, facts_)) {
                auto it = found.find(d.name);
                std::string path = it != found.end() ? json_quote(it->second) : "null";
                if (it == found.end()) missing.push_back(d.name);
                list += (list.size() > 1 ? "," : "") + with_fields(d.row_json, "\"path\":" + path + "," +
                                                                   exec_spans_.json(d.key));
            }
            carried_["device_profiles"] = list + "]";
            if (!missing.empty()) {
                std::string names;
                for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
                print_warning("DeviceProfileList names device profiles nx did not find below the system profile: " +
                                  names,
                              t_.dir);
            }
        });
    }

    // A device profile inside a system profile (a directory up to three
    // levels below one with DeviceProfileList): its row of that list and its
    // core's nc_exec_running span go with the profile as "system_profile".
    void link_to_system() {
        if (t_.find("SystemProfileEvents")) return;
        std::string name = profile_dir_name(t_.dir);
        std::string dir = t_.dir;
        for (int up = 0; up < 3; ++up) {
            size_t slash = dir.find_last_of('/');
            if (slash == std::string::npos || slash == 0) return;
            dir.resize(slash);
            ExplorerTables sys = scan_explorer_dir(dir);
            const std::vector<std::string>* list = sys.find("DeviceProfileList");
            if (!list) continue;
            try {
                for (DeviceRow& d : read_device_rows(*list, {})) {
                    if (d.name != name) continue;
                    ExecSpans spans;
                    if (const std::vector<std::string>* ev = sys.find("SystemProfileEvents")) {
                        SystemEventTable tab(*ev, {});
                        while (tab.next())
                            if (tab.table.text(SystemEventTable::kName) == "nc_exec_running") {
                                Event e;
                                if (interval(tab.table, SystemEventTable::kStart, SystemEventTable::kEnd,
                                             SystemEventTable::kDur, e))
                                    spans.add(tab, e);
                            }
                    }
                    carried_["system_profile"] =
                        with_fields(d.row_json, "\"path\":" + json_quote(dir) + "," + spans.json(d.key));
                    return;
                }
            } catch (const Error& e) {
                // The device profile stands on its own; only the link is lost.
                print_warning(std::string("cannot read the system profile it belongs to: ") + e.what(), dir);
            }
            return;
        }
    }

    void read_summary() {
        table("Summary", [&](const std::vector<std::string>& files) {
            Table tab(files, {}, facts_, "Summary", true);
            if (!tab.next()) return;
            for (size_t h = 0; h < tab.names().size(); ++h) {
                const std::string& k = tab.names()[h];
                const ColumnCursor* c = tab.reader().column(h);
                if (!c || c->is_null() || c->info().is_list || c->holds_bytes() || is_identifier_field(k)) continue;
                double v = c->holds_integers() ? static_cast<double>(c->i64()) : c->f64();
                if (std::isfinite(v)) out_.source_metric(k, v);
            }
        });
    }

    void read_instructions() {
        table("Instruction", [&](const std::vector<std::string>& files) {
            enum { kStart, kEnd, kDur, kEngine, kTrack, kPcore, kOpcode, kHlo, kLayer, kFlops, kType };
            Table tab(files,
                      {{"start_ts", Kind::integer, true}, {"end_ts", Kind::integer}, {"duration_ns", Kind::integer},
                       {"engine", Kind::text, true}, {"timeline_track", Kind::text}, {"pcore_idx", Kind::integer},
                       {"opcode", Kind::text}, {"hlo_name", Kind::text}, {"layer", Kind::text},
                       {"raw_flops", Kind::number}, {"tensor_instruction_type", Kind::text}},
                      facts_, "Instruction", true);
            std::string scratch;
            while (tab.next()) {
                Event e;
                if (!interval(tab, kStart, kEnd, kDur, e)) continue;
                std::string_view engine = tab.text(kEngine);
                std::string_view track = tab.text(kTrack);
                if (track.empty()) track = engine;
                e.type = EventType::instruction;
                e.engine = engine_from_label(track);
                if (e.engine == Engine::none) e.engine = engine_from_label(engine);
                e.track = track_name(track, tab.integer(kPcore).value_or(0), scratch);
                e.opcode = tab.text(kOpcode);
                e.name = !e.opcode.empty() ? e.opcode : e.track;
                e.hlo_name = tab.text(kHlo);
                e.layer = tab.text(kLayer);
                if (auto f = tab.number(kFlops)) {
                    if (*f < 0) { bad_row(tab, kFlops, "negative FLOPs"); continue; }
                    e.flops = *f;
                }
                e.transpose = tab.text(kType) == "TRANSPOSE";
                e.args_json = tab.other_args();
                out_.event(e);
            }
        });
    }

    void read_dma() {
        table("DmaPacket", [&](const std::vector<std::string>& files) {
            enum { kStart, kEnd, kDur, kQueue, kQueueType, kBytes, kVariable, kPcore };
            Table tab(files,
                      {{"start_ts", Kind::integer, true}, {"end_ts", Kind::integer}, {"duration_ns", Kind::integer},
                       {"queue_name", Kind::text}, {"queue_type", Kind::text}, {"transfer_bytes", Kind::integer},
                       {"variable", Kind::text}, {"pcore_idx", Kind::integer}},
                      facts_, "DmaPacket", true);
            std::string scratch;
            JsonText args;
            PerEntry<DmaKind> queue_kinds;
            while (tab.next()) {
                Event e;
                if (!interval(tab, kStart, kEnd, kDur, e)) continue;
                e.type = EventType::dma;
                e.engine = Engine::dma;
                std::string_view queue = tab.text(kQueue);
                if (queue.empty()) queue = "dma";
                e.track = track_name(queue, tab.integer(kPcore).value_or(0), scratch);
                e.name = queue;
                e.dma_kind = dma_kind(queue_kinds.get(tab.reader().column(kQueue), queue, dma_kind_from_queue),
                                      tab.text(kQueueType));
                if (auto b = tab.integer(kBytes)) {
                    if (*b < 0) { bad_row(tab, kBytes, "negative transfer size"); continue; }
                    e.bytes = *b;
                }
                e.tensor = tab.text(kVariable);
                e.queue_type = tab.text(kQueueType);
                e.args_json = tab.other_args();
                // The queue type also stays in args: the study database keeps
                // args, so rules that read it work on a stored profile too.
                if (!e.queue_type.empty()) {
                    if (e.args_json.empty()) {  // no other columns: RowJson writes nothing
                        args.clear();
                        args.start_object();
                    } else {
                        args.reopen_object(e.args_json);
                    }
                    args.key("queue_type");
                    args.string(e.queue_type);
                    args.end_object();
                    e.args_json = args.view();
                }
                out_.event(e);
            }
        });
    }

    void read_active_time() {
        table("ActiveTime", [&](const std::vector<std::string>& files) {
            enum { kStart, kEnd, kDur, kEngine, kPcore };
            Table tab(files,
                      {{"start_ts", Kind::integer, true}, {"end_ts", Kind::integer}, {"duration_ns", Kind::integer},
                       {"engine", Kind::text, true}, {"pcore_idx", Kind::integer}},
                      facts_, "ActiveTime", false);
            std::string track, scratch;
            while (tab.next()) {
                Event e;
                if (!interval(tab, kStart, kEnd, kDur, e)) continue;
                e.type = EventType::active;
                e.engine = engine_from_label(tab.text(kEngine));
                if (e.engine == Engine::none) {
                    bad_row(tab, kEngine, "unknown engine \"" + std::string(tab.text(kEngine)) + "\"");
                    continue;
                }
                track = std::string(to_string(e.engine)) + " active";
                e.track = track_name(track, tab.integer(kPcore).value_or(0), scratch);
                e.name = "active";
                out_.event(e);
            }
        });
    }

    void read_collectives() {
        for (const char* name : {"CcOp", "CcInstruction"}) {
            table(name, [&](const std::vector<std::string>& files) {
                enum { kStart, kEnd, kDur, kOperation, kDescription, kBytes };
                Table tab(files,
                          {{"start_ts", Kind::integer, true}, {"end_ts", Kind::integer}, {"duration_ns", Kind::integer},
                           {"operation", Kind::text}, {"description", Kind::text}, {"input_size", Kind::integer}},
                          facts_, name, true);
                bool op = std::string_view(name) == "CcOp";
                while (tab.next()) {
                    Event e;
                    if (!interval(tab, kStart, kEnd, kDur, e)) continue;
                    e.type = EventType::region;
                    e.track = op ? "collectives" : "cc cores";
                    std::string_view n = tab.text(op ? kOperation : kDescription);
                    e.name = !n.empty() ? n : std::string_view(name);
                    if (auto b = tab.integer(kBytes); b && *b >= 0) e.bytes = *b;
                    e.args_json = tab.other_args();
                    out_.event(e);
                }
            });
        }
    }

    // Time series: one counter track per series (and per physical core).
    void read_counters() {
        struct Series { const char* table; const char* value; const char* track; };
        static constexpr Series kSeries[] = {
            {"PendingDma", "value", "pending DMAs"},
            {"DmaUsage", "current_throughput", "DMA throughput (B/s)"},
            {"HbmUsage", "current_throughput", "HBM throughput (B/s)"},
            {"SbufUsage", "avg_util_percent", "SBUF used (%)"},
            {"PsumUsage", "avg_util_percent", "PSUM used (%)"},
        };
        std::string scratch;
        for (const Series& s : kSeries) {
            table(s.table, [&](const std::vector<std::string>& files) {
                Table tab(files, {{"timestamp", Kind::integer, true}, {s.value, Kind::number, true}, {"pcore_idx", Kind::integer}},
                          facts_, s.table, false);
                while (tab.next()) {
                    auto ts = tab.integer(0);
                    auto v = tab.number(1);
                    if (!ts || !v) continue;  // a gap in the series
                    counter(*ts, *v, track_name(s.track, tab.integer(2).value_or(0), scratch));
                }
            });
        }
        table("SemaphoreUpdate", [&](const std::vector<std::string>& files) {
            Table tab(files, {{"timestamp", Kind::integer, true}, {"id", Kind::text}, {"value", Kind::number, true},
                              {"pcore_idx", Kind::integer}},
                      facts_, "SemaphoreUpdate", false);
            std::string track;
            while (tab.next()) {
                auto ts = tab.integer(0);
                auto v = tab.number(2);
                if (!ts || !v) continue;
                track = "semaphore " + std::string(tab.text(1));
                counter(*ts, *v, track_name(track, tab.integer(3).value_or(0), scratch));
            }
        });
    }

    void counter(int64_t ts, double value, std::string_view track) { emit_counter(out_, ts, value, track); }

    void read_messages() {
        for (const char* name : {"Warning", "Error"}) {
            table(name, [&](const std::vector<std::string>& files) {
                Table tab(files, {}, facts_, name, true);
                std::string list = "[";
                int n = 0;
                while (tab.next() && n < 1000) {
                    std::string row = tab.row_json();
                    list += (n++ ? "," : "") + (row.empty() ? std::string("{}") : row);
                }
                list += "]";
                if (n > 0) carried_[std::string_view(name) == "Warning" ? "warnings" : "errors"] = list;
            });
        }
    }

    // Tables nx does not map onto events (OpcodeSummary, Flow, TensorInfo,
    // the hierarchy, Throttle...) go to the study database as they are, a
    // JSON object per row (the explorer_<Table> views), and are named with
    // their row counts in the profile record.
    void carry_other_tables() {
        std::string obj = "{";
        for (const auto& entry : t_.tables) {
            const std::string& name = entry.first;  // named, not bound: lambdas capture it (clang 14)
            if (done_.count(name)) continue;
            int64_t rows = 0;
            table(name.c_str(), [&](const std::vector<std::string>& f) {
                Table tab(f, {}, facts_, name, true);
                SourceRows batch;
                batch.table = name;
                batch.columns = tab.names();
                while (tab.next()) {
                    std::string row = tab.row_json();
                    batch.rows.push_back(row.empty() ? "{}" : std::move(row));
                    ++rows;
                    if (batch.rows.size() >= kRowsPerBatch) {
                        out_.source_rows(batch);
                        batch.rows.clear();
                    }
                }
                out_.source_rows(batch);  // also registers the columns of an empty table
            });
            obj += (obj.size() > 1 ? "," : "") + json_quote(name) + ":" + std::to_string(rows);
        }
        obj += "}";
        if (obj.size() > 2) carried_["explorer_tables"] = obj;
    }

    static constexpr size_t kRowsPerBatch = 1024;

    void finish() {
        rapidjson::Document doc;
        if (!info_.carried_json.empty()) doc.Parse(info_.carried_json.c_str());
        if (!doc.IsObject()) doc.SetObject();
        auto& alloc = doc.GetAllocator();
        auto put = [&](const std::string& k, const std::string& json) {
            rapidjson::Document part(&alloc);
            part.Parse(json.c_str());
            if (part.HasParseError()) return;
            doc.RemoveMember(k.c_str());
            doc.AddMember(rapidjson::Value(k.c_str(), alloc), rapidjson::Value(part, alloc), alloc);
        };
        if (!version_.empty()) put("profile_schema_version", json_quote(version_));
        if (!metadata_json_.empty()) put("metadata", metadata_json_);
        for (const auto& [k, v] : carried_) put(k, v);
        info_.carried_json = to_json(doc);
        out_.update_info(info_);
        out_.end_profile();
    }

    // start/end/duration of a row: end_ts wins, duration_ns fills in.
    bool interval(Table& tab, size_t start, size_t end, size_t dur, Event& e) {
        auto s = tab.integer(start);
        if (!s) {
            bad_row(tab, start, "no start time");
            return false;
        }
        e.ts_ns = *s;
        if (auto en = tab.integer(end)) {
            e.dur_ns = *en - *s;
        } else if (auto d = tab.integer(dur)) {
            e.dur_ns = *d;
        } else {
            bad_row(tab, end, "neither end_ts nor duration_ns");
            return false;
        }
        if (e.dur_ns < 0) {
            bad_row(tab, end, "ends before it starts");
            return false;
        }
        return true;
    }

    // Explorer names the queue type (DmaQueueType); spill and weight queues
    // are known by name as in neuron-profile JSON.
    // `from_queue`: dma_kind_from_queue() of the queue's name.
    DmaKind dma_kind(DmaKind from_queue, std::string_view type) {
        if (from_queue != DmaKind::unknown) return from_queue;
        if (type == "input") return DmaKind::hbm_read;
        if (type == "output") return DmaKind::hbm_write;
        return DmaKind::unknown;
    }

    const ExplorerTables& t_;
    ImportHandler& out_;
    ImportContext& ctx_;
    ProfileInfo info_;
    SchemaFacts facts_;
    std::string version_;
    std::string metadata_json_;
    double trace_seconds_ = 0;  // Metadata's last - first hardware timestamp
    std::map<std::string, std::string> carried_;
    std::set<std::string> done_;
    ExecSpans exec_spans_;
};

}  // namespace

void import_explorer_profile(const std::string& dir, ImportHandler& out, ImportContext& ctx) {
    ExplorerTables tables = scan_explorer_dir(dir);
    if (tables.tables.empty()) throw Error("no Neuron Explorer tables (<Table>.parquet) in the directory", dir);
    ExplorerImport(tables, out, ctx).run();
}

}  // namespace nx
