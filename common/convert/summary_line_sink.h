// nx-convert --db on a terminal: one line per profile loaded ("matmul:
// neuron on trn2, 634 events, 1.04 ms, MFU 2.46%") instead of its JSON
// profile record, which is for pipes (or --records).
#pragma once

#include "common/io/output.h"
#include "common/profile/profile_sink.h"

namespace nx {

class SummaryLineSink : public ProfileSink {
public:
    explicit SummaryLineSink(Output& out) : out_(out) {}
    void begin_profile(const ProfileInfo&) override {}
    void event(const Event&) override {}
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;

private:
    Output& out_;
};

}  // namespace nx
