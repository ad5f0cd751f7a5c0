#include "common/profile_builder.h"

#include <cmath>

#include "common/error.h"

namespace nx {

void ProfileBuilder::begin_profile(const ProfileInfo& info) {
    if (metrics_) end_profile();
    info_ = info;
    content_ = 0;
    metrics_ = std::make_unique<ProfileMetrics>();
    for (ProfileSink* s : sinks_) s->begin_profile(info_);
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
    for (ProfileSink* s : sinks_) s->event(e);
}

void ProfileBuilder::source_rows(const SourceRows& rows) {
    if (!metrics_) throw Error("internal: source rows outside a profile");
    ++content_;
    for (ProfileSink* s : sinks_) s->source_rows(rows);
}

void ProfileBuilder::update_info(const ProfileInfo& info) { info_ = info; }

void ProfileBuilder::end_profile() {
    if (!metrics_) return;
    if (content_ == 0 && !require_content_.empty()) throw Error(require_content_);
    ProfileSummary summary = metrics_->finish(info_);
    metrics_.reset();
    for (ProfileSink* s : sinks_) s->end_profile(info_, summary);
    ++done_;
}

void ProfileBuilder::abort_profile() {
    if (!metrics_) return;
    metrics_.reset();
    for (ProfileSink* s : sinks_) s->abort_profile();
}

}  // namespace nx
