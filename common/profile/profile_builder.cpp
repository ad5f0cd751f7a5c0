#include "common/profile/profile_builder.h"

#include <algorithm>
#include <cmath>

#include "common/io/error.h"
#include "common/profile/profile_record.h"

namespace nx {

void ProfileBuilder::begin_profile(const ProfileInfo& info) {
    if (metrics_) end_profile();
    info_ = info;
    content_ = 0;
    events_ = counters_ = 0;
    counter_runs_.clear();
    metrics_ = std::make_unique<ProfileMetrics>();
    metrics_->keep_last_step(keep_last_step_);
    errors_at_begin_ = error_counts().snapshot();
    to_sinks([&](ProfileSink& s) { s.begin_profile(info_); });
}

void ProfileBuilder::source_metric(std::string_view name, double value) {
    if (!metrics_) throw Error("internal: metric outside a profile");
    // A profile's length is a duration: negative or not a number is bad input.
    if (name == "total_time" && !(value >= 0 && std::isfinite(value)))
        throw Error("total_time must be a non-negative number (got " + std::to_string(value) + ")");
    ++content_;
    metrics_->add_source_metric(name, value);
}

void ProfileBuilder::event(const Event& e) {
    if (!metrics_) throw Error("internal: event outside a profile");
    ++content_;
    metrics_->add(e);
    if (e.type == EventType::counter) {
        if (!counter_runs_.empty() && counter_runs_.back().end == events_) ++counter_runs_.back().end;
        else counter_runs_.push_back({events_, events_ + 1, counters_});
        ++counters_;
    }
    ++events_;
    to_sinks([&](ProfileSink& s) { s.event(e); });
}

int64_t ProfileBuilder::slice_index(int64_t ordinal) const {
    if (ordinal < 0 || ordinal >= events_) return -1;
    auto after = std::upper_bound(counter_runs_.begin(), counter_runs_.end(), ordinal,
                                  [](int64_t o, const CounterRun& r) { return o < r.begin; });
    if (after == counter_runs_.begin()) return ordinal;
    const CounterRun& run = *(after - 1);
    if (ordinal < run.end) return -1;
    return ordinal - (run.before + (run.end - run.begin));
}

void ProfileBuilder::flow(const Flow& f) {
    if (!metrics_) throw Error("internal: flow outside a profile");
    Flow checked = f;
    checked.from_slice = slice_index(f.from);
    checked.to_slice = slice_index(f.to);
    for (auto [ordinal, index] : {std::pair{f.from, checked.from_slice}, std::pair{f.to, checked.to_slice}})
        if (index < 0)
            throw Error("flow " + f.id + ": event " + std::to_string(ordinal) + " is not a slice of this profile" +
                        (ordinal >= 0 && ordinal < events_ ? " (it is a counter sample)" : ""));
    to_sinks([&](ProfileSink& s) { s.flow(checked); });
}

void ProfileBuilder::source_rows(const SourceRows& rows) {
    if (!metrics_) throw Error("internal: source rows outside a profile");
    ++content_;
    metrics_->add_source_rows(rows);
    to_sinks([&](ProfileSink& s) { s.source_rows(rows); });
}

void ProfileBuilder::kept_source(const KeptSource& k) {
    if (!metrics_) throw Error("internal: a kept source outside a profile");
    ++content_;
    to_sinks([&](ProfileSink& s) { s.kept_source(k); });
}

bool ProfileBuilder::wants_source_rows(std::string_view table) const {
    if (RuleInputs::reads_table(table)) return true;
    for (const ProfileSink* s : sinks_)
        if (s->copies_source_rows()) return true;
    return false;
}

void ProfileBuilder::execution(const ExecutionWindow& w) {
    if (!metrics_) throw Error("internal: an execution outside a profile");
    metrics_->add_execution(w);
}

void ProfileBuilder::update_info(const ProfileInfo& info) { info_ = info; }

void ProfileBuilder::end_profile() {
    if (!metrics_) return;
    if (content_ == 0 && !require_content_.empty()) throw Error(require_content_);
    // What was skipped while reading this profile goes with it (its record,
    // the database's copy of that record, the report's notes).
    std::string skipped = error_counts().grown_since_json(errors_at_begin_);
    if (!skipped.empty()) merge_carried(info_, {{"import_errors", skipped}});
    ProfileSummary summary = metrics_->finish(info_);
    if (!skipped.empty())
        summary.notes.push_back("import: " + error_counts().grown_since_text(errors_at_begin_) +
                                " (--keep-going); the figures leave them out");
    metrics_.reset();
    size_t ended = 0;
    try {
        to_sinks([&](ProfileSink& s) {
            s.end_profile(info_, summary);
            ++ended;
        });
    } catch (...) {
        // The profile is over for every sink: those after the one that
        // failed drop it (no abort_profile() reaches them once this profile
        // has ended), the error goes on.
        for (size_t j = ended + 1; j < sinks_.size(); ++j) {
            try {
                sinks_[j]->abort_profile();
            } catch (...) {
                // The first error is the one to report; each sink still drops it.
            }
        }
        throw;
    }
    ++done_;
}

void ProfileBuilder::abort_profile() {
    if (!metrics_) return;
    metrics_.reset();
    for (ProfileSink* s : sinks_) s->abort_profile();
}

}  // namespace nx
