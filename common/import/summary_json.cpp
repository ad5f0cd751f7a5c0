// `view --output-format summary-json`: an object keyed by graph id
// ("n_<hash>"), each value the metrics object of that graph.  One profile per
// graph, metrics only (no events).  A flat object of one graph's metrics
// (what people paste from it: {"total_time": 0.0018, ...}) is one profile.
#include <rapidjson/document.h>

#include <cmath>

#include "common/import/importer.h"
#include "common/import/record_reader.h"
#include "common/io/error.h"
#include "common/profile/targets.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

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
        add_profile(graph, args, line);
    }

    // Top-level scalars: the metrics of a flat summary.
    void carried(std::string_view key, std::string_view json) override {
        if (flat_.size() > 1) flat_ += ",";
        flat_ += json_quote(key) + ":" + std::string(json);
    }

    void finish() {
        if (profiles_ > 0 || flat_.size() <= 1) return;
        add_profile({}, flat_ + "}", 1);  // a flat summary: one graph, named after the input
    }

    int profiles() const { return profiles_; }

private:
    void add_profile(std::string_view graph, std::string_view args, int64_t line) {
        rapidjson::Document doc;
        if (!args.empty()) doc.Parse(args.data(), args.size());
        if (args.empty() || doc.HasParseError() || !doc.IsObject()) {
            ctx_.bad_record("graph \"" + std::string(graph) + "\" has no metrics", line);
            return;
        }
        ProfileInfo info = ctx_.profile_info("summary-json", graph);
        if (info.backend.empty()) info.backend = "neuron";
        if (auto it = doc.FindMember("instance_type"); info.target.empty() && it != doc.MemberEnd() && it->value.IsString())
            info.target = target_of_instance(it->value.GetString());
        out_.begin_profile(info);
        for (auto& m : doc.GetObject()) {
            std::string_view k(m.name.GetString(), m.name.GetStringLength());
            if (!m.value.IsNumber() || is_identifier_field(k)) continue;
            double v = m.value.GetDouble();
            if (std::isfinite(v)) out_.source_metric(k, v);
        }
        out_.end_profile();
        ++profiles_;
    }

    ImportHandler& out_;
    ImportContext& ctx_;
    std::string last_graph_;
    std::string flat_ = "{";
    int profiles_ = 0;
};

}  // namespace

void import_summary_json(InputSource& in, ImportHandler& out, ImportContext& ctx) {
    SummaryJson format(out, ctx);
    read_records(in, format, 1);
    format.finish();
    if (format.profiles() == 0 && ctx.bad_records == 0) throw Error("no graph summaries found", ctx.where);
}

}  // namespace nx
