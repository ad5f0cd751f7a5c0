// ProfileBuilder: the ImportHandler every importer and the model write into.
// It computes each profile's summary with ProfileMetrics and forwards the
// profile to its sinks.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/io/error.h"
#include "common/profile/profile_metrics.h"
#include "common/profile/profile_sink.h"
#include "common/records/error_counts.h"

namespace nx {

class ProfileBuilder : public ImportHandler {
public:
    void add_sink(ProfileSink* sink) { sinks_.push_back(sink); }

    void begin_profile(const ProfileInfo& info) override;
    void source_metric(std::string_view name, double value) override;
    void event(const Event& e) override;
    void source_rows(const SourceRows& rows) override;
    void kept_source(const KeptSource& k) override;
    // The rules read some carried tables (RuleInputs::reads_table); a sink
    // that copies reads them all.
    bool wants_source_rows(std::string_view table) const override;
    // Checks that both ends are slices already sent (throws Error if not)
    // and fills Flow::from_slice/to_slice before the sinks see it.
    void flow(const Flow& f) override;
    void execution(const ExecutionWindow& w) override;
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
    // Every profile counts its last profiler step's device work too
    // (ProfileMetrics::keep_last_step).
    void keep_last_step(bool keep) { keep_last_step_ = keep; }

private:
    // An event ordinal's index among the profile's non-counter events, or
    // -1 when it is a counter sample or not sent yet.
    int64_t slice_index(int64_t ordinal) const;
    // Calls `call` on every sink in order; a sink's Error leaves as a
    // SinkError, so that no importer skips it as bad input.
    template <typename Call>
    void to_sinks(Call&& call) {
        try {
            for (ProfileSink* s : sinks_) call(*s);
        } catch (const SinkError&) {
            throw;
        } catch (const Error& e) {
            throw SinkError(e);
        }
    }

    int64_t content_ = 0;
    // Events of the current profile so far, and its runs of consecutive
    // counter samples [begin, end) with the counters before each run: one
    // entry per run, so memory stays small however many events there are.
    struct CounterRun {
        int64_t begin, end, before;
    };
    int64_t events_ = 0;
    int64_t counters_ = 0;
    std::vector<CounterRun> counter_runs_;
    std::string require_content_;
    bool keep_last_step_ = false;
    std::vector<ProfileSink*> sinks_;
    std::unique_ptr<ProfileMetrics> metrics_;
    ProfileInfo info_;
    ErrorCounts::Snapshot errors_at_begin_{};
    int done_ = 0;
};

}  // namespace nx
