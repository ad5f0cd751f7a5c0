// nx-convert --explain: for each profile read, what nx used of its source,
// what it converted, lacked and did not know, and what it kept as it is,
// as text to read or paste into a bug report.  For a Neuron Explorer export
// that is its schema report (import/explorer_fields.h); for any profile, the
// notes its summary carries.
#pragma once

#include "common/profile/record_sinks.h"

namespace nx {

class ExplainSink : public SummarySink {
public:
    using SummarySink::SummarySink;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;
};

}  // namespace nx
