// Neuron Explorer's Parquet profile (`neuron-explorer view`, SDK 2.28 on; the
// only complete output from 2.34): a directory of tables, schema 7.x and
// 12.x.  Mapping into nx (nx(7) lists it):
//   Instruction -> instruction events     DmaPacket -> DMA events per queue
//   ActiveTime  -> `active` events (the profiler's own busy intervals)
//   CcOp, CcInstruction -> collective region events
//   SemaphoreUpdate, PendingDma, DmaUsage, HbmUsage, SbufUsage, PsumUsage -> counters
//   Summary (one wide row) -> source metrics; Metadata -> target, versions
//   Warning, Error -> the profile's "warnings", "errors" (findings, first)
// System profiles (SystemProfileEvents, DeviceProfileList) are read by
// explorer_system.cpp; tables are opened through explorer_table.h.
// Every other table goes to the study database as it is (SourceRows: the
// explorer_<Table> views) and is named with its row count in the profile
// record.  Unknown columns are kept in the event's args; unknown tables and a
// schema MAJOR nx does not know are imported as far as they are recognised,
// with a warning.
#include <rapidjson/document.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "common/io/diag.h"
#include "common/import/explorer_fields.h"
#include "common/import/explorer_system.h"
#include "common/import/explorer_table.h"
#include "common/import/explorer_tables.h"
#include "common/import/importer.h"
#include "common/import/tool_versions.h"
#include "common/io/error.h"
#include "common/io/json_text.h"
#include "common/io/utf8.h"
#include "common/parquet/row_json.h"
#include "common/parquet/table_reader.h"
#include "common/profile/metric_defs.h"
#include "common/profile/profile_record.h"
#include "common/target/targets.h"
#include "common/records/error_counts.h"
#include "common/records/jsonl.h"

namespace nx {

namespace explorer {

namespace {

// Schema MAJOR versions whose layout nx maps (neuron-explorer-parquet facts).
constexpr int kKnownMajors[] = {7, 12};

// Tracks of physical core 0 keep the profiler's row names; other physical
// cores (LNC=2) get a "pcoreN/" prefix so their rows stay apart (event.h).
std::string_view track_name(std::string_view base, int64_t pcore, std::string& scratch) {
    return core_track(base, pcore, scratch);
}

class ExplorerImport {
public:
    ExplorerImport(const ExplorerTables& t, ImportHandler& out, ImportContext& ctx) : t_(t), out_(out), ctx_(ctx) {}

