#include "common/dataset/dataset_layout.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>

#include "common/dataset/dataset_folder.h"
#include "common/dataset/dataset_names.h"
#include "common/io/error.h"
#include "common/io/number_text.h"

namespace nx::dataset {

namespace {

using parquet::ValueType;
namespace fs = std::filesystem;

constexpr bool kRequired = false;
constexpr bool kNullable = true;
constexpr bool kNoStats = false;  // free text: min/max would only cost
constexpr bool kStats = true;
// DELTA_BINARY_PACKED: the events' and counters' columns that change little
// from row to row, a track's rows coming together in time order.  On 100K
// generated events the events file is 199 KB with ts PLAIN, 21 KB as
// deltas, and its ZSTD work a sixth (43M to 7M instructions).  Durations
// and sizes jump about: PLAIN, which ZSTD compresses better.
constexpr bool kDelta = true;

std::vector<Table> make_tables() {
    const parquet::WriterColumn profile{"profile", ValueType::string, kRequired};
    return {
        {"metrics", "the profile's summary metrics: the profiler's own (origin source), nx's (derived), or a figure "
                    "the profiler says it lacks (unavailable, value null)",
         {profile, {"name", ValueType::string, kRequired}, {"value", ValueType::float64, kNullable},
          {"unit", ValueType::string, kNullable}, {"origin", ValueType::string, kRequired}},
         {}},
        {"engines", "busy time per engine row: the union of its intervals (busy_ns), the plain sum, instructions",
         {profile, {"engine", ValueType::string, kRequired}, {"origin", ValueType::string, kRequired},
          {"instructions", ValueType::int64, kRequired}, {"busy_ns", ValueType::int64, kRequired},
          {"busy_sum_ns", ValueType::int64, kRequired}, {"work_instructions", ValueType::int64, kNullable},
          {"work_sum_ns", ValueType::int64, kNullable}, {"active_percent", ValueType::float64, kRequired}},
         {}},
        {"breakdown", "where the time went: compute, collectives, their overlap, exposed DMA, idle (one row)",
         {profile, {"span_ns", ValueType::int64, kRequired}, {"compute_ns", ValueType::int64, kRequired},
          {"collective_ns", ValueType::int64, kRequired}, {"overlap_ns", ValueType::int64, kRequired},
          {"dma_exposed_ns", ValueType::int64, kRequired}, {"idle_ns", ValueType::int64, kRequired}},
         {}},
        {"utilization", "compute and collective share of each of 50 equal time buckets of the profile",
         {profile, {"bucket", ValueType::int32, kRequired}, {"start_ns", ValueType::int64, kRequired},
          {"end_ns", ValueType::int64, kRequired}, {"compute_percent", ValueType::float64, kRequired},
          {"collective_percent", ValueType::float64, kRequired}},
         {}},
        {"collectives", "the collective operations in start order (seq from 0), the engine that triggered each and the "
                        "delay from the trigger to its start, where the profiler says",
         {profile, {"seq", ValueType::int32, kRequired}, {"name", ValueType::string, kRequired},
          {"start_ns", ValueType::int64, kRequired}, {"dur_ns", ValueType::int64, kRequired},
          {"bytes", ValueType::int64, kNullable}, {"engine", ValueType::string, kNullable},
          {"trigger_delay_ns", ValueType::int64, kNullable}},
         {}},
        {"findings", "the rules' findings (and the profiler's own warnings), ranked, as the report shows them",
         {profile, {"rule", ValueType::string, kRequired}, {"severity", ValueType::string, kRequired},
          {"metric", ValueType::string, kNullable}, {"value", ValueType::float64, kNullable},
          {"threshold", ValueType::float64, kNullable}, {"message", ValueType::string, kRequired, kNoStats},
          {"action", ValueType::string, kNullable, kNoStats}},
         {}},
        {"opcodes", "instructions and their time per opcode (the name where the source gives no opcode), busiest "
                    "first: what the report's top opcodes are the head of, without reading the events",
         {profile, {"opcode", ValueType::string, kRequired}, {"instructions", ValueType::int64, kRequired},
          {"time_ns", ValueType::int64, kRequired}},
         {}},
        {"executions", "one row per execution where the profile holds many (a session), in start order: its index, "
                       "NEFF, window, where its time went and each engine's busy time (as the study database's "
                       "execution table)",
         {profile, {"execution_index", ValueType::int64, kRequired}, {"neff", ValueType::string, kNullable},
          {"start_ns", ValueType::int64, kRequired, kStats, kDelta}, {"end_ns", ValueType::int64, kRequired},
          {"dur_ns", ValueType::int64, kRequired}, {"compute_ns", ValueType::int64, kRequired},
          {"collective_ns", ValueType::int64, kRequired}, {"overlap_ns", ValueType::int64, kRequired},
          {"dma_exposed_ns", ValueType::int64, kRequired}, {"idle_ns", ValueType::int64, kRequired},
          {"tensor_busy_ns", ValueType::int64, kRequired}, {"vector_busy_ns", ValueType::int64, kRequired},
          {"scalar_busy_ns", ValueType::int64, kRequired}, {"gpsimd_busy_ns", ValueType::int64, kRequired},
          {"sync_busy_ns", ValueType::int64, kRequired}, {"dma_busy_ns", ValueType::int64, kRequired}},
         {}},
        {"tracks", "the rows of the profile's events (track_id is the events' and counters' track_id)",
         {profile, {"track_id", ValueType::int32, kRequired}, {"name", ValueType::string, kRequired},
          {"engine", ValueType::string, kNullable}, {"kind", ValueType::string, kRequired},
          {"events", ValueType::int64, kRequired}},
         {}},
        {"events", "every slice: instructions, DMA transfers, semaphores, regions, runtime calls; each row group "
                   "sorted by track, then time (its footer says so), so row-group statistics prune on both",
         {profile, {"track_id", ValueType::int32, kRequired, kStats, kDelta}, {"type", ValueType::string, kRequired},
          {"ts", ValueType::int64, kRequired, kStats, kDelta}, {"dur", ValueType::int64, kRequired},
          {"name", ValueType::string, kNullable}, {"opcode", ValueType::string, kNullable},
          {"hlo_name", ValueType::string, kNullable}, {"layer", ValueType::string, kNullable},
          {"bytes", ValueType::int64, kNullable}, {"flops", ValueType::float64, kNullable},
          {"model_flops", ValueType::float64, kNullable}, {"dma_kind", ValueType::string, kNullable},
          {"tensor", ValueType::string, kNullable}, {"depth", ValueType::int32, kRequired, kStats, kDelta},
          {"transpose", ValueType::boolean, kNullable}, {"args", ValueType::string, kNullable, kNoStats}},
         {1, 3}},
        {"counters", "counter samples (the profiler's series: pending DMAs, throughput, memory use)",
         {profile, {"track_id", ValueType::int32, kRequired, kStats, kDelta},
          {"ts", ValueType::int64, kRequired, kStats, kDelta}, {"value", ValueType::float64, kRequired}},
         {1, 2}},
        {"profiles", "one row per profile: its identity (where it came from, which instance, process and core), "
                     "the capture and window of steps it compares across ranks in, its span, and its profile record (JSON: every figure nx-report needs)",
         {profile, {"name", ValueType::string, kNullable}, {"source", ValueType::string, kNullable, kNoStats},
          {"format", ValueType::string, kNullable}, {"backend", ValueType::string, kNullable},
          {"target", ValueType::string, kNullable}, {"dtype", ValueType::string, kNullable},
          {"instance_id", ValueType::string, kNullable}, {"process_id", ValueType::int64, kNullable},
          {"worker_gid", ValueType::int64, kNullable}, {"logical_core", ValueType::int64, kNullable},
          {"physical_cores", ValueType::int64, kNullable}, {"neff_hash", ValueType::string, kNullable},
          {"instance_type", ValueType::string, kNullable}, {"neuron_device_idx", ValueType::int64, kNullable},
          {"neuroncore_idx", ValueType::int64, kNullable}, {"neff_header_hash", ValueType::string, kNullable},
          {"clock_offset_ns", ValueType::int64, kNullable},
          {"capture_settings", ValueType::string, kNullable, kNoStats}, {"capture_dir", ValueType::string, kRequired},
          {"first_step", ValueType::int64, kNullable}, {"last_step", ValueType::int64, kNullable},
          {"start_ns", ValueType::int64, kRequired},
          {"end_ns", ValueType::int64, kRequired}, {"events", ValueType::int64, kRequired},
          {"nx_version", ValueType::string, kRequired}, {"record", ValueType::string, kRequired, kNoStats}},
         {}},
    };
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
    return fs::is_directory(fs::path(dir) / "profiles", ec) || fs::is_regular_file(fs::path(dir) / "_nx" / "plan.tsv", ec);
}

}  // namespace nx::dataset
