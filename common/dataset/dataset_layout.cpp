#include "common/dataset/dataset_layout.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>

#include "common/dataset/dataset_folder.h"
#include "common/dataset/dataset_names.h"
#include "common/io/error.h"
#include "common/io/number_text.h"
#include "common/profile/rules.h"
#include "common/profile/summary_rows.h"

namespace nx::dataset {

namespace {

using parquet::ValueType;
namespace fs = std::filesystem;

// A table as it is declared: its columns one by one, or a summary row's
// fields (summary_rows.h) as they are described there.
class TableBuilder {
public:
    TableBuilder(std::string name, std::string description) {
        t_.name = std::move(name);
        t_.description = std::move(description);
        column("profile", ValueType::string, false, "the profile id (also the file's name)");
    }
    TableBuilder& column(std::string name, ValueType type, bool nullable, std::string meaning, bool stats = true,
                         bool delta = false) {
        t_.columns.push_back({std::move(name), type, nullable, stats, delta});
        t_.meanings.push_back(std::move(meaning));
        return *this;
    }
    template <class Row>
    TableBuilder& fields(Fields<Row> fields) {
        for (const Field<Row>& f : fields)
            column(std::string(f.name), value_type(f.type), f.nullable, std::string(f.meaning), !f.free_text,
                   f.sequential);
        return *this;
    }
    TableBuilder& sorted_by(std::vector<size_t> columns) {
        t_.sorted_by = std::move(columns);
        return *this;
    }
    Table done() { return std::move(t_); }

private:
    static ValueType value_type(FieldType t) {
        switch (t) {
            case FieldType::int64: return ValueType::int64;
            case FieldType::int32: return ValueType::int32;
            case FieldType::float64: return ValueType::float64;
            case FieldType::text: return ValueType::string;
        }
        return ValueType::string;
    }
    Table t_;
};

constexpr bool kRequired = false;
constexpr bool kNullable = true;
constexpr bool kNoStats = false;  // free text: min/max would only cost
constexpr bool kStats = true;
// DELTA_BINARY_PACKED: the events' and counters' columns that change little
// from row to row, a track's rows coming together in time order.  Durations
// and sizes jump about: PLAIN, which ZSTD compresses better.
constexpr bool kDelta = true;

// The profile's figures, as its record and the study database have them.
std::vector<Table> summary_tables() {
    std::vector<Table> t;
    t.push_back(TableBuilder("metrics", "the profile's summary metrics: the profiler's own (origin source), nx's "
                                        "(derived), or a figure the profiler says it lacks (unavailable, value null)")
                    .column("name", ValueType::string, kRequired, "the metric (nx(7) METRICS)")
                    .column("value", ValueType::float64, kNullable, "its value; null when unavailable")
                    .column("unit", ValueType::string, kNullable, "its unit")
                    .column("origin", ValueType::string, kRequired, "source, derived or unavailable")
                    .done());
    t.push_back(TableBuilder("engines", "busy time per engine row: the union of its intervals (busy_ns), the plain "
                                        "sum, instructions")
                    .fields<EngineStat>(kEngineFields)
                    .done());
    t.push_back(TableBuilder("breakdown", "where the time went: compute, collectives, their overlap, exposed DMA, "
                                          "idle (one row)")
                    .fields<TimeBreakdown>(kBreakdownFields)
                    .done());
    t.push_back(TableBuilder("utilization", "compute and collective share of each of 50 equal time buckets of the "
                                            "profile")
                    .column("bucket", ValueType::int32, kRequired, "the bucket, 0..49")
                    .column("start_ns", ValueType::int64, kRequired, "its start")
                    .column("end_ns", ValueType::int64, kRequired, "its end")
                    .column("compute_percent", ValueType::float64, kRequired, "percent of it computing")
                    .column("collective_percent", ValueType::float64, kRequired, "percent of it in a collective")
                    .done());
    t.push_back(TableBuilder("collectives", "the collective operations in start order (seq from 0), the engine that "
                                            "triggered each and the delay from the trigger to its start, where the "
                                            "profiler says")
                    .column("seq", ValueType::int32, kRequired, "its place in start order, from 0")
                    .fields<CollectiveOp>(kCollectiveFields)
                    .done());
    t.push_back(TableBuilder("findings", "the rules' findings (and the profiler's own warnings), ranked, as the "
                                         "report shows them")
                    .fields<Finding>(kFindingFields)
                    .done());
    t.push_back(TableBuilder("opcodes", "instructions and their time per opcode (the name where the source gives no "
                                        "opcode), busiest first: what the report's top opcodes are the head of, "
                                        "without reading the events")
                    .fields<KeyStat>(kOpcodeFields)
                    .done());
    t.push_back(TableBuilder("executions", "one row per execution where the profile holds many (a session), in "
                                           "start order: its index, NEFF, window, where its time went and each "
                                           "engine's busy time (as the study database's execution table)")
                    .fields<ExecutionStat>(kExecutionFields)
                    .done());
    return t;
}

// The events' rows, the slices and the counter samples.
std::vector<Table> event_tables() {
    std::vector<Table> t;
    t.push_back(TableBuilder("tracks", "the rows of the profile's events (track_id is the events' and counters' "
                                       "track_id)")
                    .column("track_id", ValueType::int32, kRequired, "the track, from 0")
                    .column("name", ValueType::string, kRequired, "its name (the source's row)")
                    .column("engine", ValueType::string, kNullable, "its engine")
                    .column("kind", ValueType::string, kRequired, "slice or counter")
                    .column("events", ValueType::int64, kRequired, "its events")
                    .done());
    t.push_back(TableBuilder("events", "every slice: instructions, DMA transfers, semaphores, regions, runtime "
                                       "calls; each row group sorted by track, then time (its footer says so), so "
                                       "row-group statistics prune on both")
                    .column("track_id", ValueType::int32, kRequired, "its track", kStats, kDelta)
                    .column("type", ValueType::string, kRequired, "instruction, dma, semaphore, region, ...")
                    .column("ts", ValueType::int64, kRequired, "its start (ns)", kStats, kDelta)
                    .column("dur", ValueType::int64, kRequired, "its duration (ns)")
                    .column("name", ValueType::string, kNullable, "its name")
                    .column("opcode", ValueType::string, kNullable, "its opcode")
                    .column("hlo_name", ValueType::string, kNullable, "the HLO operation it came from")
                    .column("layer", ValueType::string, kNullable, "the model layer")
                    .column("bytes", ValueType::int64, kNullable, "the bytes it moved")
                    .column("flops", ValueType::float64, kNullable, "its FLOPs")
                    .column("model_flops", ValueType::float64, kNullable, "the model's FLOPs in it")
                    .column("dma_kind", ValueType::string, kNullable, "the memories a DMA moved between")
                    .column("tensor", ValueType::string, kNullable, "the tensor it moved")
                    .column("depth", ValueType::int32, kRequired, "its nesting", kStats, kDelta)
                    .column("transpose", ValueType::boolean, kNullable, "true for a TensorE transpose")
                    .column("args", ValueType::string, kNullable, "the source's other fields, JSON text", kNoStats)
                    .sorted_by({1, 3})
                    .done());
    t.push_back(TableBuilder("counters", "counter samples (the profiler's series: pending DMAs, throughput, memory "
                                         "use)")
                    .column("track_id", ValueType::int32, kRequired, "its track", kStats, kDelta)
                    .column("ts", ValueType::int64, kRequired, "its time (ns)", kStats, kDelta)
                    .column("value", ValueType::float64, kRequired, "its value")
                    .sorted_by({1, 2})
                    .done());
    return t;
}

// The profiles themselves, one row each.
Table profiles_table() {
    return TableBuilder("profiles", "one row per profile: its identity (where it came from, which instance, process "
                                    "and core), the capture and window of steps it compares across ranks in, its span, "
                                    "and its profile record (JSON: every figure nx-report needs)")
        .column("name", ValueType::string, kNullable, "its name")
        .column("source", ValueType::string, kNullable, "the file it came from", kNoStats)
        .column("format", ValueType::string, kNullable, "the source's format")
        .column("backend", ValueType::string, kNullable, "neuron, sim, cpu")
        .column("target", ValueType::string, kNullable, "inf2, trn1, trn2, trn3, cpu")
        .column("dtype", ValueType::string, kNullable, "the workload's dtype")
        .column("instance_id", ValueType::string, kNullable, "the instance it ran on")
        .column("process_id", ValueType::int64, kNullable, "the process")
        .column("worker_gid", ValueType::int64, kNullable, "the core's id unique across processes and instances")
        .column("logical_core", ValueType::int64, kNullable, "the logical core")
        .column("physical_cores", ValueType::int64, kNullable, "physical cores per logical core")
        .column("neff_hash", ValueType::string, kNullable, "the runtime's NEFF hash")
        .column("instance_type", ValueType::string, kNullable, "the instance type the profile names")
        .column("neuron_device_idx", ValueType::int64, kNullable, "the Neuron device the profile names")
        .column("neuroncore_idx", ValueType::int64, kNullable, "the NeuronCore the profile names")
        .column("neff_header_hash", ValueType::string, kNullable, "the NEFF header's own hash")
        .column("clock_offset_ns", ValueType::int64, kNullable, "host time = device time + clock_offset_ns")
        .column("capture_settings", ValueType::string, kNullable, "the capture record's settings, JSON text",
                kNoStats)
        .column("capture_dir", ValueType::string, kRequired, "the capture it compares across ranks in")
        .column("first_step", ValueType::int64, kNullable, "the first step it marks")
        .column("last_step", ValueType::int64, kNullable, "the last step it marks")
        .column("start_ns", ValueType::int64, kRequired, "its start")
        .column("end_ns", ValueType::int64, kRequired, "its end")
        .column("events", ValueType::int64, kRequired, "its events")
        .column("nx_version", ValueType::string, kRequired, "the nx that wrote it")
        .column("record", ValueType::string, kRequired, "the profile record, JSON text", kNoStats)
        .done();
}

std::vector<Table> make_tables() {
    std::vector<Table> t = summary_tables();
    for (Table& e : event_tables()) t.push_back(std::move(e));
    t.push_back(profiles_table());
    return t;
}

}  // namespace

const std::vector<Table>& tables() {
    static const std::vector<Table> t = make_tables();
    return t;
}

const Table* find_table(std::string_view name) {
    for (const Table& t : tables())
        if (name == t.name) return &t;
    return nullptr;
}

const char* sql_type_name(parquet::ValueType type) {
    switch (type) {
        case ValueType::int64: return "BIGINT";
        case ValueType::int32: return "INTEGER";
        case ValueType::float64: return "DOUBLE";
        case ValueType::float32: return "FLOAT";
        case ValueType::boolean: return "BOOLEAN";
        case ValueType::string: return "VARCHAR";
    }
    return "VARCHAR";
}

size_t column_index(const Table& t, std::string_view column) {
    for (size_t i = 0; i < t.columns.size(); ++i)
        if (t.columns[i].name == column) return i;
    throw Error("internal: dataset table " + std::string(t.name) + " has no column " + std::string(column));
}

std::string partition_dir(const std::string& root, std::string_view table, int rank) {
    return root + "/" + std::string(table) + "/" + partition_folder(rank);
}

std::string profile_file(const std::string& root, std::string_view table, int rank, std::string_view profile_id) {
    return partition_dir(root, table, rank) + "/" + file_stem(profile_id) + ".parquet";
}

TableListing list_table(const std::string& root, std::string_view table) {
    TableListing out;
    Folder dataset(root, false);
    DirHandle dir = dataset.root().sub(table, false);
    if (!dir.is_open()) return out;
    constexpr std::string_view kSuffix = ".parquet";
    for (const DirHandle::Entry& part : dir.list()) {
        std::optional<int> rank = rank_of_partition_folder(part.name);
        if (!rank) continue;  // another key, or not a folder of the layout
        if (part.type == DirHandle::Entry::Type::link) {
            out.skipped.push_back(dir.shown(part.name) + ": a symbolic link (nx does not follow links in a dataset)");
            continue;
        }
        if (part.type != DirHandle::Entry::Type::folder) continue;
        DirHandle files = dir.sub(part.name, false);
        for (const DirHandle::Entry& f : files.list()) {
            const std::string& name = f.name;
            // Hidden names: a writer's temporary files (".NAME.tmp.TAG.XXXXXX").
            // Not "_": a stem never starts with one (dataset_names.h).
            if (name.empty() || name[0] == '.' || name.size() <= kSuffix.size() ||
                name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
                continue;
            std::optional<std::string> id = profile_id_of_stem(name.substr(0, name.size() - kSuffix.size()));
            if (!id) continue;  // not a name nx writes
            if (f.type == DirHandle::Entry::Type::link) {
                out.skipped.push_back(files.shown(name) + ": a symbolic link (nx does not follow links in a dataset)");
                continue;
            }
            if (f.type != DirHandle::Entry::Type::file) continue;
            out.files.push_back({files.shown(name), *rank >= 0 ? std::optional<int64_t>(*rank) : std::nullopt, *id});
        }
    }
    std::sort(out.files.begin(), out.files.end(), [](const TableFile& a, const TableFile& b) {
        if (a.rank != b.rank) return !a.rank || (b.rank && *a.rank < *b.rank);
        return a.profile_id < b.profile_id;
    });
    return out;
}

bool is_dataset(const std::string& dir) {
    std::error_code ec;
    // A plan with no profile converted yet (every task failed) is one too:
    // the reduce names what it lacks.
    return fs::is_directory(fs::path(dir) / "profiles", ec) || fs::is_regular_file(plan_path(dir), ec);
}

}  // namespace nx::dataset