    void run() {
        read_schema_fields();
        info_ = ctx_.profile_info("explorer-parquet");
        if (info_.backend.empty()) info_.backend = "neuron";
        // Summary's *_percent columns hold fractions 0..1 though the schema
        // says "percent" (real exports: neuron-explorer-parquet.md section 12).
        info_.source_percents = PercentScale::fraction;
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
        read_executions();
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
        } catch (const SinkError&) {
            throw;  // not the table's damage: the profile's
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

    // A table through nx's description of it (explorer_fields.h): its
    // fields found under their names in this export and brought to nx's
    // units; none when a field it needs is absent (the report names it).
    std::optional<Table> open_mapped(std::string_view name, const std::vector<std::string>& files,
                                     const std::vector<std::string_view>& wanted, bool all_columns) {
        std::optional<MappedColumns> m = map_columns(name, wanted, columns_of(files), facts_, schema_);
        if (!m) return std::nullopt;
        std::optional<Table> tab;
        tab.emplace(files, m->specs, facts_, std::string(name), all_columns);
        tab->set_scale(std::move(m->scale));
        if (all_columns) schema_.ignored_columns(name, tab->other_columns());
        return tab;
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
            enum { kVersion, kInstance, kFirst, kLast, kCores, kRows, kCols, kClock, kHbm };
            std::optional<Table> mapped = open_mapped("Metadata", files,
                                                      {"profile_schema_version", "instance_type", "first_hw_timestamp",
                                                       "last_hw_timestamp", "num_physical_cores", "tensor_engine_num_rows",
                                                       "tensor_engine_num_cols", "tensor_engine_clock_freq", "hbm_ddr_bandwidth"},
                                                      true);
            if (!mapped) return;
            Table& tab = *mapped;
            if (!tab.next()) return;
            note_core(tab.number(kCores), tab.number(kRows), tab.number(kCols), tab.number(kClock), tab.number(kHbm),
                      "Explorer Metadata");
            version_ = std::string(tab.text(0));
            // The trace's bounds are the profiler's own total time (Summary,
            // when present, says the same in float seconds and wins).
            auto first = tab.integer(2), last = tab.integer(3);
            if (first && last && *last > *first) trace_seconds_ = static_cast<double>(*last - *first) / 1e9;
            if (first) first_hw_ns_ = *first;
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

    // The logical core as the profiler saw it: physical cores (2 under
    // LNC=2), the TensorE array and clock, one HBM stack's bandwidth.
    void note_core(std::optional<double> cores, std::optional<double> rows, std::optional<double> cols,
                   std::optional<double> ghz, std::optional<double> hbm, const char* from) {
        // The clock and bandwidth are float32 columns: 2.4 reads as
        // 2.4000000953674316.  Seven significant digits are all they hold.
        auto f32 = [](std::optional<double>& v) {
            char text[32];
            if (v && *v > 0 && std::snprintf(text, sizeof text, "%.7g", *v) > 0) *v = std::strtod(text, nullptr);
        };
        f32(ghz);
        f32(hbm);
        CoreFacts& c = info_.core;
        if (cores && *cores >= 1 && *cores <= 8) {
            c.physical_cores = static_cast<int>(*cores);
            c.cores_from = from;
        }
        if (ghz && *ghz > 0 && *ghz < 100) {
            c.pe_clock_ghz = *ghz;
            c.pe_rows = rows && *rows > 0 && *rows <= 1024 ? static_cast<int>(*rows) : 0;
            c.pe_cols = cols && *cols > 0 && *cols <= 1024 ? static_cast<int>(*cols) : 0;
            c.peak_from = from;
        }
        if (hbm && *hbm > 0) {
            c.hbm_bytes_per_s = *hbm;
            c.hbm_from = from;
        }
    }

    // A system profile's own tables (explorer_system.h).
    void read_system_metadata() {
        table("SystemProfileMetadata", [&](const std::vector<std::string>& files) {
            explorer::read_system_metadata(files, facts_, trace_seconds_, metadata_json_);
        });
    }
    void read_system_events() {
        table("SystemProfileEvents", [&](const std::vector<std::string>& files) {
            import_system_events(files, facts_, out_, exec_spans_,
                                 [&](const Table& tab, size_t column, const std::string& why) { bad_row(tab, column, why); });
        });
    }
    void read_device_list() {
        table("DeviceProfileList", [&](const std::vector<std::string>& files) {
            carried_["device_profiles"] = device_profiles_json(files, facts_, t_.dir, exec_spans_);
        });
    }
    // A device profile inside a system profile: its row of DeviceProfileList
    // goes with the profile as "system_profile".
    void link_to_system() {
        if (t_.find("SystemProfileEvents")) return;
        std::string link = system_profile_link(t_.dir);
        if (!link.empty()) carried_["system_profile"] = link;
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
                if (!summary_value_in_nx_unit(k, v)) continue;
                if (std::isfinite(v)) out_.source_metric(k, v);
            }
        });
    }

    void read_instructions() {
        table("Instruction", [&](const std::vector<std::string>& files) {
            enum { kStart, kEnd, kDur, kEngine, kTrack, kPcore, kOpcode, kHlo, kLayer, kFlops, kType };
            std::optional<Table> mapped =
                open_mapped("Instruction", files,
                            {"start_ts", "end_ts", "duration_ns", "engine", "timeline_track", "pcore_idx", "opcode",
                             "hlo_name", "layer", "raw_flops", "tensor_instruction_type"},
                            true);
            if (!mapped) return;
            Table& tab = *mapped;
            int32_t kept = keep("Instruction", files, true, tab.other_columns(), rows_in(files));
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
                if (e.engine == Engine::none)
                    schema_.unknown_value("Instruction", "engine", engine,
                                          "as instructions on their own row, in no engine's busy time");
                e.pcore = static_cast<int32_t>(tab.integer(kPcore).value_or(-1));
                e.track = track_name(track, e.pcore, scratch);
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
                source_row(e, kept, tab);
                out_.event(e);
            }
        });
    }

