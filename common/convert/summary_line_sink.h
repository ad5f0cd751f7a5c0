// nx-convert --db on a terminal: one line per profile loaded ("matmul:
// neuron on trn2, 634 events, 1.04 ms, MFU 2.46%") instead of its JSON
// profile record, which is for pipes (or --records).
#pragma once

#include "common/profile/record_sinks.h"

namespace nx {

class SummaryLineSink : public SummarySink {
public:
    using SummarySink::SummarySink;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;
};

}  // namespace nx
