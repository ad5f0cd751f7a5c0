#include "common/import/explorer_fields.h"

#include <cctype>
#include <memory>

#include "common/io/error.h"
#include "common/io/json_text.h"
#include "common/parquet/parquet_file.h"

namespace nx::explorer {

namespace {

constexpr bool kRequired = true, kOptional = false;

// Sources of the aliases: the names neuron-profile's JSON gives the same
// Metadata facts (the real inf2 and trn2 samples' "metadata" rows).
std::vector<ExpectedField> make_fields() {
    return {
        // Metadata: the core and the versions.
        {"Metadata", "profile_schema_version", {}, Kind::text, Unit::none, kOptional, "the schema version nx checks"},
        {"Metadata", "instance_type", {}, Kind::text, Unit::none, kOptional, "the target (trn2, trn3, ...)"},
        {"Metadata", "first_hw_timestamp", {}, Kind::integer, Unit::ns, kOptional, "the profile's span (total time without a Summary)"},
        {"Metadata", "last_hw_timestamp", {}, Kind::integer, Unit::ns, kOptional, "the profile's span (total time without a Summary)"},
        {"Metadata", "num_physical_cores", {}, Kind::number, Unit::none, kOptional, "physical cores per logical core (LNC): the peak FLOP/s"},
        {"Metadata", "tensor_engine_num_rows", {"pe_num_rows"}, Kind::number, Unit::none, kOptional, "the TensorE array: the peak FLOP/s"},
        {"Metadata", "tensor_engine_num_cols", {"pe_num_cols"}, Kind::number, Unit::none, kOptional, "the TensorE array: the peak FLOP/s"},
        {"Metadata", "tensor_engine_clock_freq", {"pe_clock_freq"}, Kind::number, Unit::ghz, kOptional, "the TensorE clock: the peak FLOP/s"},
        {"Metadata", "hbm_ddr_bandwidth", {}, Kind::number, Unit::bytes_per_s, kOptional, "the HBM peak: MBU, the ridge point"},
        // Instruction: every instruction event.
        {"Instruction", "start_ts", {}, Kind::integer, Unit::ns, kRequired, "every instruction"},
        {"Instruction", "end_ts", {}, Kind::integer, Unit::ns, kOptional, "instruction durations (else duration_ns)"},
        {"Instruction", "duration_ns", {}, Kind::integer, Unit::ns, kOptional, "instruction durations (else end_ts)"},
        {"Instruction", "engine", {}, Kind::text, Unit::none, kRequired, "engine busy time from instructions"},
        {"Instruction", "timeline_track", {}, Kind::text, Unit::none, kOptional, "the profiler's row of each instruction"},
        {"Instruction", "pcore_idx", {}, Kind::integer, Unit::none, kOptional, "each physical core's rows at LNC=2"},
        {"Instruction", "opcode", {}, Kind::text, Unit::none, kOptional, "opcodes (top opcodes, the opcodes table, matmul counts)"},
        {"Instruction", "hlo_name", {}, Kind::text, Unit::none, kOptional, "HLO names of instructions"},
        {"Instruction", "layer", {}, Kind::text, Unit::none, kOptional, "layer regions from instructions"},
        {"Instruction", "raw_flops", {}, Kind::number, Unit::flops, kOptional, "FLOPs from instructions (HFU without a Summary)"},
        {"Instruction", "tensor_instruction_type", {}, Kind::text, Unit::none, kOptional, "transpose detection (transpose FLOPs, MFU from instructions)"},
        // DmaPacket: every DMA transfer.
        {"DmaPacket", "start_ts", {}, Kind::integer, Unit::ns, kRequired, "every DMA transfer"},
        {"DmaPacket", "end_ts", {}, Kind::integer, Unit::ns, kOptional, "DMA durations (else duration_ns)"},
        {"DmaPacket", "duration_ns", {}, Kind::integer, Unit::ns, kOptional, "DMA durations (else end_ts)"},
        {"DmaPacket", "queue_name", {}, Kind::text, Unit::none, kOptional, "DMA queues (rows) and their kinds by name"},
        {"DmaPacket", "queue_type", {}, Kind::text, Unit::none, kOptional, "DMA kinds of queues without a known name, queue types"},
        {"DmaPacket", "transfer_bytes", {}, Kind::integer, Unit::bytes, kOptional, "DMA bytes (bytes per transfer, small-DMA findings, MBU without a Summary)"},
        {"DmaPacket", "variable", {}, Kind::text, Unit::none, kOptional, "the tensor of each transfer (tensor reload findings)"},
        {"DmaPacket", "pcore_idx", {}, Kind::integer, Unit::none, kOptional, "each physical core's queues at LNC=2"},
        {"DmaPacket", "queue_idx", {}, Kind::integer, Unit::none, kOptional, "one row per queue and DMA engine"},
        {"DmaPacket", "engine_idx", {}, Kind::integer, Unit::none, kOptional, "one row per queue and DMA engine"},
        // ActiveTime: the profiler's own busy intervals.
        {"ActiveTime", "start_ts", {}, Kind::integer, Unit::ns, kRequired, "the profiler's engine busy time"},
        {"ActiveTime", "end_ts", {}, Kind::integer, Unit::ns, kOptional, "busy interval ends (else duration_ns)"},
        {"ActiveTime", "duration_ns", {}, Kind::integer, Unit::ns, kOptional, "busy interval ends (else end_ts)"},
        {"ActiveTime", "engine", {}, Kind::text, Unit::none, kRequired, "the profiler's engine busy time"},
        {"ActiveTime", "pcore_idx", {}, Kind::integer, Unit::none, kOptional, "each physical core's busy time at LNC=2"},
        // Collectives.
        {"CcOp", "start_ts", {}, Kind::integer, Unit::ns, kRequired, "collective operations"},
        {"CcOp", "end_ts", {}, Kind::integer, Unit::ns, kOptional, "collective durations (else duration_ns)"},
        {"CcOp", "duration_ns", {}, Kind::integer, Unit::ns, kOptional, "collective durations (else end_ts)"},
        {"CcOp", "operation", {}, Kind::text, Unit::none, kOptional, "collective names"},
        {"CcOp", "description", {}, Kind::text, Unit::none, kOptional, "collective names"},
        {"CcOp", "input_size", {}, Kind::integer, Unit::bytes, kOptional, "collective sizes"},
        {"CcInstruction", "start_ts", {}, Kind::integer, Unit::ns, kRequired, "collective cores' instructions"},
        {"CcInstruction", "end_ts", {}, Kind::integer, Unit::ns, kOptional, "their durations (else duration_ns)"},
        {"CcInstruction", "duration_ns", {}, Kind::integer, Unit::ns, kOptional, "their durations (else end_ts)"},
        {"CcInstruction", "operation", {}, Kind::text, Unit::none, kOptional, "their names"},
        {"CcInstruction", "description", {}, Kind::text, Unit::none, kOptional, "their names"},
        {"CcInstruction", "input_size", {}, Kind::integer, Unit::bytes, kOptional, "their sizes"},
        // Executions (one row each; sessions hold thousands).
        {"ExecutionInfo", "execution_index", {}, Kind::integer, Unit::none, kRequired, "executions"},
        {"ExecutionInfo", "neff_name", {}, Kind::text, Unit::none, kOptional, "each execution's NEFF"},
        {"ExecutionInfo", "execution_start_ts", {}, Kind::integer, Unit::ns, kOptional, "each execution's time and figures"},
        {"ExecutionInfo", "execution_end_ts", {}, Kind::integer, Unit::ns, kOptional, "each execution's time and figures"},
        // Time series.
        {"PendingDma", "timestamp", {}, Kind::integer, Unit::ns, kRequired, "the pending DMA series"},
        {"PendingDma", "value", {}, Kind::number, Unit::none, kRequired, "the pending DMA series"},
        {"PendingDma", "pcore_idx", {}, Kind::integer, Unit::none, kOptional, "each physical core's series"},
        {"DmaUsage", "timestamp", {}, Kind::integer, Unit::ns, kRequired, "the DMA throughput series"},
        {"DmaUsage", "current_throughput", {}, Kind::number, Unit::bytes_per_s, kRequired, "the DMA throughput series"},
        {"DmaUsage", "pcore_idx", {}, Kind::integer, Unit::none, kOptional, "each physical core's series"},
        {"HbmUsage", "timestamp", {}, Kind::integer, Unit::ns, kRequired, "the HBM throughput series"},
        {"HbmUsage", "current_throughput", {}, Kind::number, Unit::bytes_per_s, kRequired, "the HBM throughput series"},
        {"HbmUsage", "pcore_idx", {}, Kind::integer, Unit::none, kOptional, "each physical core's series"},
        {"SbufUsage", "timestamp", {}, Kind::integer, Unit::ns, kRequired, "the SBUF use series"},
        {"SbufUsage", "avg_util_percent", {}, Kind::number, Unit::percent, kRequired, "the SBUF use series"},
        {"SbufUsage", "pcore_idx", {}, Kind::integer, Unit::none, kOptional, "each physical core's series"},
        {"PsumUsage", "timestamp", {}, Kind::integer, Unit::ns, kRequired, "the PSUM use series"},
        {"PsumUsage", "avg_util_percent", {}, Kind::number, Unit::percent, kRequired, "the PSUM use series"},
        {"PsumUsage", "pcore_idx", {}, Kind::integer, Unit::none, kOptional, "each physical core's series"},
        {"SemaphoreUpdate", "timestamp", {}, Kind::integer, Unit::ns, kRequired, "semaphore series"},
        {"SemaphoreUpdate", "id", {}, Kind::text, Unit::none, kOptional, "semaphore names"},
        {"SemaphoreUpdate", "value", {}, Kind::number, Unit::none, kRequired, "semaphore series"},
        {"SemaphoreUpdate", "pcore_idx", {}, Kind::integer, Unit::none, kOptional, "each physical core's series"},
        // SchemaFields: how the export describes itself.
        {"SchemaFields", "table_name", {}, Kind::text, Unit::none, kRequired, "checking columns against the export's own description"},
        {"SchemaFields", "field_name", {}, Kind::text, Unit::none, kRequired, "checking columns against the export's own description"},
        {"SchemaFields", "field_type", {}, Kind::text, Unit::none, kOptional, "checking column types"},
        {"SchemaFields", "field_format", {}, Kind::text, Unit::none, kOptional, "checking column types"},
        {"SchemaFields", "field_unit", {}, Kind::text, Unit::none, kOptional, "units: values in another unit are converted"},
    };
}

std::string lower(std::string_view s) {
    std::string out;
    for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Does SchemaFields' type ("integer", "number", "string", ...) describe a
// column of this physical type?
bool declared_as(const std::string& type, const parquet::ColumnInfo& info) {
    if (info.is_list) return type == "array";
    bool ints = info.type == parquet::PhysicalType::int32 || info.type == parquet::PhysicalType::int64;
    bool reals = info.type == parquet::PhysicalType::float32 || info.type == parquet::PhysicalType::float64;
    if (type == "integer") return ints;
    if (type == "number") return reals || ints;
    if (type == "boolean") return info.type == parquet::PhysicalType::boolean;
    if (type == "string") return !ints && !reals && info.type != parquet::PhysicalType::boolean;
    return false;
}

}  // namespace

const std::vector<ExpectedField>& expected_fields() {
    static const std::vector<ExpectedField> fields = make_fields();
    return fields;
}

std::optional<double> unit_factor(std::string_view spelled, Unit into) {
    const std::string u = lower(spelled);
    struct Known {
        const char* name;
        Unit unit;
        double factor;  // in `unit`'s terms
    };
    static const Known kKnown[] = {
        {"ns", Unit::ns, 1}, {"nanoseconds", Unit::ns, 1}, {"us", Unit::ns, 1e3}, {"\xc2\xb5s", Unit::ns, 1e3},
        {"microseconds", Unit::ns, 1e3}, {"ms", Unit::ns, 1e6}, {"milliseconds", Unit::ns, 1e6}, {"s", Unit::ns, 1e9},
        {"sec", Unit::ns, 1e9}, {"seconds", Unit::ns, 1e9},
        {"b", Unit::bytes, 1}, {"bytes", Unit::bytes, 1}, {"kb", Unit::bytes, 1e3}, {"kib", Unit::bytes, 1024},
        {"mb", Unit::bytes, 1e6}, {"mib", Unit::bytes, 1048576}, {"gb", Unit::bytes, 1e9}, {"gib", Unit::bytes, 1073741824},
        {"b/s", Unit::bytes_per_s, 1}, {"bytes/s", Unit::bytes_per_s, 1}, {"kb/s", Unit::bytes_per_s, 1e3},
        {"mb/s", Unit::bytes_per_s, 1e6}, {"gb/s", Unit::bytes_per_s, 1e9}, {"gib/s", Unit::bytes_per_s, 1073741824},
        {"hz", Unit::ghz, 1e-9}, {"khz", Unit::ghz, 1e-6}, {"mhz", Unit::ghz, 1e-3}, {"ghz", Unit::ghz, 1},
        {"bytes_per_second", Unit::bytes_per_s, 1}, {"kilobytes_per_second", Unit::bytes_per_s, 1e3},
        {"megabytes_per_second", Unit::bytes_per_s, 1e6}, {"gigabytes_per_second", Unit::bytes_per_s, 1e9},
        {"kilobytes", Unit::bytes, 1e3}, {"kibibytes", Unit::bytes, 1024}, {"megabytes", Unit::bytes, 1e6},
        {"mebibytes", Unit::bytes, 1048576}, {"gigabytes", Unit::bytes, 1e9}, {"gibibytes", Unit::bytes, 1073741824},
        {"hertz", Unit::ghz, 1e-9}, {"kilohertz", Unit::ghz, 1e-6}, {"megahertz", Unit::ghz, 1e-3}, {"gigahertz", Unit::ghz, 1},
        {"flops", Unit::flops, 1}, {"flop", Unit::flops, 1},
        {"%", Unit::percent, 1}, {"percent", Unit::percent, 1},
    };
    // Seconds are nx's unit of the Summary's times: the same table, scaled.
    Unit table_unit = into == Unit::s ? Unit::ns : into;
    for (const Known& k : kKnown)
        if (u == k.name && k.unit == table_unit) return into == Unit::s ? k.factor / 1e9 : k.factor;
    return std::nullopt;
}

Unit unit_of_metric(std::string_view metric_unit) {
    if (metric_unit == "s") return Unit::s;
    if (metric_unit == "bytes") return Unit::bytes;
    if (metric_unit == "bytes/s") return Unit::bytes_per_s;
    if (metric_unit == "%") return Unit::percent;
    if (metric_unit == "flops") return Unit::flops;
    return Unit::none;
}

void SchemaReport::used(std::string_view table, const ExpectedField& f, std::string_view actual) {
    used_[std::string(table)].emplace_back(std::string(f.name), std::string(actual));
}

void SchemaReport::converted(std::string_view table, std::string_view field, std::string_view from_unit,
                             std::string_view to_unit) {
    converted_.push_back(std::string(table) + "." + std::string(field) + " in " + std::string(from_unit) +
                         ": converted to " + std::string(to_unit));
}

void SchemaReport::unit_not_understood(std::string_view table, std::string_view field, std::string_view unit,
                                       std::string_view feeds) {
    unit_issues_.push_back(std::string(table) + "." + std::string(field) + " in '" + std::string(unit) +
                           "', a unit nx does not convert: not used" +
                           (feeds.empty() ? std::string() : " (" + std::string(feeds) + ")"));
}

void SchemaReport::lacked(std::string_view table, const ExpectedField& f) {
    lacked_.emplace_back(std::string(table) + "." + std::string(f.name), std::string(f.feeds));
}

void SchemaReport::retyped(std::string_view table, const ExpectedField& f, std::string_view actual,
                           std::string_view type) {
    retyped_.push_back(std::string(table) + "." + std::string(actual) + " is " + std::string(type) +
                       " in this export: not used (" + std::string(f.feeds) + ")");
}

void SchemaReport::table_left_out(std::string_view table, const ExpectedField& required) {
    left_out_.emplace_back(std::string(table), std::string(required.name));
}

void SchemaReport::ignored_columns(std::string_view table, const std::vector<std::string>& columns) {
    if (!columns.empty()) ignored_columns_[std::string(table)] = columns;
}

void SchemaReport::ignored_table(std::string_view table) { ignored_tables_.insert(std::string(table)); }

void SchemaReport::unknown_value(std::string_view table, std::string_view field, std::string_view value,
                                 std::string_view kept_as) {
    UnknownValue& u = unknown_[std::string(table) + "." + std::string(field) + " = '" + std::string(value) + "'"];
    if (u.kept_as.empty()) u.kept_as = kept_as;
    ++u.rows;
}

std::vector<std::string> SchemaReport::notes(std::string_view version) const {
    std::vector<std::string> out;
    const std::string in_schema = version.empty() ? "" : " in schema " + std::string(version);
    for (const auto& [field, feeds] : lacked_)
        out.push_back("no " + feeds + ": " + field + " absent" + in_schema);
    for (const auto& [table, field] : left_out_)
        out.push_back("table " + table + " not read: its " + field + " is absent" + in_schema +
                      " (nx-convert --explain lists its columns)");
    for (const std::string& c : converted_) out.push_back(c);
    for (const std::string& u : unit_issues_) out.push_back(u);
    for (const std::string& r : retyped_) out.push_back(r);
    for (const auto& [what, u] : unknown_)
        out.push_back(what + ", a value nx does not know: " + std::to_string(u.rows) + " rows kept " + u.kept_as);
    return out;
}

std::string SchemaReport::json(std::string_view version, bool version_known) const {
    JsonText j;
    j.start_object();
    j.key("schema_version");
    j.string(version);
    j.key("version_known");
    j.boolean(version_known);
    j.key("used");
    j.start_object();
    for (const auto& [table, fields] : used_) {
        j.key(table);
        j.start_object();
        for (const auto& [name, actual] : fields) {
            j.key(name);
            j.string(actual);
        }
        j.end_object();
    }
    j.end_object();
    j.key("lacked");
    j.start_array();
    for (const auto& [field, feeds] : lacked_) {
        j.start_object();
        j.key("field");
        j.string(field);
        j.key("costs");
        j.string(feeds);
        j.end_object();
    }
    j.end_array();
    j.key("tables_left_out");
    j.start_object();
    for (const auto& [table, field] : left_out_) {
        j.key(table);
        j.string("no " + field);
    }
    j.end_object();
    j.key("units");
    j.start_array();
    for (const std::string& c : converted_) j.string(c);
    for (const std::string& u : unit_issues_) j.string(u);
    j.end_array();
    j.key("retyped");
    j.start_array();
    for (const std::string& r : retyped_) j.string(r);
    j.end_array();
    j.key("unknown_values");
    j.start_object();
    for (const auto& [what, u] : unknown_) {
        j.key(what);
        j.start_object();
        j.key("rows");
        j.int64(u.rows);
        j.key("kept");
        j.string(u.kept_as);
        j.end_object();
    }
    j.end_object();
    j.key("columns_kept_as_args");
    j.start_object();
    for (const auto& [table, columns] : ignored_columns_) {
        j.key(table);
        j.start_array();
        for (const std::string& c : columns) j.string(c);
        j.end_array();
    }
    j.end_object();
    j.key("tables_kept_as_rows");
    j.start_array();
    for (const std::string& t : ignored_tables_) j.string(t);
    j.end_array();
    j.end_object();
    return std::string(j.view());
}

std::optional<MappedColumns> map_columns(std::string_view table, const std::vector<std::string_view>& wanted,
                                         const PresentColumns& present, const SchemaFacts& facts,
                                         SchemaReport& report) {
    MappedColumns out;
    for (std::string_view name : wanted) {
        const ExpectedField* f = nullptr;
        for (const ExpectedField& e : expected_fields())
            if (e.table == table && e.name == name) f = &e;
        if (!f) throw Error("internal: " + std::string(table) + "." + std::string(name) + " is not in explorer_fields");
        std::string actual;
        if (present.count(std::string(name))) actual = name;
        for (std::string_view alias : f->aliases)
            if (actual.empty() && present.count(std::string(alias))) actual = alias;
        if (!actual.empty()) {
            // A type nx cannot read as the field's kind: a drift when the
            // export's own SchemaFields says so (the field is then absent to
            // nx); else a damaged file, which Table names.
            const parquet::ColumnInfo& info = present.at(actual);
            auto fact = facts.find({std::string(table), actual});
            if (!kind_fits(f->kind, info) && fact != facts.end() && declared_as(fact->second.type, info)) {
                report.retyped(table, *f, actual, (info.is_list ? "a LIST of " : "") + to_string(info.type));
                actual.clear();
            }
        }
        if (actual.empty()) {
            if (f->required) {
                report.table_left_out(table, *f);
                return std::nullopt;
            }
            report.lacked(table, *f);
            out.specs.push_back({std::string(kNotRead), f->kind, false});
            out.scale.push_back(1);
            continue;
        }
        double scale = 1;
        auto fact = facts.find({std::string(table), actual});
        if (f->unit != Unit::none && fact != facts.end() && !fact->second.unit.empty()) {
            std::optional<double> factor = unit_factor(fact->second.unit, f->unit);
            if (!factor) {
                report.unit_not_understood(table, actual, fact->second.unit, f->feeds);
                if (f->required) {
                    report.table_left_out(table, *f);
                    return std::nullopt;
                }
                out.specs.push_back({std::string(kNotRead), f->kind, false});
                out.scale.push_back(1);
                continue;
            }
            if (*factor != 1) report.converted(table, actual, fact->second.unit, f->unit == Unit::ns ? "ns" : "nx's unit");
            scale = *factor;
        }
        report.used(table, *f, actual);
        out.specs.push_back({actual, f->kind, f->required});
        out.scale.push_back(scale);
    }
    return out;
}

PresentColumns columns_of(const std::vector<std::string>& files) {
    PresentColumns out;
    for (const std::string& f : files) {
        std::unique_ptr<parquet::ParquetFile> file = parquet::ParquetFile::open(f);
        for (const parquet::ColumnInfo& c : file->columns()) out.emplace(c.name, c);
    }
    return out;
}

}  // namespace nx::explorer