    void read_dma() {
        table("DmaPacket", [&](const std::vector<std::string>& files) {
            enum { kStart, kEnd, kDur, kQueue, kQueueType, kBytes, kVariable, kPcore, kQueueIdx, kEngineIdx };
            std::optional<Table> mapped =
                open_mapped("DmaPacket", files,
                            {"start_ts", "end_ts", "duration_ns", "queue_name", "queue_type", "transfer_bytes",
                             "variable", "pcore_idx", "queue_idx", "engine_idx"},
                            true);
            if (!mapped) return;
            Table& tab = *mapped;
            // The queue type is a column nx maps and an arg too (below).
            std::vector<std::string> arg_columns = tab.other_columns();
            arg_columns.emplace_back("queue_type");
            int32_t kept = keep("DmaPacket", files, true, std::move(arg_columns), rows_in(files));
            std::string scratch, row;
            JsonText args;
            PerEntry<DmaKind> queue_kinds;
            while (tab.next()) {
                Event e;
                if (!interval(tab, kStart, kEnd, kDur, e)) continue;
                e.type = EventType::dma;
                e.engine = Engine::dma;
                std::string_view queue = tab.text(kQueue);
                e.pcore = static_cast<int32_t>(tab.integer(kPcore).value_or(-1));
                e.track = track_name(dma_row(queue, tab.integer(kQueueIdx), tab.integer(kEngineIdx), row), e.pcore, scratch);
                if (queue.empty()) queue = "dma";
                e.name = queue;
                e.dma_kind = dma_kind(queue_kinds.get(tab.reader().column(kQueue), queue, dma_kind_from_queue),
                                      tab.text(kQueueType));
                if (auto b = tab.integer(kBytes)) {
                    if (*b < 0) { bad_row(tab, kBytes, "negative transfer size"); continue; }
                    e.bytes = *b;
                }
                e.tensor = tab.text(kVariable);
                e.queue_type = tab.text(kQueueType);
                if (!e.queue_type.empty() && !is_known_queue_type(e.queue_type))
                    schema_.unknown_value("DmaPacket", "queue_type", e.queue_type,
                                          "as DMA transfers of a kind their queue's name gives, else unknown");
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
                source_row(e, kept, tab);
                out_.event(e);
            }
        });
    }

    void read_active_time() {
        table("ActiveTime", [&](const std::vector<std::string>& files) {
            enum { kStart, kEnd, kDur, kEngine, kPcore };
            std::optional<Table> mapped =
                open_mapped("ActiveTime", files, {"start_ts", "end_ts", "duration_ns", "engine", "pcore_idx"}, false);
            if (!mapped) return;
            Table& tab = *mapped;
            std::string track, scratch;
            while (tab.next()) {
                Event e;
                if (!interval(tab, kStart, kEnd, kDur, e)) continue;
                e.type = EventType::active;
                std::string_view label = tab.text(kEngine);
                e.engine = engine_from_label(label);
                // An engine a later schema added: its intervals stay, on a
                // row of their own, and count in no engine nx knows.
                if (e.engine == Engine::none) {
                    track = std::string(label.empty() ? "unnamed" : label) + " active";
                    schema_.unknown_value("ActiveTime", "engine", label,
                                          "on the row '" + track + "', in no engine's busy time");
                } else {
                    track = std::string(to_string(e.engine)) + " active";
                }
                e.pcore = static_cast<int32_t>(tab.integer(kPcore).value_or(-1));
                e.track = track_name(track, e.pcore, scratch);
                e.name = "active";
                out_.event(e);
            }
        });
    }

    void read_collectives() {
        for (const char* name : {"CcOp", "CcInstruction"}) {
            table(name, [&](const std::vector<std::string>& files) {
                enum { kStart, kEnd, kDur, kOperation, kDescription, kBytes };
                std::optional<Table> mapped = open_mapped(
                    name, files, {"start_ts", "end_ts", "duration_ns", "operation", "description", "input_size"}, true);
                if (!mapped) return;
                Table& tab = *mapped;
                int32_t kept = keep(name, files, true, tab.other_columns(), rows_in(files));
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
                    source_row(e, kept, tab);
                    out_.event(e);
                }
            });
        }
    }

