// ProfileBuilder: the ImportHandler every importer and the model write into.
// It computes each profile's summary with ProfileMetrics and forwards the
// profile to its sinks.
#pragma once

#include <memory>
#include <vector>

#include "common/profile_metrics.h"
#include "common/profile_sink.h"

namespace nx {

class ProfileBuilder : public ImportHandler {
public:
    void add_sink(ProfileSink* sink) { sinks_.push_back(sink); }

    void begin_profile(const ProfileInfo& info) override;
    void source_metric(std::string_view name, double value) override;
    void event(const Event& e) override;
    void source_rows(const SourceRows& rows) override;
    void update_info(const ProfileInfo& info) override;
    void end_profile() override;
    void abort_profile() override;

    bool in_profile() const { return metrics_ != nullptr; }
    const ProfileInfo& info() const { return info_; }
    int profiles_done() const { return done_; }
    // While set, ending a profile that saw no event and no source metric
    // throws Error(message) before any sink sees it (a forced --format that
    // found nothing it reads).  Empty: off.
    void require_content(std::string message) { require_content_ = std::move(message); }

private:
    int64_t content_ = 0;
    std::string require_content_;
    std::vector<ProfileSink*> sinks_;
    std::unique_ptr<ProfileMetrics> metrics_;
    ProfileInfo info_;
    int done_ = 0;
};

}  // namespace nx
