// The input formats nx-convert knows, as one table: each row says what the
// format is, how it recognises an input as its own (by name, by its first
// bytes, or by the top-level structure of its JSON: sniff.h), and what nx
// does with it (an importer, a directory reader, the profiler's viewer for
// an NTFF, or a refusal that says what to give instead).
#include <algorithm>
#include <string>

#include "common/import/importer.h"
#include "common/io/named_rows.h"

namespace nx {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view without_gz(std::string_view path) {
    if (ends_with(path, ".gz")) path.remove_suffix(3);
    return path;
}

// ---- binary formats: by name or by their first bytes

Sniff sniff_ntff(const SniffInput& in) { return ends_with(without_gz(in.path()), ".ntff") ? Sniff::yes : Sniff::no; }

Sniff sniff_parquet_table(const SniffInput& in) { return in.prefix().substr(0, 4) == "PAR1" ? Sniff::yes : Sniff::no; }

// A Perfetto protobuf trace: a .pftrace/.perfetto-trace name, or a Trace
// message's first field (packet, field 1, length-delimited: 0x0A) followed by
// binary bytes no text format has.
Sniff sniff_perfetto_trace(const SniffInput& in) {
    std::string_view name = without_gz(in.path());
    for (std::string_view ext : {".pftrace", ".perfetto-trace", ".pb"})
        if (name.size() > ext.size() && ends_with(name, ext)) return Sniff::yes;
    std::string_view p = in.prefix();
    if (p.size() < 4 || p[0] != '\x0A') return Sniff::no;
    return p.substr(0, 64).find('\0') != std::string_view::npos ? Sniff::yes : Sniff::no;
}

// ---- JSON formats: by structure

// nx records: the first line is a complete object with "kind".
Sniff sniff_nx_jsonl(const SniffInput& in) {
    const JsonShape& j = in.json();
    return j.first_line_is_object && !j.first_line_kind.empty() ? Sniff::yes : Sniff::no;
}

Sniff sniff_chrome_json(const SniffInput& in) {
    const JsonShape& j = in.json();
    if (j.log.lines > 0) return Sniff::no;
    return j.top_is_array || j.has("traceEvents") ? Sniff::yes : Sniff::no;
}

Sniff sniff_system_json(const SniffInput& in) {
    const JsonShape& j = in.json();
    if (j.log.lines > 0) return Sniff::no;
    return j.has("trace_events") || j.has("mem_usage") || j.has("cpu_util") ? Sniff::yes : Sniff::no;
}

// neuron-profile's device profile: its "instruction" array is the mark, wherever
// it comes; "summary" or "dma" alone make it likely.
Sniff sniff_neuron_json(const SniffInput& in) {
    const JsonShape& j = in.json();
    if (j.log.lines > 0 || !j.top_is_object) return Sniff::no;
    if (j.has("instruction")) return Sniff::yes;
    return j.has("summary") || j.has("dma") ? Sniff::maybe : Sniff::no;
}

// summary-json: an object keyed by node id ("n_<hash>") whose values are
// metric objects, maybe after the tool's log lines; or one node's metrics flat.
Sniff sniff_summary_json(const SniffInput& in) {
    const JsonShape& j = in.json();
    if (!j.top_is_object || j.keys.empty()) return Sniff::no;
    const JsonShape::Key& first = j.keys.front();
    if (first.kind == '{' && (first.name.starts_with("n_") || j.first_value_has_metric_key)) return Sniff::yes;
    bool flat = false;
    for (const JsonShape::Key& k : j.keys)
        if (k.kind == 'n' && (k.name == "total_time" || k.name == "event_count" || k.name.ends_with("_percent"))) flat = true;
    return flat ? Sniff::maybe : Sniff::no;
}

// In the order --list formats prints them; `priority` orders detection.
const std::vector<FormatDef> kFormats = {
    {"neuron-json", "neuron-profile / neuron-explorer `view --output-format json` (summary, instruction, dma arrays)",
     FormatKind::stream, 40, sniff_neuron_json, import_neuron_json, nullptr, {}, kDmaPackets},
    {"summary-json", "`view --output-format summary-json`: metrics keyed by graph id", FormatKind::stream, 50,
     sniff_summary_json, import_summary_json, nullptr, {}},
    {"summary-text", "`neuron-profile view --output-format summary-text`: a graph id line, then `key value` lines "
                     "(a terminal log around it is skipped)",
     FormatKind::stream, 45, sniff_summary_text, import_summary_text, nullptr, {}},
    {"system-json", "Neuron Explorer system_profile.json (trace_events: runtime API calls)", FormatKind::stream, 30,
     sniff_system_json, import_system_json, nullptr, {}},
    {"chrome-json", "Chrome trace-event JSON ({\"traceEvents\": [...]} or a bare array)", FormatKind::stream, 20,
     sniff_chrome_json, import_chrome_json, nullptr, {}, kHostTrace},
    {"nx-jsonl", "nx event and profile records (nx-convert --to events)", FormatKind::stream, 10, sniff_nx_jsonl,
     import_nx_jsonl, nullptr, {}, kNxRecords},
    {"explorer-parquet",
     "Neuron Explorer profile directory (`neuron-explorer view`, SDK 2.28 on): Instruction.parquet, DmaPacket.parquet, ...",
     FormatKind::directory, 60, nullptr, nullptr, import_explorer_profile, {}, kDmaPackets},
    {"ntff", "NTFF + NEFF, read through `neuron-explorer view --output-format parquet` (or neuron-profile's JSON on "
             "older SDKs)",
     FormatKind::ntff, 0, sniff_ntff, nullptr, nullptr, {}},
    // Recognised to be refused, with what to give instead.
    {"parquet-table", "Parquet table of a Neuron Explorer profile", FormatKind::refused, 1, sniff_parquet_table,
     nullptr, nullptr, "give the profile directory, which holds all its tables"},
    {"perfetto-trace", "Perfetto trace (protobuf)", FormatKind::refused, 2, sniff_perfetto_trace, nullptr, nullptr,
     "nx writes these (nx-convert --to pftrace) but does not read them; convert the profile the trace was made from"},
};

// The rows in detection order.
const std::vector<const FormatDef*>& by_priority() {
    static const std::vector<const FormatDef*> order = [] {
        std::vector<const FormatDef*> v;
        for (const FormatDef& f : kFormats) v.push_back(&f);
        std::stable_sort(v.begin(), v.end(), [](const FormatDef* a, const FormatDef* b) { return a->priority < b->priority; });
        return v;
    }();
    return order;
}

// The formats asked in priority order: whatever needs only the name and the
// first bytes first, then those that read the JSON's structure, which may
// stop the read as soon as one of them is sure.
const FormatDef* detect(const SniffInput& in) {
    const FormatDef* maybe = nullptr;
    auto ask = [&](const FormatDef& f, const SniffInput& what) -> bool {
        Sniff s = f.sniff(what);
        if (s == Sniff::maybe && !maybe) maybe = &f;
        return s == Sniff::yes;
    };
    for (const FormatDef* f : by_priority())
        if (f->sniff && f->kind != FormatKind::stream && ask(*f, in)) return f;
    // The JSON structure, read until a stream format is sure: each is asked
    // again as the top-level keys come (in.json() is the shape so far).
    in.json([&](const JsonShape&) {
        for (const FormatDef* f : by_priority())
            if (f->sniff && f->kind == FormatKind::stream && f->sniff(in) == Sniff::yes) return true;
        return false;
    });
    for (const FormatDef* f : by_priority())
        if (f->sniff && f->kind == FormatKind::stream && ask(*f, in)) return f;
    return maybe;
}

}  // namespace

const std::vector<FormatDef>& input_formats() { return kFormats; }

const FormatDef* find_input_format(std::string_view name) { return find_named(kFormats, name); }

bool format_has(std::string_view name, FormatTrait trait) {
    const FormatDef* f = find_input_format(name);
    return f && (f->traits & trait) != 0;
}

std::string input_format_names() {
    std::string s;
    for (const FormatDef& f : kFormats)
        if (f.kind != FormatKind::refused) s += (s.empty() ? "" : ", ") + std::string(f.name);
    return s;
}

Detected detect_format(std::string_view path, InputSource* in) {
    std::string_view prefix = in ? in->peek(kSniffPrefixBytes) : std::string_view();
    SniffInput sniff(std::string(path), prefix, in);
    Detected d;
    d.format = detect(sniff);
    if (d.format && (d.format->traits & kNxRecords) != 0) d.record_kind = sniff.json().first_line_kind;
    return d;
}

std::string_view sniff_format(std::string_view prefix, std::string_view path) {
    const FormatDef* f = detect(SniffInput(std::string(path), prefix, nullptr));
    return f ? f->name : std::string_view();
}

}  // namespace nx