    // ExecutionInfo: a row per execution (a session holds thousands, of many
    // NEFFs).  Its times are relative to Metadata's first hardware timestamp
    // where they lie before it (as the exports nx has seen write them), else
    // on the instructions' clock.  A profile of one execution needs none.
    void read_executions() {
        table("ExecutionInfo", [&](const std::vector<std::string>& files) {
            enum { kIndex, kNeff, kStart, kEnd };
            std::optional<Table> mapped = open_mapped(
                "ExecutionInfo", files, {"execution_index", "neff_name", "execution_start_ts", "execution_end_ts"}, true);
            if (!mapped) return;
            Table& tab = *mapped;
            std::vector<ExecutionWindow> windows;
            while (tab.next()) {
                auto index = tab.integer(kIndex), start = tab.integer(kStart), end = tab.integer(kEnd);
                if (!index || !start || !end) {
                    bad_row(tab, !index ? kIndex : !start ? kStart : kEnd, "an execution without its index, start or end");
                    continue;
                }
                if (*end < *start) {
                    bad_row(tab, kEnd, "an execution that ends before it starts");
                    continue;
                }
                windows.push_back({*index, std::string(tab.text(kNeff)), *start, *end});
            }
            if (windows.size() < 2) return;
            int64_t offset = first_hw_ns_ > 0 && windows.front().start_ns < first_hw_ns_ ? first_hw_ns_ : 0;
            for (ExecutionWindow& w : windows) {
                w.start_ns += offset;
                w.end_ns += offset;
                out_.execution(w);
            }
        });
        // Its rows stay reachable as they are too (explorer_ExecutionInfo).
        done_.erase("ExecutionInfo");
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
                std::optional<Table> mapped = open_mapped(s.table, files, {"timestamp", s.value, "pcore_idx"}, false);
                if (!mapped) return;
                Table& tab = *mapped;
                while (tab.next()) {
                    auto ts = tab.integer(0);
                    auto v = tab.number(1);
                    if (!ts || !v) continue;  // a gap in the series
                    counter(*ts, *v, track_name(s.track, tab.integer(2).value_or(0), scratch));
                }
            });
        }
        table("SemaphoreUpdate", [&](const std::vector<std::string>& files) {
            std::optional<Table> mapped =
                open_mapped("SemaphoreUpdate", files, {"timestamp", "id", "value", "pcore_idx"}, false);
            if (!mapped) return;
            Table& tab = *mapped;
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
            schema_.ignored_table(name);
            table(name.c_str(), [&](const std::vector<std::string>& f) {
                Table tab(f, {}, facts_, name, true);
                int64_t in_footers = rows_in(f);
                keep(name, f, false, tab.names(), in_footers);
                // Nothing reads the rows here (the study database reads
                // them where they are): their count is the footers'.
                if (name != "NeffHeader" && !out_.wants_source_rows(name)) {
                    rows = in_footers;
                    SourceRows columns;  // registers the table's columns, no rows
                    columns.table = name;
                    columns.columns = tab.names();
                    out_.source_rows(columns);
                    return;
                }
                SourceRows batch;
                batch.table = name;
                batch.columns = tab.names();
                while (tab.next()) {
                    std::string row = tab.row_json();
                    if (name == "NeffHeader") note_neff_header(row);
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

    // Announces a table whose rows can be read again where they are
    // (KeptSource); its id, or -1 when there is nothing to read back.
    int32_t keep(const std::string& name, const std::vector<std::string>& files, bool events,
                 std::vector<std::string> columns, int64_t rows) {
        if (columns.empty()) return -1;
        KeptSource k;
        k.id = next_kept_++;
        k.table = name;
        k.events = events;
        k.columns = std::move(columns);
        k.files = files;
        k.rows = rows;
        out_.kept_source(k);
        return k.id;
    }
    static void source_row(Event& e, int32_t kept, const Table& tab) {
        if (kept < 0) return;
        e.src_table = kept;
        e.src_row = tab.row_number();
    }
    static int64_t rows_in(const std::vector<std::string>& files) {
        int64_t n = 0;
        for (const std::string& f : files) n += parquet::ParquetFile::open(f)->num_rows();
        return n;
    }
    int32_t next_kept_ = 0;

    // NeffHeader.pcore_count_per_lnc: the physical cores the NEFF was
    // compiled for, when Metadata does not say.
    void note_neff_header(const std::string& row) {
        if (info_.core.physical_cores > 0 || row.empty()) return;
        rapidjson::Document doc;
        doc.Parse(row.data(), row.size());
        if (doc.HasParseError() || !doc.IsObject()) return;
        auto it = doc.FindMember("pcore_count_per_lnc");
        if (it == doc.MemberEnd() || !it->value.IsNumber()) return;
        double n = it->value.GetDouble();
        if (n >= 1 && n <= 8) {
            info_.core.physical_cores = static_cast<int>(n);
            info_.core.cores_from = "NeffHeader";
        }
    }

    // The tools' versions from Metadata, as the "versions" object the
    // neuron-profile JSON importer makes (explorer instead of profiler: it is
    // the viewer that wrote the tables), so reports show the same line.
    static std::string versions_of(const std::string& metadata_json) {
        static constexpr VersionField kFields[] = {
            {"explorer_version", "explorer"}, {"runtime_version", "runtime"},
            {"compiler_version", "compiler"}, {"driver_version", "driver"},
            {"collectives_version", "collectives"}, {"ntff_version", "ntff"}};
        rapidjson::Document doc;
        doc.Parse(metadata_json.data(), metadata_json.size());
        std::string out = "{";
        if (!doc.HasParseError()) add_versions(doc, kFields, out);
        return out.size() > 1 ? out + "}" : std::string();
    }

    void finish() {
        std::vector<std::pair<std::string, std::string>> fields;
        if (!version_.empty()) fields.emplace_back("profile_schema_version", json_quote(version_));
        fields.emplace_back("explorer_schema", schema_.json(version_, version_known()));
        if (std::vector<std::string> notes = schema_.notes(version_); !notes.empty()) {
            std::string list = "[";
            for (const std::string& n : notes) list += (list.size() > 1 ? "," : "") + json_quote(n);
            fields.emplace_back("import_notes", list + "]");
        }
        if (!metadata_json_.empty()) {
            fields.emplace_back("metadata", metadata_json_);
            std::string versions = versions_of(metadata_json_);
            if (!versions.empty()) fields.emplace_back("versions", versions);
        }
        fields.insert(fields.end(), carried_.begin(), carried_.end());
        merge_carried(info_, fields);
        out_.update_info(info_);
        out_.end_profile();
    }

    // A row's interval (row_interval); a row without one is a bad record.
    bool interval(const Table& tab, size_t start, size_t end, size_t dur, Event& e) {
        size_t column = 0;
        if (const char* why = row_interval(tab, start, end, dur, e, column)) {
            bad_row(tab, column, why);
            return false;
        }
        return true;
    }

    // A queue is its name, its index and its DMA engine (16 queues per
    // engine; software DGE queues have no name): one row per queue of one
    // engine, named as neuron-profile names its rows ("qSyncIO0-Q1-E3",
    // "Q0-E3"), so the engines' packets do not pile onto one track.
    static std::string_view dma_row(std::string_view queue, std::optional<int64_t> queue_idx,
                                    std::optional<int64_t> engine_idx, std::string& out) {
        if (!queue_idx || !engine_idx) return queue.empty() ? std::string_view("dma") : queue;
        out.assign(queue);
        if (!out.empty()) out += '-';
        out += "Q" + std::to_string(*queue_idx) + "-E" + std::to_string(*engine_idx);
        return out;
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

    bool version_known() const {
        int major = std::atoi(version_.c_str());
        return std::find(std::begin(kKnownMajors), std::end(kKnownMajors), major) != std::end(kKnownMajors);
    }

    // A Summary figure in the unit nx keeps it in (metric_defs.h), by the
    // unit the export's SchemaFields gives it: converted when it is another
    // unit of the same kind (total_time in ms), left out and named when nx
    // cannot convert it.  Percents stay as the importer scales them.
    bool summary_value_in_nx_unit(const std::string& field, double& v) {
        auto fact = facts_.find({"Summary", field});
        if (fact == facts_.end() || fact->second.unit.empty()) return true;
        Unit want = unit_of_metric(metric_unit(field));
        if (want == Unit::none || want == Unit::percent) return true;
        std::optional<double> factor = unit_factor(fact->second.unit, want);
        if (!factor) {
            schema_.unit_not_understood("Summary", field, fact->second.unit, "the profiler's " + field);
            return false;
        }
        if (*factor != 1) {
            v *= *factor;
            schema_.converted("Summary", field, fact->second.unit, metric_unit(field));
        }
        return true;
    }

    // Explorer's DmaQueueType values nx knows (the 7.4.0 exports and the
    // scripts that read them).
    static bool is_known_queue_type(std::string_view t) {
        for (std::string_view k : {"input", "output", "data", "instruction", "weights", "weight", "spill",
                                   "software_dynamic", "hardware_dynamic", "unknown"})
            if (t == k) return true;
        return false;
    }

    const ExplorerTables& t_;
    ImportHandler& out_;
    ImportContext& ctx_;
    ProfileInfo info_;
    SchemaFacts facts_;
    std::string version_;
    std::string metadata_json_;
    double trace_seconds_ = 0;  // Metadata's last - first hardware timestamp
    int64_t first_hw_ns_ = 0;   // Metadata's first hardware timestamp
    std::map<std::string, std::string> carried_;
    std::set<std::string> done_;
    ExecSpans exec_spans_;
    SchemaReport schema_;
};

}  // namespace

}  // namespace explorer

void import_explorer_profile(const std::string& dir, ImportHandler& out, ImportContext& ctx) {
    ExplorerTables tables = scan_explorer_dir(dir);
    if (tables.tables.empty()) throw Error("no Neuron Explorer tables (<Table>.parquet) in the directory", dir);
    // Refused before anything is written: a half-written profile imported
    // as a whole one would be figures that are wrong with exit status 0.
    if (std::string why = incomplete_reason(tables); !why.empty())
        throw Error("profile directory is incomplete (" + why + "): was neuron-explorer still writing it?", dir);
    explorer::ExplorerImport(tables, out, ctx).run();
}

}  // namespace nx
