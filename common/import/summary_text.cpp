// `neuron-profile view --output-format summary-text` (SDK 2.28 on): for each
// graph a line with its node id ("n_<40 hex>"), then one indented
// "key<spaces>value" line per Summary field, the same keys and units as
// summary-json (percents as fractions of 1; strings such as instance_type,
// profiler_version "2.0.25305.0%kaena-tools/develop@...", collectives_version
// "2.0.54928 ()").  As people keep it, it is a terminal log: shell prompts,
// the runtime's log lines ("2026-May-14 05:12:07.572290 PID:TID  WARN
// NMGR:...") and the viewer's logrus line come before it, a prompt after;
// every line that is not a node's is skipped, with one note saying how many.
// Each node is a profile (summary_profile.h), the longest first, as
// summary-json's.
#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "common/import/importer.h"
#include "common/import/summary_profile.h"
#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/limits.h"

namespace nx {

namespace {

std::string_view trim_right(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

bool is_hex(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

// The node id line: "n_" and hex digits, alone on its line.
bool is_node_line(std::string_view line) {
    line = trim_right(line);
    return line.size() >= 10 && line.size() <= 130 && line.substr(0, 2) == "n_" && is_hex(line.substr(2));
}

// "    key   value": a field of the node above.  The key is the Summary
// field's name; the value what is left of the line (may hold spaces).
bool field_line(std::string_view line, std::string_view& key, std::string_view& value) {
    line = trim_right(line);
    if (line.empty() || (line[0] != ' ' && line[0] != '\t')) return false;
    size_t k = line.find_first_not_of(" \t");
    size_t end = line.find_first_of(" \t", k);
    key = line.substr(k, end == std::string_view::npos ? std::string_view::npos : end - k);
    if (key.empty() || !(std::isalpha(static_cast<unsigned char>(key[0])) || key[0] == '_')) return false;
    for (char c : key)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '*')) return false;
    value = end == std::string_view::npos ? std::string_view() : line.substr(line.find_first_not_of(" \t", end));
    return true;
}

// A value that is all one number, as the viewer prints them ("0.0018",
// "1.5e-05", "12"); none for text.
std::optional<double> number(std::string_view v) {
    if (v.empty()) return std::nullopt;
    double d = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(d)) return std::nullopt;
    return d;
}

struct Node {
    std::string graph;
    int64_t line = 0;
    rapidjson::Document fields{rapidjson::kObjectType};
    double total_time = 0;
};

}  // namespace

Sniff sniff_summary_text(const SniffInput& in) {
    std::string_view text = in.prefix();
    size_t pos = 0;
    bool after_node = false;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) break;  // a line cut by the prefix's end
        std::string_view line = text.substr(pos, nl - pos), key, value;
        if (after_node && field_line(line, key, value)) return Sniff::yes;
        after_node = is_node_line(line);
        pos = nl + 1;
    }
    return Sniff::no;
}

void import_summary_text(InputSource& in, ImportHandler& out, ImportContext& ctx) {
    std::vector<Node> nodes;
    Node* open = nullptr;
    int64_t lineno = 0, skipped = 0;
    std::string text, carry;
    const size_t cap = max_record_bytes();
    size_t total = 0;
    char buf[1 << 16];
    auto one_line = [&](std::string_view line) {
        ++lineno;
        std::string_view key, value;
        if (is_node_line(line)) {
            nodes.emplace_back();
            open = &nodes.back();
            open->graph = std::string(trim_right(line));
            open->line = lineno;
            return;
        }
        if (open && field_line(line, key, value)) {
            auto& alloc = open->fields.GetAllocator();
            if (open->fields.HasMember(rapidjson::StringRef(key.data(), key.size()))) {
                ctx.bad_record("the field " + std::string(key) + " twice in node " + open->graph, lineno);
                return;
            }
            rapidjson::Value name(key.data(), static_cast<rapidjson::SizeType>(key.size()), alloc);
            int64_t whole = 0;
            if (auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), whole);
                !value.empty() && ec == std::errc() && p == value.data() + value.size()) {
                // Indexes and counts as the whole numbers summary-json has.
                open->fields.AddMember(name, rapidjson::Value(whole), alloc);
            } else if (std::optional<double> n = number(value)) {
                open->fields.AddMember(name, rapidjson::Value(*n), alloc);
                if (key == "total_time") open->total_time = *n;
            } else {
                open->fields.AddMember(name, rapidjson::Value(value.data(), static_cast<rapidjson::SizeType>(value.size()), alloc),
                                       alloc);
            }
            return;
        }
        open = nullptr;  // a node's fields end at the first line that is not one
        if (!trim_right(line).empty()) ++skipped;
    };
    for (;;) {
        size_t got = in.read(buf, sizeof buf);
        if (got == 0) break;
        total += got;
        if (total > cap) throw Error("larger than a summary-text log can be (" + max_record_text() + ")", in.name());
        carry.append(buf, got);
        size_t start = 0, nl;
        while ((nl = carry.find('\n', start)) != std::string::npos) {
            one_line(std::string_view(carry).substr(start, nl - start));
            start = nl + 1;
        }
        carry.erase(0, start);
    }
    if (!carry.empty()) one_line(carry);
    if (nodes.empty()) throw Error("no summary-text graph (a line n_<hex>, then indented 'key value' lines)", in.name());
    if (skipped > 0)
        print_note(in.name() + ": skipped " + std::to_string(skipped) + " line" + (skipped == 1 ? "" : "s") +
                   " around the summary (shell prompts, the tools' log)");
    std::stable_sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) { return a.total_time > b.total_time; });
    for (const Node& n : nodes) {
        if (n.fields.ObjectEmpty()) {
            ctx.bad_record("graph " + n.graph + " has no fields", n.line);
            continue;
        }
        import_summary_profile(out, ctx, "summary-text", n.graph, n.fields);
    }
}

}  // namespace nx
