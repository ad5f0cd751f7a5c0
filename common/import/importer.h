// Importers: the source formats nx-convert reads, as one table (formats.cpp),
// and the context an importer reports through.
//
// Two error channels, as in Perfetto's importers: an Error thrown for "this
// input is unusable" (bad JSON, truncated gzip), and ImportContext::bad_record
// for "this record is bad" — which throws too unless --keep-going, when it is
// counted and skipped.  Nothing is dropped silently.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/import/sniff.h"
#include "common/io/input.h"
#include "common/profile/profile.h"
#include "common/profile/profile_sink.h"

namespace nx {

struct ImportContext {
    std::string where;          // input name for diagnostics
    bool keep_going = false;
    int64_t bad_records = 0;    // skipped records (keep_going)
    // Defaults for every profile of this input: name, target, backend, dtype,
    // fields carried from a capture record.  Importers fill id, format, source.
    ProfileInfo base;
    // Identity for stable ids: the resolved source path (plus rank/graph).
    std::string identity;

    // A record is bad: throws Error(where:line) unless keep_going.
    void bad_record(const std::string& message, int64_t line);
    // ProfileInfo for one profile of this input; `part` (graph id, rank) makes
    // the id unique when one input holds several profiles.
    ProfileInfo profile_info(std::string_view format, std::string_view part = {}) const;
};

// Summary fields that identify rather than measure (nc_idx, nd_idx, graph_id):
// kept with the profile, never treated as metrics.
bool is_identifier_field(std::string_view name);

// One sample of a source time series: a counter event on track `track`.
void emit_counter(ImportHandler& out, int64_t ts, double value, std::string_view track);

using ImportFunction = std::function<void(InputSource&, ImportHandler&, ImportContext&)>;
// Formats that are a directory of files rather than one stream.
using DirectoryImportFunction = std::function<void(const std::string& dir, ImportHandler&, ImportContext&)>;

// How sure a format is that an input is its own.
enum class Sniff : uint8_t { no, maybe, yes };

// What nx does with an input of a format.
enum class FormatKind : uint8_t {
    stream,     // an importer reads it (import)
    directory,  // a directory of files (import_dir)
    ntff,       // a binary trace the profiler's viewer reads, with its NEFF
    refused,    // recognised to say what to do instead (hint)
};

// What a format's records are, for the decisions made outside the importers
// (a report's wording, which conversion path): asked of the format table by
// format_has(), never by comparing format names.
enum FormatTrait : unsigned {
    kDmaPackets = 1u << 0,  // its DMA rows are hardware packets (device profiles), not whole transfers
    kHostTrace = 1u << 1,   // events on host threads and streams, not engine rows (a framework's trace)
    kNxRecords = 1u << 2,   // nx's own records: they say what they hold, no profile identity is added
};

// One input format: the table every decision about formats reads
// (formats.cpp): detection, --input-format, --list formats, the messages.
// Each format recognises itself (sniff), and formats are asked in priority
// order (lower first); the first that is sure wins, else the first that
// says maybe.
struct FormatDef {
    std::string_view name;
    std::string_view description;
    FormatKind kind = FormatKind::stream;
    int priority = 0;
    Sniff (*sniff)(const SniffInput&) = nullptr;  // null: never detected (directories)
    ImportFunction import;                         // stream formats
    DirectoryImportFunction import_dir;            // directory formats
    std::string_view hint;                         // refused formats: what to give nx instead
    unsigned traits = 0;                           // FormatTrait bits
};

const std::vector<FormatDef>& input_formats();
const FormatDef* find_input_format(std::string_view name);
// Whether the format named has the trait (false for a name no format has).
bool format_has(std::string_view name, FormatTrait trait);
// The names --input-format takes, joined for messages: "neuron-json, summary-json, ...".
std::string input_format_names();

// The format an input is, asked of every format in priority order (format
// null when none recognises it), and for nx records the first record's kind
// ("capture", "run", "profile"...).  `in` is not consumed (sniff.h).
struct Detected {
    const FormatDef* format = nullptr;
    std::string record_kind;
};
Detected detect_format(std::string_view path, InputSource* in);
// The same over bytes in memory (tests, fuzzing): the prefix is all there is.
// Returns the format's name, empty when none recognises it.
std::string_view sniff_format(std::string_view prefix, std::string_view path);

// The importers (one file each).
void import_neuron_json(InputSource& in, ImportHandler& out, ImportContext& ctx);
void import_summary_json(InputSource& in, ImportHandler& out, ImportContext& ctx);
void import_summary_text(InputSource& in, ImportHandler& out, ImportContext& ctx);
// summary-text is text: its sniffer lives with its importer.
Sniff sniff_summary_text(const SniffInput& in);
void import_system_json(InputSource& in, ImportHandler& out, ImportContext& ctx);
void import_chrome_json(InputSource& in, ImportHandler& out, ImportContext& ctx);
void import_nx_jsonl(InputSource& in, ImportHandler& out, ImportContext& ctx);
void import_explorer_profile(const std::string& dir, ImportHandler& out, ImportContext& ctx);

}  // namespace nx
