// `view --output-format summary-json`: an object keyed by node id
// ("n_<hash>"), each value the metrics object of that node.  One profile per
// node, metrics only (no events), the longest (total_time) first: a file of
// several nodes is a graph and its helpers, and the first profile is the one
// a person asked about.  A flat object of one node's metrics (what people
// paste from it: {"total_time": 0.0018, ...}) is one profile.
//
// As users capture it: with stdout and stderr together, the tool's own log
// lines come before the JSON (log_prefix.h); they are skipped with one note.
// Percents are fractions of 1, as in every Neuron summary (profile.h).
#include <rapidjson/document.h>

#include <algorithm>
#include <cmath>

#include "common/io/diag.h"
#include "common/import/importer.h"
#include "common/import/log_prefix.h"
#include "common/import/record_reader.h"
#include "common/import/summary_profile.h"
#include "common/io/error.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

// How far into the input log lines may reach before the JSON starts.
constexpr size_t kLogPrefixWindow = 1 << 20;

class SummaryJson : public RecordFormat {
public:
    SummaryJson(ImportHandler& out, ImportContext& ctx) : out_(out), ctx_(ctx) {}

    SectionMode section_mode(std::string_view) override { return SectionMode::records; }
    int field_id(std::string_view, std::string_view) override { return -1; }
    void top_level(bool is_object) override {
        if (!is_object) throw Error("expected a JSON object keyed by graph id", ctx_.where, 1);
    }

    void record(std::string_view graph, const std::vector<Slot>&, std::string_view args, int64_t line,
                const std::string& error) override {
        if (!error.empty()) {
            ctx_.bad_record(error + " in graph \"" + std::string(graph) + "\"", line);
            return;
        }
        if (graph == last_graph_) return;  // a list per graph: the first object describes it
        last_graph_.assign(graph);
        nodes_.emplace_back(std::string(graph), std::string(args), line);
    }

    // Top-level scalars: the metrics of a flat summary.
    void carried(std::string_view key, std::string_view json) override {
        if (flat_.size() > 1) flat_ += ",";
        flat_ += json_quote(key) + ":" + std::string(json);
    }

    // Emits the nodes, the longest first.
    void finish() {
        if (nodes_.empty() && flat_.size() > 1) nodes_.emplace_back(std::string(), flat_ + "}", 1);  // a flat summary: one node
        std::vector<Node> parsed;
        for (Node& n : nodes_) {
            n.doc.Parse(n.args.data(), n.args.size());
            if (n.args.empty() || n.doc.HasParseError() || !n.doc.IsObject()) {
                ctx_.bad_record("graph \"" + n.graph + "\" has no metrics", n.line);
                continue;
            }
            auto t = n.doc.FindMember("total_time");
            n.total_time = t != n.doc.MemberEnd() && t->value.IsNumber() ? t->value.GetDouble() : 0;
            parsed.push_back(std::move(n));
        }
        std::stable_sort(parsed.begin(), parsed.end(), [](const Node& a, const Node& b) { return a.total_time > b.total_time; });
        for (const Node& n : parsed) add_profile(n);
    }

    int profiles() const { return profiles_; }

private:
    struct Node {
        Node(std::string g, std::string a, int64_t l) : graph(std::move(g)), args(std::move(a)), line(l) {}
        std::string graph, args;
        int64_t line = 0;
        rapidjson::Document doc;
        double total_time = 0;
    };

    void add_profile(const Node& n) {
        import_summary_profile(out_, ctx_, "summary-json", n.graph, n.doc);
        ++profiles_;
    }

    ImportHandler& out_;
    ImportContext& ctx_;
    std::string last_graph_;
    std::vector<Node> nodes_;
    std::string flat_ = "{";
    int profiles_ = 0;
};

}  // namespace

void import_summary_json(InputSource& in, ImportHandler& out, ImportContext& ctx) {
    LogPrefix log = leading_log_lines(in.peek(kLogPrefixWindow));
    if (log.lines > 0) {
        in.skip(log.bytes);
        print_note(in.name() + ": skipped " + std::to_string(log.lines) + " log line" + (log.lines == 1 ? "" : "s") +
                   " before the JSON (the tool's own log: stdout and stderr were captured together)");
    }
    SummaryJson format(out, ctx);
    read_records(in, format, 1);
    format.finish();
    if (format.profiles() == 0 && ctx.bad_records == 0) throw Error("no graph summaries found", ctx.where);
}

}  // namespace nx
