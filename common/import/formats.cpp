// The input formats nx-convert reads, as one table, and content sniffing.
#include <rapidjson/reader.h>

#include <string>

#include "common/import/importer.h"
#include "common/import/log_prefix.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

const std::vector<FormatDef> kFormats = {
    {"neuron-json", "neuron-profile / neuron-explorer `view --output-format json` (summary, instruction, dma arrays)",
     import_neuron_json, nullptr},
    {"summary-json", "`view --output-format summary-json`: metrics keyed by graph id", import_summary_json, nullptr},
    {"system-json", "Neuron Explorer system_profile.json (trace_events: runtime API calls)", import_system_json, nullptr},
    {"chrome-json", "Chrome trace-event JSON ({\"traceEvents\": [...]} or a bare array)", import_chrome_json, nullptr},
    {"nx-jsonl", "nx event and profile records (nx-convert --to events)", import_nx_jsonl, nullptr},
    {"explorer-parquet",
     "Neuron Explorer profile directory (`neuron-explorer view`, SDK 2.28 on): Instruction.parquet, DmaPacket.parquet, ...",
     nullptr, import_explorer_profile},
};

// Collects the top-level keys of a JSON prefix (the parse may stop early:
// the prefix is cut), and whether the first value is an object holding
// metric-like numbers (summary-json).
class KeySniffer : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, KeySniffer> {
public:
    bool Default() { return true; }
    bool Key(const char* s, rapidjson::SizeType n, bool) {
        std::string_view k(s, n);
        if (depth == 1) {
            keys.emplace_back(k);
            if (k == "total_time" || k == "event_count" || k.find("_percent") != std::string_view::npos)
                top_has_metric_key = true;
        }
        if (depth == 2 && keys.size() == 1 && first_is_object) {
            if (k == "total_time" || k == "event_count" || k.find("_percent") != std::string_view::npos)
                first_looks_like_metrics = true;
        }
        return keys.size() < 64;
    }
    bool StartObject() {
        if (depth >= kMaxJsonDepth) return false;  // the importer reports it
        if (depth == 0) top_is_object = true;
        if (depth == 1 && top_is_object && keys.size() == 1) first_is_object = true;
        ++depth;
        return true;
    }
    bool EndObject(rapidjson::SizeType) {
        --depth;
        return true;
    }
    bool StartArray() {
        if (depth >= kMaxJsonDepth) return false;
        if (depth == 0) top_is_array = true;
        ++depth;
        return true;
    }
    bool EndArray(rapidjson::SizeType) {
        --depth;
        return true;
    }
    int depth = 0;
    bool top_is_object = false, top_is_array = false, first_is_object = false;
    bool first_looks_like_metrics = false;
    bool top_has_metric_key = false;  // a flat summary: {"total_time": ..., ...}
    bool Double(double) { return number(); }
    bool Int(int) { return number(); }
    bool Uint(unsigned) { return number(); }
    bool Int64(int64_t) { return number(); }
    bool Uint64(uint64_t) { return number(); }
    bool number() {
        if (depth == 1) ++top_numbers;
        return true;
    }
    int top_numbers = 0;
    std::vector<std::string> keys;
};

bool has(const std::vector<std::string>& keys, std::string_view k) {
    for (const std::string& s : keys)
        if (s == k) return true;
    return false;
}

// A flat summary: top-level numbers under metric names.
bool top_has_metric_key_and_numbers(const KeySniffer& k) {
    return k.top_is_object && k.top_has_metric_key && k.top_numbers > 0;
}

}  // namespace

const std::vector<FormatDef>& input_formats() { return kFormats; }

const FormatDef* find_input_format(std::string_view name) {
    for (const FormatDef& f : kFormats)
        if (f.name == name) return &f;
    return nullptr;
}

std::string input_format_names() {
    std::string s;
    for (const FormatDef& f : kFormats) s += (s.empty() ? "" : ", ") + std::string(f.name);
    return s + ", ntff";
}

std::string_view sniff_format(std::string_view prefix, std::string_view path) {
    std::string_view p = path;
    if (p.ends_with(".gz")) p.remove_suffix(3);
    if (p.ends_with(".ntff")) return "ntff";
    if (prefix.substr(0, 4) == "PAR1") return "parquet-table";
    // A summary as users capture it: the tool's log lines, then the JSON.
    if (LogPrefix log = leading_log_lines(prefix); log.lines > 0) {
        std::string_view rest = prefix.substr(log.bytes);
        return sniff_format(rest, path) == "summary-json" ? "summary-json" : std::string_view();
    }
    size_t start = prefix.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) return {};
    if (prefix.substr(start, 3) == "\xEF\xBB\xBF") start += 3;  // UTF-8 BOM
    char first = prefix[start];
    if (first != '{' && first != '[') return {};

    // nx records: the first line is a complete object with "kind".
    size_t nl = prefix.find('\n', start);
    std::string first_line(prefix.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (first == '{') {
        rapidjson::Reader r;
        KeySniffer k;
        rapidjson::StringStream ss(first_line.c_str());
        if (r.Parse<rapidjson::kParseNanAndInfFlag | rapidjson::kParseStopWhenDoneFlag>(ss, k) && has(k.keys, "kind"))
            return "nx-jsonl";
    }

    KeySniffer k;
    std::string text(prefix.substr(start));
    rapidjson::Reader r;
    rapidjson::StringStream ss(text.c_str());
    r.Parse<rapidjson::kParseNanAndInfFlag>(ss, k);  // stops at the cut: fine
    if (k.top_is_array) return "chrome-json";
    if (has(k.keys, "traceEvents")) return "chrome-json";
    if (has(k.keys, "trace_events") || has(k.keys, "mem_usage") || has(k.keys, "cpu_util")) return "system-json";
    if (has(k.keys, "instruction") || has(k.keys, "summary") || has(k.keys, "dma")) return "neuron-json";
    if (!k.keys.empty() && k.first_is_object &&
        (k.keys.front().rfind("n_", 0) == 0 || k.first_looks_like_metrics))
        return "summary-json";
    if (top_has_metric_key_and_numbers(k)) return "summary-json";
    return {};
}

}  // namespace nx
