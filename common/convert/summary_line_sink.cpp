#include "common/convert/summary_line_sink.h"

#include <string>

#include "common/format/row_format.h"
#include "common/format/units.h"
#include "common/records/backend_words.h"

namespace nx {

void SummaryLineSink::end_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    std::string line = terminal_text(info.name, false) + ":";
    std::string who = info.backend.empty() ? "unknown backend" : info.backend;
    if (!info.target.empty()) who += " on " + info.target;
    if (info.rank >= 0) who += ", rank " + std::to_string(info.rank);
    line += " " + terminal_text(who, false) + ", " + format_count(static_cast<double>(summary.events)) + " events";
    if (const MetricValue* t = summary.find("total_time")) line += ", " + format_ns(t->value * 1e9);
    if (const MetricValue* m = summary.find("mfu_estimated_percent")) line += ", MFU " + format_percent(m->value);
    if (predicts(info.backend)) line += " (" + provenance_label(info.backend) + ")";
    out_.write(line + "\n");
}

}  // namespace nx
